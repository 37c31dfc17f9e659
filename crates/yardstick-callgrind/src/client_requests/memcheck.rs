//! Memcheck's client requests (`memcheck.h`).

use std::ffi::CStr;

use super::{request, tool_base};

const BASE: usize = tool_base(b'M', b'C');
const MAKE_MEM_NOACCESS: usize = BASE;
const MAKE_MEM_UNDEFINED: usize = BASE + 1;
const MAKE_MEM_DEFINED: usize = BASE + 2;
const DISCARD: usize = BASE + 3;
const CHECK_MEM_IS_ADDRESSABLE: usize = BASE + 4;
const CHECK_MEM_IS_DEFINED: usize = BASE + 5;
const DO_LEAK_CHECK: usize = BASE + 6;
const COUNT_LEAKS: usize = BASE + 7;
const CREATE_BLOCK: usize = BASE + 10;
const MAKE_MEM_DEFINED_IF_ADDRESSABLE: usize = BASE + 11;
const COUNT_LEAK_BLOCKS: usize = BASE + 12;
const ENABLE_ADDR_ERROR_REPORTING_IN_RANGE: usize = BASE + 13;
const DISABLE_ADDR_ERROR_REPORTING_IN_RANGE: usize = BASE + 14;

/// A block described with [`create_block`].
pub type BlockHandle = usize;

/// What a leak check found (bytes from [`count_leaks`], blocks from
/// [`count_leak_blocks`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeakCounts {
    /// Definitely lost.
    pub leaked: usize,
    /// Possibly lost.
    pub dubious: usize,
    /// Still reachable.
    pub reachable: usize,
    /// Suppressed.
    pub suppressed: usize,
}

fn range(code: usize, addr: *const (), len: usize) -> usize {
    request(0, code, [addr as usize, len, 0, 0, 0])
}

/// Marks `addr..addr+len` unaddressable: any access is an error.
#[inline(always)]
pub fn make_mem_noaccess(addr: *const (), len: usize) -> usize {
    range(MAKE_MEM_NOACCESS, addr, len)
}

/// Marks `addr..addr+len` addressable but undefined.
#[inline(always)]
pub fn make_mem_undefined(addr: *const (), len: usize) -> usize {
    range(MAKE_MEM_UNDEFINED, addr, len)
}

/// Marks `addr..addr+len` addressable and defined.
#[inline(always)]
pub fn make_mem_defined(addr: *const (), len: usize) -> usize {
    range(MAKE_MEM_DEFINED, addr, len)
}

/// Marks the addressable bytes of `addr..addr+len` defined.
#[inline(always)]
pub fn make_mem_defined_if_addressable(addr: *const (), len: usize) -> usize {
    range(MAKE_MEM_DEFINED_IF_ADDRESSABLE, addr, len)
}

/// Names `addr..addr+len` with `desc` in Memcheck's error messages.
#[inline(always)]
pub fn create_block<T: AsRef<CStr>>(addr: *const (), len: usize, desc: T) -> BlockHandle {
    request(
        0,
        CREATE_BLOCK,
        [addr as usize, len, desc.as_ref().as_ptr() as usize, 0, 0],
    )
}

/// Forgets a block made by [`create_block`]; 0 on success.
#[inline(always)]
pub fn discard(handle: BlockHandle) -> usize {
    request(0, DISCARD, [0, handle, 0, 0, 0])
}

/// 0 if `addr..addr+len` is addressable, else the first bad address (and
/// an error is reported).
#[inline(always)]
pub fn check_mem_is_addressable(addr: *const (), len: usize) -> usize {
    range(CHECK_MEM_IS_ADDRESSABLE, addr, len)
}

/// 0 if `addr..addr+len` is addressable and defined, else the first bad
/// address (and an error is reported).
#[inline(always)]
pub fn check_mem_is_defined(addr: *const (), len: usize) -> usize {
    range(CHECK_MEM_IS_DEFINED, addr, len)
}

/// [`check_mem_is_defined`] for the bytes of `value`.
#[inline(always)]
pub fn check_value_is_defined<T>(value: &T) -> usize {
    check_mem_is_defined((value as *const T).cast(), std::mem::size_of::<T>())
}

fn leak_check(mode: usize, which: usize) {
    request(0, DO_LEAK_CHECK, [mode, which, 0, 0, 0]);
}

/// A full leak check now.
#[inline(always)]
pub fn do_leak_check() {
    leak_check(0, 0);
}

/// A full leak check reporting only what grew since the last one.
#[inline(always)]
pub fn do_added_leak_check() {
    leak_check(0, 1);
}

/// A full leak check reporting what grew or shrank since the last one.
#[inline(always)]
pub fn do_changed_leak_check() {
    leak_check(0, 2);
}

/// A full leak check reporting only new loss records.
#[inline(always)]
pub fn do_new_leak_check() {
    leak_check(0, 3);
}

/// A summary leak check now.
#[inline(always)]
pub fn do_quick_leak_check() {
    leak_check(1, 0);
}

fn counts(code: usize) -> LeakCounts {
    let mut c = LeakCounts::default();
    request(
        0,
        code,
        [
            std::ptr::addr_of_mut!(c.leaked) as usize,
            std::ptr::addr_of_mut!(c.dubious) as usize,
            std::ptr::addr_of_mut!(c.reachable) as usize,
            std::ptr::addr_of_mut!(c.suppressed) as usize,
            0,
        ],
    );
    c
}

/// Bytes found by the last leak check (all zero outside Memcheck).
#[inline(always)]
pub fn count_leaks() -> LeakCounts {
    counts(COUNT_LEAKS)
}

/// Blocks found by the last leak check (all zero outside Memcheck).
#[inline(always)]
pub fn count_leak_blocks() -> LeakCounts {
    counts(COUNT_LEAK_BLOCKS)
}

/// Re-enables address errors in `addr..addr+len`.
#[inline(always)]
pub fn enable_addr_error_reporting_in_range(addr: *const (), len: usize) -> usize {
    range(ENABLE_ADDR_ERROR_REPORTING_IN_RANGE, addr, len)
}

/// Silences address errors in `addr..addr+len`.
#[inline(always)]
pub fn disable_addr_error_reporting_in_range(addr: *const (), len: usize) -> usize {
    range(DISABLE_ADDR_ERROR_REPORTING_IN_RANGE, addr, len)
}

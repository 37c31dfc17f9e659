//! DRD's client requests (`drd.h`): thread ids, suppressing and tracing
//! variables, and the same annotations as Helgrind's.

use std::ffi::CStr;

// DRD answers Helgrind's codes for the annotations the two share (`drd.h`).
use super::helgrind::{
    CLEAN_MEMORY, RWLOCK_ACQUIRED, RWLOCK_DESTROY_PRE as RWLOCK_DESTROY,
    RWLOCK_INIT_POST as RWLOCK_CREATE, RWLOCK_RELEASED, USERSO_RECV_POST as HAPPENS_AFTER,
    USERSO_SEND_PRE as HAPPENS_BEFORE,
};
use super::{request, tool_base};

const BASE: usize = tool_base(b'D', b'R');
const GET_VALGRIND_THREAD_ID: usize = BASE;
const GET_DRD_THREAD_ID: usize = BASE + 1;
const START_SUPPRESSION: usize = BASE + 2;
const FINISH_SUPPRESSION: usize = BASE + 3;
const START_TRACE_ADDR: usize = BASE + 4;
const STOP_TRACE_ADDR: usize = BASE + 5;
const RECORD_LOADS: usize = BASE + 6;
const RECORD_STORES: usize = BASE + 7;
const SET_THREAD_NAME: usize = BASE + 8;

fn two(code: usize, a: usize, b: usize) {
    request(0, code, [a, b, 0, 0, 0]);
}

fn var<T>(var: &T) -> (usize, usize) {
    (var as *const T as usize, std::mem::size_of::<T>())
}

/// The calling thread's id as Valgrind's core numbers it (0 natively).
#[inline(always)]
pub fn get_valgrind_threadid() -> usize {
    request(0, GET_VALGRIND_THREAD_ID, [0; 5])
}

/// The calling thread's id as DRD numbers it (0 natively).
#[inline(always)]
pub fn get_drd_threadid() -> usize {
    request(0, GET_DRD_THREAD_ID, [0; 5])
}

/// No data races are reported on `var` from now on.
#[inline(always)]
pub fn ignore_var<T>(var: &T) {
    let (addr, size) = self::var(var);
    two(START_SUPPRESSION, addr, size);
}

/// Data races on `var` are reported again.
#[inline(always)]
pub fn stop_ignoring_var<T>(var: &T) {
    let (addr, size) = self::var(var);
    two(FINISH_SUPPRESSION, addr, size);
}

/// Every access to `var` is reported until its memory is freed.
#[inline(always)]
pub fn trace_var<T>(var: &T) {
    let (addr, size) = self::var(var);
    two(START_TRACE_ADDR, addr, size);
}

/// Stops [`trace_var`].
#[inline(always)]
pub fn stop_tracing_var<T>(var: &T) {
    let (addr, size) = self::var(var);
    two(STOP_TRACE_ADDR, addr, size);
}

/// A hand-off point: see `helgrind::annotate_happens_before`.
#[inline(always)]
pub fn annotate_happens_before(obj: *const ()) {
    two(HAPPENS_BEFORE, obj as usize, 0);
}

/// The receiving end of [`annotate_happens_before`].
#[inline(always)]
pub fn annotate_happens_after(obj: *const ()) {
    two(HAPPENS_AFTER, obj as usize, 0);
}

/// A reader-writer lock at `lock` was created.
#[inline(always)]
pub fn annotate_rwlock_create(lock: *const ()) {
    two(RWLOCK_CREATE, lock as usize, 0);
}

/// The reader-writer lock at `lock` is about to be destroyed.
#[inline(always)]
pub fn annotate_rwlock_destroy(lock: *const ()) {
    two(RWLOCK_DESTROY, lock as usize, 0);
}

/// The lock at `lock` was acquired, for writing if `is_writer_lock`.
#[inline(always)]
pub fn annotate_rwlock_acquired(lock: *const (), is_writer_lock: bool) {
    two(RWLOCK_ACQUIRED, lock as usize, usize::from(is_writer_lock));
}

/// The lock at `lock` is about to be released.
#[inline(always)]
pub fn annotate_rwlock_released(lock: *const (), is_writer_lock: bool) {
    two(RWLOCK_RELEASED, lock as usize, usize::from(is_writer_lock));
}

/// Races on `addr` (the whole `T`) are benign: not reported.
#[inline(always)]
pub fn annotate_benign_race<T>(addr: &T) {
    ignore_var(addr);
}

/// Races on `size` bytes from `addr` are benign: not reported.
#[inline(always)]
pub fn annotate_benign_race_sized<T>(addr: &T, size: usize) {
    two(START_SUPPRESSION, addr as *const T as usize, size);
}

/// The calling thread's reads are ignored until
/// [`annotate_ignore_reads_end`].
#[inline(always)]
pub fn annotate_ignore_reads_begin() {
    two(RECORD_LOADS, 0, 0);
}

/// Ends [`annotate_ignore_reads_begin`].
#[inline(always)]
pub fn annotate_ignore_reads_end() {
    two(RECORD_LOADS, 1, 0);
}

/// The calling thread's writes are ignored until
/// [`annotate_ignore_writes_end`].
#[inline(always)]
pub fn annotate_ignore_writes_begin() {
    two(RECORD_STORES, 0, 0);
}

/// Ends [`annotate_ignore_writes_begin`].
#[inline(always)]
pub fn annotate_ignore_writes_end() {
    two(RECORD_STORES, 1, 0);
}

/// Both [`annotate_ignore_reads_begin`] and [`annotate_ignore_writes_begin`].
#[inline(always)]
pub fn annotate_ignore_reads_and_writes_begin() {
    annotate_ignore_reads_begin();
    annotate_ignore_writes_begin();
}

/// Both [`annotate_ignore_reads_end`] and [`annotate_ignore_writes_end`].
#[inline(always)]
pub fn annotate_ignore_reads_and_writes_end() {
    annotate_ignore_reads_end();
    annotate_ignore_writes_end();
}

/// `size` bytes at `addr` were just allocated by a custom allocator.
#[inline(always)]
pub fn annotate_new_memory(addr: *const (), size: usize) {
    two(CLEAN_MEMORY, addr as usize, size);
}

/// Every access to the byte at `addr` is reported.
#[inline(always)]
pub fn annotate_trace_memory(addr: *const ()) {
    two(START_TRACE_ADDR, addr as usize, 1);
}

/// Names the calling thread in DRD's messages.
#[inline(always)]
pub fn annotate_thread_name<T: AsRef<CStr>>(name: T) {
    two(SET_THREAD_NAME, name.as_ref().as_ptr() as usize, 0);
}

//! Valgrind's core client requests (`valgrind.h`).

use super::{request, StackId};

const RUNNING_ON_VALGRIND: usize = 0x1001;
const DISCARD_TRANSLATIONS: usize = 0x1002;
const COUNT_ERRORS: usize = 0x1201;
const MONITOR_COMMAND: usize = 0x1202;
const MALLOCLIKE_BLOCK: usize = 0x1301;
const FREELIKE_BLOCK: usize = 0x1302;
const CREATE_MEMPOOL: usize = 0x1303;
const DESTROY_MEMPOOL: usize = 0x1304;
const MEMPOOL_ALLOC: usize = 0x1305;
const MEMPOOL_FREE: usize = 0x1306;
const RESIZEINPLACE_BLOCK: usize = 0x130b;
const STACK_REGISTER: usize = 0x1501;
const STACK_DEREGISTER: usize = 0x1502;
const STACK_CHANGE: usize = 0x1503;
const CHANGE_ERR_DISABLEMENT: usize = 0x1801;

/// 0 on a real CPU; under Valgrind the number of Valgrinds (1, or more
/// when Valgrind runs under Valgrind).
#[inline(always)]
pub fn running_on_valgrind() -> usize {
    request(0, RUNNING_ON_VALGRIND, [0; 5])
}

/// Makes Valgrind discard its translations of the code in `addr..addr+len`
/// (for code that modifies itself).
#[inline(always)]
pub fn discard_translations(addr: *const (), len: usize) {
    request(0, DISCARD_TRANSLATIONS, [addr as usize, len, 0, 0, 0]);
}

/// The number of errors the tool (Memcheck, Helgrind, DRD) reported so far.
#[inline(always)]
pub fn count_errors() -> usize {
    request(0, COUNT_ERRORS, [0; 5])
}

/// Runs a gdbserver monitor command; true if it was not recognised.
#[inline(always)]
pub fn monitor_command<T: AsRef<std::ffi::CStr>>(command: T) -> bool {
    request(
        0,
        MONITOR_COMMAND,
        [command.as_ref().as_ptr() as usize, 0, 0, 0, 0],
    ) != 0
}

/// Tells the tool that `addr..addr+size` was allocated by a custom
/// allocator.
#[inline(always)]
pub fn malloclike_block(addr: *const (), size: usize, redzone: usize, is_zeroed: bool) {
    request(
        0,
        MALLOCLIKE_BLOCK,
        [addr as usize, size, redzone, usize::from(is_zeroed), 0],
    );
}

/// Tells the tool that a custom allocator resized the block at `addr`.
#[inline(always)]
pub fn resizeinplace_block(addr: *const (), old_size: usize, new_size: usize, redzone: usize) {
    request(
        0,
        RESIZEINPLACE_BLOCK,
        [addr as usize, old_size, new_size, redzone, 0],
    );
}

/// Tells the tool that a custom allocator freed the block at `addr`.
#[inline(always)]
pub fn freelike_block(addr: *const (), redzone: usize) {
    request(0, FREELIKE_BLOCK, [addr as usize, redzone, 0, 0, 0]);
}

/// Declares a memory pool anchored at `pool`.
#[inline(always)]
pub fn create_mempool(pool: *const (), redzone: usize, is_zeroed: bool) {
    request(
        0,
        CREATE_MEMPOOL,
        [pool as usize, redzone, usize::from(is_zeroed), 0, 0],
    );
}

/// Removes the memory pool anchored at `pool`.
#[inline(always)]
pub fn destroy_mempool(pool: *const ()) {
    request(0, DESTROY_MEMPOOL, [pool as usize, 0, 0, 0, 0]);
}

/// Records an allocation of `size` bytes at `addr` from `pool`.
#[inline(always)]
pub fn mempool_alloc(pool: *const (), addr: *const (), size: usize) {
    request(0, MEMPOOL_ALLOC, [pool as usize, addr as usize, size, 0, 0]);
}

/// Records that the allocation at `addr` went back to `pool`.
#[inline(always)]
pub fn mempool_free(pool: *const (), addr: *const ()) {
    request(0, MEMPOOL_FREE, [pool as usize, addr as usize, 0, 0, 0]);
}

/// Declares `start..end` a stack (for user-level threads); returns its id.
#[inline(always)]
pub fn stack_register(start: usize, end: usize) -> StackId {
    request(0, STACK_REGISTER, [start, end, 0, 0, 0])
}

/// Forgets the stack `id`.
#[inline(always)]
pub fn stack_deregister(id: StackId) {
    request(0, STACK_DEREGISTER, [id, 0, 0, 0, 0]);
}

/// Moves the stack `id` to `start..end`.
#[inline(always)]
pub fn stack_change(id: StackId, start: usize, end: usize) {
    request(0, STACK_CHANGE, [id, start, end, 0, 0]);
}

/// Stops reporting errors of the current thread (nests with
/// [`enable_error_reporting`]).
#[inline(always)]
pub fn disable_error_reporting() {
    request(0, CHANGE_ERR_DISABLEMENT, [1, 0, 0, 0, 0]);
}

/// Undoes one [`disable_error_reporting`].
#[inline(always)]
pub fn enable_error_reporting() {
    request(0, CHANGE_ERR_DISABLEMENT, [usize::MAX, 0, 0, 0, 0]);
}

//! Helgrind's client requests (`helgrind.h`): annotations for
//! synchronisation Helgrind cannot see (custom locks, lock-free hand-offs).

use super::{request, tool_base};

pub(super) const CLEAN_MEMORY: usize = tool_base(b'H', b'G');
/// The first of the requests `helgrind.h` reserves for its own wrappers.
const INTERNAL: usize = tool_base(b'H', b'G') + 256;
pub(super) const RWLOCK_INIT_POST: usize = INTERNAL + 14;
pub(super) const RWLOCK_DESTROY_PRE: usize = INTERNAL + 15;
pub(super) const RWLOCK_ACQUIRED: usize = INTERNAL + 17;
pub(super) const RWLOCK_RELEASED: usize = INTERNAL + 18;
pub(super) const USERSO_SEND_PRE: usize = INTERNAL + 33;
pub(super) const USERSO_RECV_POST: usize = INTERNAL + 34;
const USERSO_FORGET_ALL: usize = INTERNAL + 35;
const ARANGE_MAKE_UNTRACKED: usize = INTERNAL + 39;
const ARANGE_MAKE_TRACKED: usize = INTERNAL + 40;

fn one(code: usize, addr: *const ()) {
    request(0, code, [addr as usize, 0, 0, 0, 0]);
}

/// Makes Helgrind forget what it knows of `start..start+len`, as if newly
/// allocated (for memory a custom allocator recycles).
#[inline(always)]
pub fn clean_memory(start: *const (), len: usize) {
    request(0, CLEAN_MEMORY, [start as usize, len, 0, 0, 0]);
}

/// Marks a hand-off point: what this thread did so far happens before what
/// a thread does after [`annotate_happens_after`] on the same `obj`.
#[inline(always)]
pub fn annotate_happens_before(obj: *const ()) {
    one(USERSO_SEND_PRE, obj);
}

/// The receiving end of [`annotate_happens_before`] on `obj`.
#[inline(always)]
pub fn annotate_happens_after(obj: *const ()) {
    one(USERSO_RECV_POST, obj);
}

/// Forgets the hand-offs recorded on `obj` (before reusing it).
#[inline(always)]
pub fn annotate_happens_before_forget_all(obj: *const ()) {
    one(USERSO_FORGET_ALL, obj);
}

/// `size` bytes at `addr` were just allocated by a custom allocator.
#[inline(always)]
pub fn annotate_new_memory(addr: *const (), size: usize) {
    clean_memory(addr, size);
}

/// A reader-writer lock at `lock` was created.
#[inline(always)]
pub fn annotate_rwlock_create(lock: *const ()) {
    one(RWLOCK_INIT_POST, lock);
}

/// The reader-writer lock at `lock` is about to be destroyed.
#[inline(always)]
pub fn annotate_rwlock_destroy(lock: *const ()) {
    one(RWLOCK_DESTROY_PRE, lock);
}

/// The lock at `lock` was acquired, for writing if `is_writer_lock`.
#[inline(always)]
pub fn annotate_rwlock_acquired(lock: *const (), is_writer_lock: bool) {
    request(
        0,
        RWLOCK_ACQUIRED,
        [lock as usize, usize::from(is_writer_lock), 0, 0, 0],
    );
}

/// The lock at `lock` is about to be released (Helgrind ignores
/// `is_writer_lock`, as `helgrind.h` does).
#[inline(always)]
pub fn annotate_rwlock_released(lock: *const (), is_writer_lock: bool) {
    let _ = is_writer_lock;
    one(RWLOCK_RELEASED, lock);
}

/// Stops checking `start..start+len` for races.
#[inline(always)]
pub fn disable_checking(start: *const (), len: usize) {
    request(0, ARANGE_MAKE_UNTRACKED, [start as usize, len, 0, 0, 0]);
}

/// Checks `start..start+len` again after [`disable_checking`].
#[inline(always)]
pub fn enable_checking(start: *const (), len: usize) {
    request(0, ARANGE_MAKE_TRACKED, [start as usize, len, 0, 0, 0]);
}

//! Callgrind's collection switched on around timed loops only, while a
//! worker runs `--explain`'s counted iterations (`crate::explain`). A leaf
//! of the crate: the timing loops (`bencher`), the worker and the
//! front-ends' hook (`frontend::timed_loop`) call it, and it calls nothing
//! of the crate.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a worker counts now ([`Window`]); read by [`collect`].
static ARMED: AtomicBool = AtomicBool::new(false);
/// Whether the counted routine timed itself (`iter_custom`).
static CUSTOM: AtomicBool = AtomicBool::new(false);
/// Whether Callgrind collects now: the request toggles, so the state is
/// kept here and a request is sent only when it changes.
static COLLECTING: AtomicBool = AtomicBool::new(false);
/// A front-end that times its own loops inside `iter_custom` (divan's
/// API) and says where they are ([`front_end_loop`]).
static OWN_LOOPS: AtomicBool = AtomicBool::new(false);
/// Inside `iter_custom`'s routine now.
static IN_CUSTOM: AtomicBool = AtomicBool::new(false);

fn set_collecting(on: bool) {
    if COLLECTING.swap(on, Ordering::Relaxed) != on {
        yardstick_format::valgrind::callgrind_toggle_collect();
    }
}

/// Switches Callgrind's collection on (`true`) or off around a timed
/// loop, when a worker explains; nothing otherwise (one relaxed load,
/// outside the timed code). Inside `iter_custom` of a front-end that
/// marks its own loops, those marks decide instead.
#[inline]
pub(crate) fn collect(on: bool) {
    if ARMED.load(Ordering::Relaxed)
        && !(OWN_LOOPS.load(Ordering::Relaxed) && IN_CUSTOM.load(Ordering::Relaxed))
    {
        set_collecting(on);
    }
}

/// Called by `iter_custom` before (`true`) and after its routine: the
/// routine times itself, so what it counts cannot be told from its setup,
/// unless the front-end marks its loops.
#[inline]
pub(crate) fn in_custom(inside: bool) {
    if ARMED.load(Ordering::Relaxed) {
        IN_CUSTOM.store(inside, Ordering::Relaxed);
        if inside && !OWN_LOOPS.load(Ordering::Relaxed) {
            CUSTOM.store(true, Ordering::Relaxed);
        }
    }
}

/// A front-end that times its own loops inside `iter_custom` says so once
/// (`frontend::times_its_own_loops`).
pub(crate) fn own_loops() {
    OWN_LOOPS.store(true, Ordering::Relaxed);
}

/// Such a front-end's loop starts (`true`, just before its clock) or ends
/// (just after).
#[inline]
pub(crate) fn front_end_loop(on: bool) {
    if ARMED.load(Ordering::Relaxed) {
        set_collecting(on);
    }
}

/// The counted iterations of a worker's `explain` request: collection is
/// switched around timed loops while it is open (closed on drop too, so a
/// panicking routine leaves no window open).
pub(crate) struct Window(());

impl Window {
    pub(crate) fn open() -> Window {
        CUSTOM.store(false, Ordering::Relaxed);
        ARMED.store(true, Ordering::Relaxed);
        Window(())
    }

    /// Closes it; whether only timed loops were counted.
    pub(crate) fn close(self) -> bool {
        !CUSTOM.load(Ordering::Relaxed)
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        ARMED.store(false, Ordering::Relaxed);
        IN_CUSTOM.store(false, Ordering::Relaxed);
        set_collecting(false);
    }
}

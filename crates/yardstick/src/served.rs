//! The hook through which a worker's timing loop answers its parent: a
//! leaf below the timing loops. `worker::serve` sets it while it calls a
//! benchmark function; `Bencher::timed` hands its loop to it.

use std::cell::Cell;
use std::time::Duration;

/// One run of an `iter*` loop for a number of iterations: the measured
/// value as f64 and the wall time of the whole call.
pub(crate) type Loop<'f> = dyn FnMut(u64) -> (f64, Duration) + 'f;

/// Answers requests with the loop until the parent moves on; false when it
/// took none (the caller then runs its loop once, as outside a worker).
pub(crate) type Hook = fn(&mut Loop<'_>) -> bool;

thread_local! {
    static HOOK: Cell<Option<Hook>> = const { Cell::new(None) };
}

/// Sets (or with `None` clears) this thread's hook.
pub(crate) fn set(hook: Option<Hook>) {
    HOOK.with(|h| h.set(hook));
}

/// Hands `run` to the hook, if one is set; whether it served.
pub(crate) fn from_loop(run: &mut Loop<'_>) -> bool {
    HOOK.with(Cell::get).is_some_and(|hook| hook(run))
}

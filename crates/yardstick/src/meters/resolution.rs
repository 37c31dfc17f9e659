//! The resolution of the clocks, measured once per process.
//!
//! A clock's *effective* resolution is the smallest step two readings can
//! show: the clock's tick when the clock is coarse, the cost of one reading
//! when the tick is finer than that. It is what bounds the precision of one
//! timed sample, so it is what is measured: wait for the reading to change
//! (so the first reading sits just after a tick), then take the difference to
//! the next reading that differs; the smallest such difference over a few
//! dozen tries (at most about 50 ms in all) is the result.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::clock::CpuClock;

/// How many differences are taken; fewer when the clock is coarse.
const TRIES: usize = 200;
/// The time budget of one measurement.
const BUDGET: Duration = Duration::from_millis(50);

/// The effective resolution of the monotonic clock behind [`Instant`]: the
/// smallest non-zero difference between two readings (see the module docs),
/// measured on the first call and remembered.
///
/// On a modern x86-64 Linux this is the cost of one reading, tens of
/// nanoseconds; a clock with a coarse tick (15.6 ms on some Windows setups)
/// shows its tick.
pub fn clock_resolution() -> Duration {
    static RESOLUTION: OnceLock<Duration> = OnceLock::new();
    *RESOLUTION.get_or_init(|| {
        let origin = Instant::now();
        smallest_step(|| Some(origin.elapsed().as_nanos() as u64)).unwrap_or(Duration::ZERO)
    })
}

/// The effective resolution of the CPU-time clocks (the coarser of the
/// process's and the thread's), measured on the first call and remembered;
/// `None` where CPU time cannot be read.
///
/// Reading a CPU-time clock is a system call, so this is typically a few
/// hundred nanoseconds even though the clocks count in nanoseconds.
pub fn cpu_clock_resolution() -> Option<Duration> {
    static RESOLUTION: OnceLock<Option<Duration>> = OnceLock::new();
    *RESOLUTION.get_or_init(|| {
        let process = smallest_step(|| CpuClock::Process.now_ns().ok())?;
        let thread = smallest_step(|| CpuClock::Thread.now_ns().ok())?;
        Some(process.max(thread))
    })
}

/// The smallest non-zero step of `read` (nanoseconds), or `None` when it
/// fails or never moves within the budget.
fn smallest_step(mut read: impl FnMut() -> Option<u64>) -> Option<Duration> {
    let deadline = Instant::now() + BUDGET;
    let mut best = u64::MAX;
    for _ in 0..TRIES {
        let first = read()?;
        let edge = next_change(&mut read, first, deadline)?;
        let after = next_change(&mut read, edge, deadline)?;
        best = best.min(after - edge);
        if Instant::now() >= deadline {
            break;
        }
    }
    Some(Duration::from_nanos(best))
}

/// Reads until the value differs from `from`; `None` past the deadline.
fn next_change(
    read: &mut impl FnMut() -> Option<u64>,
    from: u64,
    deadline: Instant,
) -> Option<u64> {
    loop {
        let now = read()?;
        if now > from {
            return Some(now);
        }
        if Instant::now() >= deadline {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monotonic_clock_resolves_below_a_millisecond() {
        let r = clock_resolution();
        assert!(r > Duration::ZERO && r < Duration::from_millis(1), "{r:?}");
        assert_eq!(clock_resolution(), r, "measured once");
    }

    #[cfg(unix)]
    #[test]
    fn the_cpu_clocks_resolve_below_a_millisecond() {
        let r = cpu_clock_resolution().expect("CPU clocks exist on unix");
        assert!(r > Duration::ZERO && r < Duration::from_millis(1), "{r:?}");
    }

    #[test]
    fn a_coarse_clock_shows_its_tick() {
        // A fake clock that ticks by 1000 every 7th reading.
        let mut n = 0u64;
        let step = smallest_step(|| {
            n += 1;
            Some(n / 7 * 1000)
        });
        assert_eq!(step, Some(Duration::from_nanos(1000)));
    }

    #[test]
    fn a_clock_that_never_moves_has_no_resolution() {
        assert_eq!(smallest_step(|| Some(5)), None);
        assert_eq!(smallest_step(|| None), None);
    }
}

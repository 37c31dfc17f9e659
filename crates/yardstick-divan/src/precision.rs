//! The timer's precision, measured and printed as divan measures and prints
//! it (`Timer precision: 20 ns` on stderr before the tree): people read the
//! line to judge the smallest figures, and scripts written for divan's
//! output skip it.
//!
//! divan's measure is not the engine's clock resolution (which waits for a
//! tick's edge): it is the smallest non-zero difference of two readings in
//! immediate succession, confirmed by seeing it 100 times; where readings in
//! succession are all equal (a coarse clock), a growing busy loop is put
//! between them, and once that loop is over 100 rounds long the smallest
//! seen so far is taken. The same figure sets the plan's smallest sample
//! (100 times it), as divan's tuning uses its own.

use std::cmp::Ordering;
use std::hint::black_box;
use std::sync::atomic::{compiler_fence, fence, Ordering as Mem};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Readings per round before the busy loop between them grows.
const ROUND: usize = 100;
/// How many times the smallest difference must be seen to be believed.
const CONFIRMATIONS: u32 = 100;
/// How long the busy loop may grow before the smallest seen is taken.
const MAX_DELAY: usize = 100;

/// The precision of the OS clock (`Instant`), measured on first use.
pub(crate) fn timer_precision() -> Duration {
    static CACHED: OnceLock<Duration> = OnceLock::new();
    *CACHED.get_or_init(|| measure(timed_pair))
}

/// Two readings of the clock with a busy loop of `delay` rounds between
/// them, fenced as divan fences its timestamps (so that neither the CPU nor
/// the compiler moves work across them).
fn timed_pair(delay: usize) -> Duration {
    fence(Mem::SeqCst);
    let start = Instant::now();
    compiler_fence(Mem::SeqCst);
    for n in 0..delay {
        black_box(n);
    }
    compiler_fence(Mem::SeqCst);
    let end = Instant::now();
    fence(Mem::SeqCst);
    end.duration_since(start)
}

/// divan's search for the smallest non-zero difference, over `sample(delay)`.
fn measure(mut sample: impl FnMut(usize) -> Duration) -> Duration {
    let mut min = Duration::MAX;
    let mut seen = 0;
    let mut delay = 0usize;
    loop {
        for _ in 0..ROUND {
            let d = sample(delay);
            if d.is_zero() {
                continue;
            }
            match d.cmp(&min) {
                // Longer than the minimum: after a long delay, readings no
                // longer come back to it; take it.
                Ordering::Greater if delay > MAX_DELAY => return min,
                Ordering::Greater => {}
                Ordering::Equal => {
                    seen += 1;
                    if seen >= CONFIRMATIONS {
                        return min;
                    }
                }
                Ordering::Less => {
                    min = d;
                    seen = 0;
                }
            }
        }
        delay = delay.saturating_add(1);
    }
}

/// A duration as divan's `FineDuration` prints it: four significant digits
/// cut (not rounded), trailing zeros dropped, in the largest unit it
/// reaches (picoseconds read as nanoseconds).
pub(crate) fn divan_duration(d: Duration) -> String {
    const UNITS: [(u128, &str); 7] = [
        (1_000, "ns"),
        (1_000_000, "µs"),
        (1_000_000_000, "ms"),
        (1_000_000_000_000, "s"),
        (60_000_000_000_000, "m"),
        (3_600_000_000_000_000, "h"),
        (86_400_000_000_000_000, "d"),
    ];
    let picos = d.as_nanos() * 1_000;
    let (scale, suffix) = UNITS
        .iter()
        .rev()
        .find(|(scale, _)| picos >= *scale)
        .copied()
        .unwrap_or(UNITS[0]);
    // Four digits of fraction kept in integers before the division, as
    // divan does, so the cut is exact.
    let value = ((picos * 10_000) / scale) as f64 / 10_000.0;
    format!("{} {suffix}", crate::table::truncated(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_divan() {
        let ns = Duration::from_nanos;
        assert_eq!(divan_duration(ns(20)), "20 ns");
        assert_eq!(divan_duration(ns(41)), "41 ns");
        assert_eq!(divan_duration(ns(1_000)), "1 µs");
        assert_eq!(divan_duration(ns(1_234_567)), "1.234 ms");
        // A coarse Windows tick: cut, not rounded, to four digits.
        assert_eq!(divan_duration(ns(15_625_000)), "15.62 ms");
        assert_eq!(divan_duration(Duration::ZERO), "0 ns");
    }

    /// A clock whose readings differ by 20 ns most of the time is 20 ns
    /// precise, even with a few 40 ns and zero differences among them.
    #[test]
    fn the_smallest_difference_seen_a_hundred_times() {
        let mut i = 0u32;
        let got = measure(|_| {
            i += 1;
            Duration::from_nanos(match i % 7 {
                0 => 0,
                3 => 40,
                _ => 20,
            })
        });
        assert_eq!(got, Duration::from_nanos(20));
    }

    /// A coarse clock that reads the same twice in a row: the busy loop
    /// grows until the readings differ, and its tick is the answer.
    #[test]
    fn a_coarse_clock_shows_its_tick() {
        let got = measure(|delay| {
            if delay < 5 {
                Duration::ZERO
            } else {
                Duration::from_millis(15)
            }
        });
        assert_eq!(got, Duration::from_millis(15));
        // Differences that keep growing with the loop: the smallest seen
        // once the loop is long.
        let got = measure(|delay| Duration::from_nanos(1_000 + delay as u64));
        assert_eq!(got, Duration::from_nanos(1_000));
    }

    #[test]
    fn the_real_clock_is_measured() {
        let p = timer_precision();
        assert!(
            p > Duration::ZERO && p < Duration::from_millis(100),
            "{p:?}"
        );
    }
}

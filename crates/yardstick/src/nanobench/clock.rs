//! The resolution of the monotonic clock, measured once per process as
//! nanobench measures it: the smallest of 20 differences between a reading
//! and the first later reading that differs from it.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How many differences the measurement takes (nanobench: 20).
const SAMPLES: usize = 20;

/// The measured resolution of [`Instant`], in nanoseconds.
pub(super) fn resolution_ns() -> f64 {
    static RESOLUTION: OnceLock<f64> = OnceLock::new();
    *RESOLUTION.get_or_init(measure)
}

fn measure() -> f64 {
    let deltas: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let begin = Instant::now();
            let mut end = Instant::now();
            while end == begin {
                end = Instant::now();
            }
            nanos(end - begin)
        })
        .collect();
    // Every delta is positive by construction; 1 ns is the floor of Instant.
    yardstick_stats::nanobench::clock_resolution(&deltas).unwrap_or(1.0)
}

/// A duration in nanoseconds, as a float.
pub(super) fn nanos(d: Duration) -> f64 {
    d.as_nanos() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_is_positive_and_below_a_millisecond() {
        let r = resolution_ns();
        assert!(r > 0.0 && r < 1e6, "{r}");
        assert_eq!(r.to_bits(), resolution_ns().to_bits());
    }
}

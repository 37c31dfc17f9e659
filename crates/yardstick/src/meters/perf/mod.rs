//! Performance counters through Linux's `perf_event_open`, read as one group.
//!
//! Every requested event is opened on the calling thread as a member of one
//! group, hardware events first (so a hardware event leads when there is
//! one), and the group is enabled once; a sample reads the whole group with
//! one `read` at its start and one at its end, so all values cover the same
//! interval and cost two system calls per sample.
//!
//! # Multiplexing
//!
//! When more hardware events are wanted than the CPU has counters, the kernel
//! time-shares them and the group counts only part of the time. Each read
//! carries the group's `time_enabled` and `time_running`; a sample's values
//! are **scaled** by `enabled / running` over the sample (as `perf stat`
//! does), and the scaled samples are counted so the caller can flag them. A
//! sample during which the group never ran has no value (NaN), never zero.

use super::Metric;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod notes;
#[cfg(target_os = "linux")]
mod sys;
#[cfg(target_os = "linux")]
pub(crate) use linux::{open, PerfGroup};

#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
pub(crate) use other::{open, PerfGroup};

/// Whether a metric is read from a perf event.
pub(crate) fn is_counter(m: Metric) -> bool {
    Metric::COUNTERS.contains(&m)
}

/// Whether a metric is a hardware (PMU) event, as opposed to a software event
/// the kernel counts.
#[cfg(target_os = "linux")]
pub(crate) fn is_hardware(m: Metric) -> bool {
    matches!(
        m,
        Metric::Instructions
            | Metric::Cycles
            | Metric::Branches
            | Metric::BranchMisses
            | Metric::CacheReferences
            | Metric::CacheMisses
    )
}

/// How the counters of one interval were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coverage {
    /// The group counted during the whole interval.
    Full,
    /// The group counted part of the interval; the values were scaled.
    Scaled,
    /// The group never counted during the interval: no values.
    None,
}

/// The per-event change between two group reads
/// (`[nr, time_enabled, time_running, values…]`), scaled by
/// `enabled / running` when the group was multiplexed, written to `out[i]`
/// for the event at group position `i`.
pub(crate) fn deltas(start: &[u64], end: &[u64], out: &mut [f64]) -> Coverage {
    let enabled = end[1].wrapping_sub(start[1]);
    let running = end[2].wrapping_sub(start[2]);
    let (coverage, scale) = if running == 0 && enabled > 0 {
        (Coverage::None, f64::NAN)
    } else if running < enabled {
        (Coverage::Scaled, enabled as f64 / running as f64)
    } else {
        (Coverage::Full, 1.0)
    };
    for ((o, s), e) in out.iter_mut().zip(&start[3..]).zip(&end[3..]) {
        let d = e.wrapping_sub(*s) as f64;
        *o = if coverage == Coverage::Full {
            d
        } else {
            d * scale
        };
    }
    coverage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_coverage_gives_plain_differences() {
        let mut out = [0.0; 2];
        let c = deltas(&[2, 100, 100, 5, 7], &[2, 300, 300, 15, 27], &mut out);
        assert_eq!((c, out), (Coverage::Full, [10.0, 20.0]));
    }

    #[test]
    fn multiplexed_intervals_are_scaled() {
        let mut out = [0.0; 2];
        let c = deltas(&[2, 0, 0, 0, 0], &[2, 400, 100, 10, 30], &mut out);
        assert_eq!((c, out), (Coverage::Scaled, [40.0, 120.0]));
    }

    #[test]
    fn an_interval_that_never_ran_has_no_value() {
        let mut out = [0.0; 1];
        let c = deltas(&[1, 10, 5, 3], &[1, 50, 5, 3], &mut out);
        assert_eq!(c, Coverage::None);
        assert!(out[0].is_nan());
    }

    #[test]
    fn an_empty_interval_is_zero() {
        let mut out = [1.0; 1];
        assert_eq!(
            deltas(&[1, 10, 10, 3], &[1, 10, 10, 3], &mut out),
            Coverage::Full
        );
        assert_eq!(out, [0.0]);
    }
}

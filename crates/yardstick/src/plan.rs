//! The sampling plan: how many iterations each sample runs.
//!
//! Pure functions of the warm-up's estimate, so they are tested without a
//! clock. The formulas are those of Criterion.rs's analysis process.

use std::time::Duration;

use crate::config::{ActualSamplingMode, SamplingMode};

/// Picks linear or flat sampling. `met` is the warm-up's mean time per
/// iteration and `target` the measurement time, both in nanoseconds. Auto
/// takes linear unless linear sampling would need more than twice the target.
pub(crate) fn choose_mode(mode: SamplingMode, met: f64, n: u64, target: f64) -> ActualSamplingMode {
    match mode {
        SamplingMode::Linear => ActualSamplingMode::Linear,
        SamplingMode::Flat => ActualSamplingMode::Flat,
        SamplingMode::Auto => {
            let total_runs = n * (n + 1) / 2;
            let d = ((target / met / total_runs as f64).ceil() as u64).max(1);
            let expected = total_runs as f64 * d as f64 * met;
            if expected > 2.0 * target {
                ActualSamplingMode::Flat
            } else {
                ActualSamplingMode::Linear
            }
        }
    }
}

/// The iteration counts of the samples, and a warning when the target time
/// cannot be met with at least one iteration per step.
///
/// Linear: `[d, 2d, …, nd]` with `d = ceil(target / (met · n(n+1)/2))`, at
/// least 1. Flat: `n` samples of `ceil(target / n / met)` iterations.
pub(crate) fn iteration_counts(
    mode: ActualSamplingMode,
    met: f64,
    n: u64,
    target: Duration,
) -> (Vec<u64>, Option<String>) {
    let target_ns = target.as_nanos() as f64;
    match mode {
        ActualSamplingMode::Linear => {
            let total_runs = n * (n + 1) / 2;
            // Capped so that the last sample, n·d, stays within MAX_ITERS.
            let d = ((target_ns / met / total_runs as f64).ceil() as u64)
                .clamp(1, (crate::limits::MAX_ITERS / n).max(1));
            let expected = total_runs as f64 * d as f64 * met;
            let warning = (d == 1).then(|| {
                let recommended = recommend_linear_sample_size(target_ns, met);
                let mut w = format!(
                    "Warning: Unable to complete {n} samples in {target:.1?}. You may wish to increase target time to {:.1?}",
                    Duration::from_nanos(expected as u64)
                );
                if recommended == n {
                    w.push_str(" or enable flat sampling.");
                } else {
                    w.push_str(&format!(
                        ", enable flat sampling, or reduce sample count to {recommended}."
                    ));
                }
                w
            });
            ((1..=n).map(|i| i.saturating_mul(d)).collect(), warning)
        }
        ActualSamplingMode::Flat => {
            let per_sample =
                crate::limits::cap(((target_ns / n as f64 / met).ceil() as u64).max(1));
            let expected = met * per_sample as f64 * n as f64;
            let warning = (per_sample == 1).then(|| {
                let recommended = recommend_flat_sample_size(target_ns, met);
                let mut w = format!(
                    "Warning: Unable to complete {n} samples in {target:.1?}. You may wish to increase target time to {:.1?}",
                    Duration::from_nanos(expected as u64)
                );
                if recommended == n {
                    w.push('.');
                } else {
                    w.push_str(&format!(", or reduce sample count to {recommended}."));
                }
                w
            });
            (vec![per_sample; n as usize], warning)
        }
    }
}

/// Largest sample size (a multiple of 10, at least 10) whose linear plan
/// fits: n(n+1)/2 · met ≈ target, halved for the warm-up's share.
fn recommend_linear_sample_size(target: f64, met: f64) -> u64 {
    let c = target / met;
    let n = ((-1.0 + (4.0 * c).sqrt()) / 2.0) as u64;
    ((n / 10) * 10).max(10)
}

fn recommend_flat_sample_size(target: f64, met: f64) -> u64 {
    let n = (target / met) as u64;
    ((n / 10) * 10).max(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_plan_fills_the_target_time() {
        // met = 10 ns, n = 100, target = 5 s: d = ceil(5e9 / 10 / 5050) = 99010.
        let (counts, warning) = iteration_counts(
            ActualSamplingMode::Linear,
            10.0,
            100,
            Duration::from_secs(5),
        );
        assert_eq!(counts.len(), 100);
        assert_eq!(counts[0], 99_010);
        assert_eq!(counts[99], 9_901_000);
        assert!(warning.is_none());
    }

    #[test]
    fn flat_plan_is_even() {
        // met = 1 ms, n = 10, target = 1 s: 100 iterations per sample.
        let (counts, warning) =
            iteration_counts(ActualSamplingMode::Flat, 1e6, 10, Duration::from_secs(1));
        assert_eq!(counts, vec![100; 10]);
        assert!(warning.is_none());
    }

    #[test]
    fn slow_routines_get_a_warning_and_a_recommendation() {
        // met = 100 ms, 100 samples, 5 s: linear would need 5050 · 0.1 s.
        let (counts, warning) =
            iteration_counts(ActualSamplingMode::Linear, 1e8, 100, Duration::from_secs(5));
        assert_eq!(counts[0], 1);
        let w = warning.unwrap();
        assert!(
            w.starts_with("Warning: Unable to complete 100 samples in 5.0s."),
            "{w}"
        );
        // c = 50, n = (-1 + sqrt(200)) / 2 = 6.57 -> 0 -> clamped to 10.
        assert!(w.ends_with("reduce sample count to 10."), "{w}");
    }

    #[test]
    fn a_routine_that_looks_infinitely_fast_gets_a_capped_plan() {
        // An iter_custom that ignores its iteration count: the warm-up
        // reaches 2^40 iterations in a few microseconds, so met ~ 1e-7 ns.
        for mode in [ActualSamplingMode::Linear, ActualSamplingMode::Flat] {
            let (counts, _) = iteration_counts(mode, 1e-7, 10, Duration::from_secs(5));
            assert_eq!(counts.len(), 10);
            assert!(counts.iter().all(|&k| k <= 1 << 40), "{mode:?}: {counts:?}");
            assert!(counts.iter().any(|&k| k > 1 << 30), "{mode:?}: {counts:?}");
        }
    }

    #[test]
    fn auto_switches_to_flat_for_long_routines() {
        assert_eq!(
            choose_mode(SamplingMode::Auto, 10.0, 100, 5e9),
            ActualSamplingMode::Linear
        );
        // 5050 runs of 10 ms = 50.5 s > 10 s.
        assert_eq!(
            choose_mode(SamplingMode::Auto, 1e7, 100, 5e9),
            ActualSamplingMode::Flat
        );
        assert_eq!(
            choose_mode(SamplingMode::Linear, 1e7, 100, 5e9),
            ActualSamplingMode::Linear
        );
    }
}

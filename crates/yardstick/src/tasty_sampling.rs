//! tasty-bench's stopping rule (`--stdev`, [`BenchmarkGroup::stdev`]): time
//! `n` and `2n` iterations, estimate one iteration from the pair, and double
//! `n` until the relative standard deviation of that estimate is below the
//! target or the time-out nears. The statistic and the rule are
//! `yardstick_stats::tasty`'s; this module only runs the routine.
//!
//! The samples handed to the analysis are the last pair, `n` and `2n`
//! iterations: the least-squares slope through the origin of those two
//! points is tasty-bench's estimate `(t₁ + 2t₂) / 5n`, and earlier, shorter
//! and noisier measurements do not move it (tasty-bench's point).
//!
//! [`BenchmarkGroup::stdev`]: crate::BenchmarkGroup::stdev

use std::time::Duration;

use yardstick_stats::tasty::{
    predict_perturbed, should_stop, Prediction, StopReason, StopRule, MIN_PRECISION_SECONDS,
};

use crate::measurement::Measurement;
use crate::routine::{run_once, NotIterated, RoutineFn};

/// tasty-bench's warning once a benchmark has taken this long (in ns).
const LONG_NS: f64 = 100e9;

/// tasty-bench's words for it.
pub(crate) const LONG_WARNING: &str = "This benchmark takes more than 100 seconds. Consider setting --timeout, if this is unexpected (or to silence this warning).";

/// The clock precision tasty-bench perturbs the pair by, in the
/// measurement's unit: 1 ms for time (far above any clock's resolution
/// here, as tasty-bench's `max cpuTimePrecision 1ms`); 0 for a unit that
/// is not time, whose scale is unknown.
pub(crate) fn precision(unit: &str) -> f64 {
    if unit == "ns" {
        MIN_PRECISION_SECONDS * 1e9
    } else {
        0.0
    }
}

/// What the rule measured.
#[derive(Debug, Clone)]
pub(crate) struct Sampled {
    /// `[n, 2n]`.
    pub iters: Vec<f64>,
    /// The times of the pair.
    pub values: Vec<f64>,
    pub estimate: Prediction,
    pub reason: StopReason,
}

/// Runs the rule. `unit` is the measurement's unit for machines (`ns` for
/// time). The time-out counts the larger of the measured time and the wall
/// time of each call, so a fake clock (`iter_custom`) and a real one both
/// end it. `on_long` is called once, as soon as the benchmark has run past
/// 100 s, while it goes on (tasty-bench's moment to warn: the user can
/// still stop it).
pub(crate) fn sample<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    unit: &str,
    target: f64,
    timeout: Duration,
    on_long: &mut dyn FnMut(),
) -> Result<Sampled, NotIterated> {
    let timed = unit == "ns";
    let mut measure = |n: u64| -> Result<(f64, f64), NotIterated> {
        let (value, wall) = run_once(m, f, n)?;
        let wall = wall.as_nanos() as f64;
        Ok((value, if timed { value.max(wall) } else { wall }))
    };
    let rule = StopRule {
        target_rel_std_dev: target,
        timeout: Some(timeout.as_nanos() as f64),
    };
    let precision = precision(unit);
    let mut n: u64 = 1;
    let (mut t1, mut w1) = measure(n)?;
    let mut spent = 0.0;
    let mut long = false;
    loop {
        let (t2, w2) = measure(n * 2)?;
        let estimate = predict_perturbed(n as f64, t1, t2, precision);
        spent += w1;
        if !long && spent + w2 > LONG_NS {
            long = true;
            on_long();
        }
        let reason = should_stop(&rule, &estimate, spent, w2).or_else(|| {
            // The iteration count cannot double again.
            (n >= 1 << 61).then_some(StopReason::TimeoutSoon)
        });
        if let Some(reason) = reason {
            return Ok(Sampled {
                iters: vec![n as f64, (2 * n) as f64],
                values: vec![t1, t2],
                estimate,
                reason,
            });
        }
        n *= 2;
        (t1, w1) = (t2, w2);
    }
}

/// tasty-bench's estimate from a pair of samples of `n` and `2n`
/// iterations, as this module and `--quick` leave them; `None` for any other
/// samples.
pub(crate) fn estimate_of_pair(iters: &[f64], values: &[f64], unit: &str) -> Option<Prediction> {
    match (iters, values) {
        ([n, n2], [t1, t2]) if *n2 == 2.0 * n => {
            Some(predict_perturbed(*n, *t1, *t2, precision(unit)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bencher::Bencher;
    use crate::measurement::WallTime;

    /// A fake clock: `ns` per iteration plus `fixed` per call, exactly.
    fn fake(ns: u64, fixed: u64) -> impl FnMut(&mut Bencher<'_, WallTime>) {
        move |b| b.iter_custom(|n| Duration::from_nanos(ns * n + fixed))
    }

    /// The rule on [`fake`]'s clock; also how many 100-s warnings it gave.
    fn sample_fake(ns: u64, fixed: u64, target: f64, timeout: Duration) -> (Sampled, usize) {
        let mut f = fake(ns, fixed);
        let mut warnings = 0;
        let s = sample(&WallTime, &mut f, "ns", target, timeout, &mut || {
            warnings += 1
        })
        .unwrap();
        (s, warnings)
    }

    #[test]
    fn stops_at_the_first_pair_within_the_target() {
        // 1 µs per iteration plus 0.5 ms per call, with tasty-bench's 1 ms
        // perturbation. By hand, in µs: for the pair (n, 2n) the times are
        // t₁ = n + 500 and t₂ = 2n + 500; the deviation of points (n, x),
        // (2n, y) from the line through the origin is |2x − y| / √5.
        // Perturbed to (t₁ − 1000, t₂ + 1000): |−2500| / √5; to (t₁ + 1000,
        // t₂ − 1000): 3500 / √5 = 1565.2, the larger. The mean is (t₁ +
        // 2t₂) / 5n = 1 + 300/n per iteration. Precise when 1565.2 / n <
        // 0.05 (1 + 300/n), i.e. n > 31 004: the first power of two is
        // 32 768.
        let (s, warnings) = sample_fake(1000, 500_000, 0.05, Duration::from_secs(3600));
        assert_eq!(s.reason, StopReason::Precise);
        assert_eq!(s.iters, [32_768.0, 65_536.0]);
        let mean = 1.0 + 300.0 / 32_768.0;
        assert!((s.estimate.mean - mean * 1e3).abs() < 1e-6, "{s:?}");
        let sd = 3500.0 / 5f64.sqrt() / 32_768.0;
        assert!((s.estimate.std_dev - sd * 1e3).abs() < 1e-6, "{s:?}");
        assert_eq!(warnings, 0);
        // The analysis' slope of the pair is the same estimate.
        let slope = (s.iters[0] * s.values[0] + s.iters[1] * s.values[1])
            / (s.iters[0].powi(2) + s.iters[1].powi(2));
        assert!((slope - s.estimate.mean).abs() < 1e-9);
        assert_eq!(
            estimate_of_pair(&s.iters, &s.values, "ns"),
            Some(s.estimate)
        );
    }

    #[test]
    fn a_tighter_target_doubles_further() {
        // The same clock at 2 %: 1565.2 < 0.02 n + 6, n > 77 960 → 131 072.
        let (s, _) = sample_fake(1000, 500_000, 0.02, Duration::from_secs(3600));
        assert_eq!(s.iters[0], 131_072.0);
    }

    #[test]
    fn the_time_out_stops_it_early_and_long_runs_are_flagged() {
        // 1 ms per iteration and a 1 s time-out: the pair (n, 2n) stops
        // when 1.2 (spent + 3·2n ms) ≥ 1000 ms; spent = 1 + 2 + … + n =
        // 2n − 1 ms after the first, so 1.2 (8n − 1) ≥ 1000: n = 128.
        // A 0 % target is never reached.
        let (s, warnings) = sample_fake(1_000_000, 0, 1e-12, Duration::from_secs(1));
        assert_eq!(s.reason, StopReason::TimeoutSoon);
        assert_eq!(s.iters, [128.0, 256.0]);
        assert_eq!(warnings, 0);
        // With a time-out of an hour the fake clock passes 100 s, and the
        // warning comes once, while it goes on: spent + t₂ = 4n − 1 ms > 100 s
        // first at n = 32 768, and it stops at n = 524 288 (1.2 (8n − 1) ms
        // ≥ 3600 s).
        let (s, warnings) = sample_fake(1_000_000, 0, 1e-12, Duration::from_secs(3600));
        assert_eq!(warnings, 1);
        assert_eq!(s.iters, [524_288.0, 1_048_576.0]);
    }

    #[test]
    fn other_samples_have_no_pair_estimate() {
        assert_eq!(estimate_of_pair(&[1.0, 3.0], &[1.0, 3.0], "ns"), None);
        assert_eq!(estimate_of_pair(&[1.0], &[1.0], "ns"), None);
    }
}

//! Adaptive sampling: sample until the typical estimate is precise.
//!
//! tasty-bench stops as soon as its estimate is precise; this applies the
//! idea to Criterion.rs's linear sampling. After a warm-up that ends once two
//! consecutive timings agree, sample `k` runs `k·d` iterations (linear) — or
//! a fixed count for routines slower than [`FLAT_ABOVE_NS`] (flat) — and
//! after every sample from the tenth on, the t interval of the slope (of the
//! mean, when flat) is checked: sampling stops when its relative half-width
//! is within the target and the minimum sampling time has passed, or when
//! the time-out has passed.
//!
//! The minimum time is what makes the interval as narrow as Criterion.rs's
//! on stable routines: they reach ±1 % within milliseconds, and stopping
//! there would report ±1 % where Criterion.rs's five seconds give ±0.3 %.

use std::time::{Duration, Instant};

use yardstick_stats::precision::{
    mean_relative_half_width, slope_relative_half_width, Stop, StopRule,
};

use crate::config::ActualSamplingMode;
use crate::measurement::Measurement;
use crate::routine::{run_once, NotIterated, RoutineFn, Timed};

/// Samples needed before the precision is trusted (Criterion.rs's minimum
/// sample size).
pub(crate) const MIN_SAMPLES: usize = 10;

/// Routines slower than this per iteration are sampled flat: linear counts
/// would make the later samples needlessly long.
pub(crate) const FLAT_ABOVE_NS: f64 = 1e6;

/// The first linear sample aims at this much time, long against the clock's
/// resolution and the loop's overhead.
pub(crate) const FIRST_SAMPLE_NS: f64 = 1e5;

/// The warm-up ends once two consecutive timings per iteration agree this
/// well, after at least [`MIN_WARM_UP`].
const WARM_UP_AGREEMENT: f64 = 0.05;
const MIN_WARM_UP: Duration = Duration::from_millis(50);

/// Settings of adaptive sampling.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target {
    /// Relative half-width to reach (0.01 = ±1 %).
    pub precision: f64,
    /// Confidence level of that interval.
    pub confidence: f64,
    /// Longest warm-up.
    pub max_warm_up: Duration,
    /// Shortest sampling, even once the precision is reached.
    pub min_time: Duration,
    /// Longest sampling.
    pub timeout: Duration,
}

/// What adaptive sampling collected.
#[derive(Debug, Clone)]
pub(crate) struct Sampled {
    pub mode: ActualSamplingMode,
    pub iters: Vec<f64>,
    pub values: Vec<f64>,
    /// The worker process of each sample, when several took them.
    pub processes: Option<Vec<u32>>,
    /// The relative half-width reached, if it could be computed.
    pub precision: Option<f64>,
    /// Whether the target was reached before the time-out.
    pub reached: bool,
}

/// Doubles the iterations until two consecutive per-iteration timings agree
/// within 5 % (after 50 ms) or `max` has passed; returns the last timing per
/// iteration in nanoseconds of wall time.
pub(crate) fn warm_up<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    max: Duration,
) -> Result<f64, NotIterated> {
    warm_up_within(&mut |n| run_once(m, f, n), MIN_WARM_UP.min(max), max)
}

/// [`warm_up`] with the shortest warm-up given: a worker process after the
/// first needs only its own caches and pages warmed, not the machine's
/// clock.
pub(crate) fn warm_up_within(
    once: &mut Timed<'_>,
    min: Duration,
    max: Duration,
) -> Result<f64, NotIterated> {
    let start = Instant::now();
    let mut iters: u64 = 1;
    let mut previous: Option<f64> = None;
    loop {
        let (_, took) = once(iters)?;
        let per_iter = (took.as_nanos() as f64).max(1.0) / iters as f64;
        let elapsed = start.elapsed();
        let stable = previous
            .is_some_and(|p| ((per_iter - p) / p).abs() < WARM_UP_AGREEMENT && elapsed >= min);
        if stable || elapsed >= max || iters >= crate::limits::MAX_ITERS {
            return Ok(per_iter);
        }
        previous = Some(per_iter);
        iters = iters.saturating_mul(2);
    }
}

/// Samples until `target` is met or its time-out passes.
pub(crate) fn sample<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    met: f64,
    target: &Target,
) -> Result<Sampled, NotIterated> {
    let start = Instant::now();
    let mode = if met > FLAT_ABOVE_NS {
        ActualSamplingMode::Flat
    } else {
        ActualSamplingMode::Linear
    };
    let d = ((FIRST_SAMPLE_NS / met).ceil() as u64).max(1);
    let mut iters: Vec<f64> = Vec::with_capacity(256);
    let mut values: Vec<f64> = Vec::with_capacity(256);
    let mut averages: Vec<f64> = Vec::with_capacity(256);
    let mut precision = None;
    loop {
        let k = iters.len() as u64 + 1;
        let n = match mode {
            ActualSamplingMode::Linear => crate::limits::cap(k.saturating_mul(d)),
            ActualSamplingMode::Flat => 1,
        };
        let (value, _) = run_once(m, f, n)?;
        iters.push(n as f64);
        values.push(value);
        averages.push(value / n as f64);
        if iters.len() >= MIN_SAMPLES {
            precision = match mode {
                ActualSamplingMode::Linear => {
                    slope_relative_half_width(&iters, &values, target.confidence)
                }
                ActualSamplingMode::Flat => mean_relative_half_width(&averages, target.confidence),
            };
        }
        if let Some(stop) = target
            .rule()
            .check(iters.len(), precision, secs(start.elapsed()))
        {
            return Ok(Sampled {
                mode,
                iters,
                values,
                processes: None,
                precision,
                reached: stop == Stop::Precise,
            });
        }
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl Target {
    /// The stop rule of these settings: precise after the minimum time, or
    /// the time-out (with at least two samples for an estimate).
    fn rule(&self) -> StopRule {
        StopRule {
            target: self.precision,
            min_count: 2,
            max_count: usize::MAX,
            min_time: secs(self.min_time),
            max_time: secs(self.timeout),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measurement::WallTime;
    use crate::Bencher;

    fn target(precision: f64, timeout_ms: u64) -> Target {
        Target {
            precision,
            confidence: 0.95,
            max_warm_up: Duration::from_millis(100),
            min_time: Duration::ZERO,
            timeout: Duration::from_millis(timeout_ms),
        }
    }

    #[test]
    fn a_precise_routine_still_samples_for_the_minimum_time() {
        // Exact on a fake clock, so precise from the tenth sample on; each
        // sample also sleeps 1 ms of real time, so 40 ms take well over ten
        // samples, and the time-out (5 s) is far.
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            b.iter_custom(|n| {
                std::thread::sleep(Duration::from_millis(1));
                Duration::from_nanos(100 * n)
            });
        };
        let t = Target {
            min_time: Duration::from_millis(40),
            ..target(0.01, 5_000)
        };
        let start = Instant::now();
        let s = sample(&WallTime, &mut f, 100.0, &t).unwrap();
        assert!(s.reached);
        assert!(start.elapsed() >= Duration::from_millis(40));
        // At most 40 sleeps of 1 ms fit in 40 ms, and it stops right after.
        assert!(
            (MIN_SAMPLES..=41).contains(&s.iters.len()),
            "{}",
            s.iters.len()
        );
        assert!(s.iters.len() > MIN_SAMPLES || start.elapsed() >= Duration::from_millis(40));
    }

    #[test]
    fn a_stable_routine_stops_at_the_minimum_sample_count() {
        // A fake clock: exactly 100 ns per iteration, so the interval has
        // zero width once there are enough samples.
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            b.iter_custom(|n| Duration::from_nanos(100 * n));
        };
        let s = sample(&WallTime, &mut f, 100.0, &target(0.01, 5_000)).unwrap();
        assert!(s.reached);
        assert_eq!(s.iters.len(), MIN_SAMPLES);
        assert_eq!(s.mode, ActualSamplingMode::Linear);
        // d = 1e5 / 100 = 1000: counts 1000, 2000, …
        assert_eq!(s.iters[..3], [1000.0, 2000.0, 3000.0]);
    }

    #[test]
    fn a_noisy_routine_times_out_and_says_so() {
        // ±50 % noise from a fixed generator: 1 % cannot be reached with
        // the few samples a 30 ms time-out allows.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            let n = b.iters;
            b.iter_custom(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let noise = 0.5 + (state % 1000) as f64 / 1000.0;
                std::thread::sleep(Duration::from_millis(2));
                Duration::from_nanos((100.0 * n as f64 * noise) as u64)
            });
        };
        let start = Instant::now();
        let s = sample(&WallTime, &mut f, 100.0, &target(0.01, 30)).unwrap();
        assert!(!s.reached);
        assert!(start.elapsed() >= Duration::from_millis(30));
        if let Some(p) = s.precision {
            assert!(p > 0.01, "{p}");
        }
    }

    #[test]
    fn slow_routines_are_sampled_flat() {
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            b.iter_custom(|n| Duration::from_millis(2 * n));
        };
        let s = sample(&WallTime, &mut f, 2e6, &target(0.01, 5_000)).unwrap();
        assert_eq!(s.mode, ActualSamplingMode::Flat);
        assert!(s.iters.iter().all(|&n| n == 1.0));
        assert!(s.reached);
    }

    #[test]
    fn the_warm_up_ends_when_timings_agree() {
        // About 20 µs of sleep per iteration: once n is large, the fixed
        // cost of a call no longer moves the timing per iteration, and two
        // consecutive timings agree long before the 3 s limit.
        let start = Instant::now();
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            let n = b.iters;
            b.iter_custom(|_| {
                std::thread::sleep(Duration::from_micros(20 * n));
                Duration::from_micros(20 * n)
            });
        };
        let met = warm_up(&WallTime, &mut f, Duration::from_secs(3)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(3));
        assert!((15e3..60e3).contains(&met), "{met}");
    }
}

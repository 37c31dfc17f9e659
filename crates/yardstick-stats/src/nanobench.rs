//! nanobench's figures: err% (the median absolute percentage error of the
//! epochs), its "unstable" warning, and how it sizes epochs from the clock
//! resolution.
//!
//! Times are `f64` in any unit (nanobench uses nanoseconds, and the
//! defaults of [`EpochConfig`] are in nanoseconds).
//!
//! # Example
//!
//! ```
//! use yardstick_stats::nanobench::{err_fraction, is_unstable, target_epoch_time, EpochConfig};
//!
//! let per_iteration = [10.0, 10.2, 9.9, 10.1, 12.0];
//! let err = err_fraction(&per_iteration).unwrap();
//! assert!((err - 0.01).abs() < 1e-12); // printed as err% 1.0
//! assert!(!is_unstable(err));
//!
//! // A 20 ns clock: epochs of 1000 × 20 ns = 20 µs, raised to the 1 ms minimum.
//! assert_eq!(target_epoch_time(20.0, &EpochConfig::default()), 1e6);
//! ```

/// nanobench's err%: the median over the epochs of `|x − median| / x`
/// (its `medianAbsolutePercentError`), as a fraction; `None` when empty.
///
/// A value of 0 contributes 0 when it equals the median and `+∞`
/// otherwise (nanobench divides by it); never NaN.
#[must_use]
pub fn err_fraction(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut buf = xs.to_vec();
    let med = crate::univariate::median_in_place(&mut buf);
    for (b, &x) in buf.iter_mut().zip(xs) {
        let e = x - med;
        *b = if e == 0.0 { 0.0 } else { (e / x).abs() };
    }
    Some(crate::univariate::median_in_place(&mut buf))
}

/// nanobench flags a benchmark ":wavy_dash: … (Unstable …)" when err% is
/// at least 5 %.
pub const UNSTABLE_ERR_FRACTION: f64 = 0.05;

/// Whether nanobench would call a result with this err% (as a fraction)
/// unstable: `err >= 0.05`.
#[must_use]
pub fn is_unstable(err: f64) -> bool {
    err >= UNSTABLE_ERR_FRACTION
}

/// The `minEpochIterations` nanobench suggests for an unstable result: ten
/// times the average iterations per epoch, rounded.
#[must_use]
pub fn suggested_min_epoch_iterations(total_iterations: f64, epochs: f64) -> u64 {
    // Saturating float-to-int conversion is the intent.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    {
        (total_iterations / epochs * 10.0 + 0.5) as u64
    }
}

/// nanobench's epoch settings (its defaults, in nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochConfig {
    /// Target epoch time as a multiple of the clock resolution (1000).
    pub clock_resolution_multiple: f64,
    /// Lower bound of the target epoch time (1 ms).
    pub min_epoch_time: f64,
    /// Upper bound of the target epoch time (100 ms).
    pub max_epoch_time: f64,
    /// Fewest iterations per epoch (1).
    pub min_epoch_iterations: u64,
    /// Number of epochs (11).
    pub epochs: usize,
}

impl Default for EpochConfig {
    fn default() -> EpochConfig {
        EpochConfig {
            clock_resolution_multiple: 1000.0,
            min_epoch_time: 1e6,
            max_epoch_time: 1e8,
            min_epoch_iterations: 1,
            epochs: 11,
        }
    }
}

/// The clock resolution from differences between consecutive distinct clock
/// readings: the smallest positive one (nanobench takes the minimum of 20);
/// `None` when there is none.
#[must_use]
pub fn clock_resolution(deltas: &[f64]) -> Option<f64> {
    deltas
        .iter()
        .copied()
        .filter(|&d| d > 0.0 && d.is_finite())
        .reduce(f64::min)
}

/// The target time of one epoch: `resolution × clock_resolution_multiple`,
/// clamped to `[min_epoch_time, max_epoch_time]` (the upper bound applied
/// first, as nanobench does).
#[must_use]
pub fn target_epoch_time(resolution: f64, cfg: &EpochConfig) -> f64 {
    let mut target = resolution * cfg.clock_resolution_multiple;
    if target > cfg.max_epoch_time {
        target = cfg.max_epoch_time;
    }
    if target < cfg.min_epoch_time {
        target = cfg.min_epoch_time;
    }
    target
}

/// The iterations for the next epoch after `iters` iterations took
/// `elapsed`: `target / elapsed × iters`, at least `min_iterations`, times
/// a random factor `1 + 0.2 u` (`u` uniform in [0, 1) from the caller's
/// generator), rounded (nanobench's `calcBestNumIters`). A non-positive
/// `elapsed` gives ten times `iters`.
#[must_use]
pub fn best_iterations(target: f64, elapsed: f64, iters: u64, min_iterations: u64, u: f64) -> u64 {
    if elapsed <= 0.0 {
        return iters.saturating_mul(10).max(1);
    }
    let mut next = target / elapsed * iters as f64;
    let min = min_iterations as f64;
    if next < min {
        next = min;
    }
    next *= 1.0 + 0.2 * u;
    // Saturating float-to-int conversion is the intent.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    {
        (next + 0.5) as u64
    }
}

/// While searching for the epoch size: ten times the iterations when the
/// epoch took less than a tenth of the target, else [`best_iterations`]
/// (nanobench's `upscale`).
#[must_use]
pub fn upscale(target: f64, elapsed: f64, iters: u64, min_iterations: u64, u: f64) -> u64 {
    if elapsed * 10.0 < target {
        iters.saturating_mul(10)
    } else {
        best_iterations(target, elapsed, iters, min_iterations, u)
    }
}

/// Whether an epoch is long enough to be kept as a measurement: at least
/// two thirds of the target (nanobench's `isCloseEnoughForMeasurements`).
#[must_use]
pub fn close_enough(target: f64, elapsed: f64) -> bool {
    elapsed * 3.0 >= target * 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn err_of_identical_epochs_is_zero() {
        assert_eq!(err_fraction(&[5.0; 11]), Some(0.0));
        assert_eq!(err_fraction(&[]), None);
        assert_eq!(err_fraction(&[0.0, 0.0, 0.0]), Some(0.0));
    }

    #[test]
    fn unstable_threshold_is_inclusive() {
        assert!(is_unstable(0.05));
        assert!(!is_unstable(0.049_999));
    }

    #[test]
    fn epoch_sizing_follows_nanobench() {
        let cfg = EpochConfig::default();
        assert_eq!(target_epoch_time(1.0, &cfg), 1e6); // raised to 1 ms
        assert_eq!(target_epoch_time(5e3, &cfg), 5e6);
        assert_eq!(target_epoch_time(1e6, &cfg), 1e8); // capped at 100 ms
        assert_eq!(upscale(1e6, 1e4, 7, 1, 0.0), 70);
        assert_eq!(upscale(1e6, 5e5, 10, 1, 0.0), 20);
        assert_eq!(best_iterations(1e6, 5e5, 10, 1, 0.5), 22);
        assert_eq!(best_iterations(1e6, 1e9, 10, 3, 0.0), 3);
        assert!(close_enough(3.0, 2.0));
        assert!(!close_enough(3.0, 1.99));
        assert_eq!(clock_resolution(&[30.0, 0.0, 20.0, 25.0]), Some(20.0));
        assert_eq!(suggested_min_epoch_iterations(1100.0, 11.0), 1000);
    }
}

//! How precise an estimate already is, cheaply enough to ask after every
//! sample: the adaptive runner samples until the answer is precise.
//!
//! These are the classical (t-based) intervals, O(n) and allocation-free;
//! the reported intervals still come from the bootstrap.

use crate::distributions::t_quantile;

/// Relative half-width of the `confidence` interval of the slope of the
/// least-squares line through the origin of `y` on `x`:
/// `t(1 − α/2, n − 1) · se(b) / |b|` with `b = Σxy / Σx²` and
/// `se(b)² = Σ(y − b·x)² / (n − 1) / Σx²`.
///
/// `None` with fewer than three points, a zero slope or non-finite input.
#[must_use]
pub fn slope_relative_half_width(x: &[f64], y: &[f64], confidence: f64) -> Option<f64> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let sxx: f64 = x.iter().map(|v| v * v).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    if sxx <= 0.0 || !sxy.is_finite() {
        return None;
    }
    let b = sxy / sxx;
    if b == 0.0 {
        return None;
    }
    let ss: f64 = x.iter().zip(y).map(|(a, v)| (v - b * a).powi(2)).sum();
    let df = (n - 1) as f64;
    let se = (ss / df / sxx).sqrt();
    let t = t_quantile(0.5 + confidence / 2.0, df);
    let w = t * se / b.abs();
    w.is_finite().then_some(w)
}

/// Relative half-width of the `confidence` t interval of the mean:
/// `t(1 − α/2, n − 1) · s / √n / |mean|`.
///
/// `None` with fewer than two values, a zero mean or non-finite input.
#[must_use]
pub fn mean_relative_half_width(xs: &[f64], confidence: f64) -> Option<f64> {
    let n = xs.len();
    if n < 2 {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if mean == 0.0 {
        return None;
    }
    let var = xs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let df = (n - 1) as f64;
    let w = t_quantile(0.5 + confidence / 2.0, df) * (var / n as f64).sqrt() / mean.abs();
    w.is_finite().then_some(w)
}

/// When a sampling loop stops: the one rule of adaptive sampling in the
/// bench binary, of its worker processes and of `cargo yardstick exec`
/// (which count samples, processes and runs). The clock is the caller's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopRule {
    /// Relative half-width to reach (0.01 = ±1 %).
    pub target: f64,
    /// Samples before any stop.
    pub min_count: usize,
    /// Samples after which sampling stops, precise or not.
    pub max_count: usize,
    /// Seconds before a precise estimate may stop sampling.
    pub min_time: f64,
    /// Seconds after which sampling stops, precise or not.
    pub max_time: f64,
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The estimate is as precise as asked, and the minimum time has passed.
    Precise,
    /// The largest count was reached first.
    Count,
    /// The time ran out first.
    Time,
}

impl StopRule {
    /// Whether to stop after `count` samples, `elapsed` seconds, with the
    /// estimate's relative half-width `precision` (`None` while it cannot
    /// be judged yet). Precision is checked first: a loop that reaches its
    /// target on its last sample did reach it.
    #[must_use]
    pub fn check(&self, count: usize, precision: Option<f64>, elapsed: f64) -> Option<Stop> {
        if count < self.min_count {
            return None;
        }
        if precision.is_some_and(|p| p <= self.target) && elapsed >= self.min_time {
            return Some(Stop::Precise);
        }
        if count >= self.max_count {
            return Some(Stop::Count);
        }
        (elapsed >= self.max_time).then_some(Stop::Time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_rule_checks_precision_then_count_then_time() {
        let rule = StopRule {
            target: 0.01,
            min_count: 3,
            max_count: 10,
            min_time: 0.5,
            max_time: 5.0,
        };
        // Too few samples: go on, whatever else holds.
        assert_eq!(rule.check(2, Some(0.001), 9.0), None);
        // Precise, but before the minimum time: go on.
        assert_eq!(rule.check(3, Some(0.005), 0.4), None);
        assert_eq!(rule.check(3, Some(0.005), 0.5), Some(Stop::Precise));
        // Precise on the last sample counts as precise.
        assert_eq!(rule.check(10, Some(0.01), 1.0), Some(Stop::Precise));
        assert_eq!(rule.check(10, Some(0.02), 1.0), Some(Stop::Count));
        assert_eq!(rule.check(4, None, 5.0), Some(Stop::Time));
        assert_eq!(rule.check(4, Some(0.02), 4.9), None);
    }

    // Expected values: numpy/scipy, by the formulas in the docs above:
    //   b = (x*y).sum()/(x*x).sum(); r = y - b*x
    //   se = sqrt((r*r).sum()/(n-1)/(x*x).sum()); t = scipy.stats.t.ppf(0.975, n-1)
    #[test]
    fn slope_half_width_matches_scipy() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let y = [10.2, 19.7, 30.5, 39.8, 50.3, 59.6, 70.4, 80.1, 89.7, 100.6];
        let w = slope_relative_half_width(&x, &y, 0.95).unwrap();
        assert!((w - 0.004_179_937_613_773_685).abs() < 1e-9 * w, "{w}");
    }

    #[test]
    fn mean_half_width_matches_scipy() {
        // m.std(ddof=1)/sqrt(n) * t.ppf(0.975, n-1) / m.mean()
        let m = [100.0, 101.0, 99.0, 102.0, 98.0, 100.5, 99.5];
        let w = mean_relative_half_width(&m, 0.95).unwrap();
        assert!((w - 0.012_234_559_255_724_893).abs() < 1e-9 * w, "{w}");
    }

    #[test]
    fn degenerate_inputs_are_none_or_zero() {
        assert_eq!(
            slope_relative_half_width(&[1.0, 2.0], &[1.0, 2.0], 0.95),
            None
        );
        assert_eq!(
            slope_relative_half_width(&[1.0, 2.0, 3.0], &[0.0; 3], 0.95),
            None
        );
        assert_eq!(
            slope_relative_half_width(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0], 0.95),
            Some(0.0)
        );
        assert_eq!(mean_relative_half_width(&[5.0], 0.95), None);
        assert_eq!(mean_relative_half_width(&[5.0, 5.0, 5.0], 0.95), Some(0.0));
    }
}

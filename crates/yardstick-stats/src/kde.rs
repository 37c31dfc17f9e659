//! Kernel density estimates for the probability-density plots.
//!
//! Gaussian kernel, bandwidth by the **normal-reference rule**
//! `h = 1.06 · σ · n^(−1/5)` with `σ` the sample standard deviation
//! (`n − 1`). (Criterion.rs calls this rule "Silverman's"; Silverman's own
//! rule of thumb uses `0.9 · min(σ, IQR/1.34)`.) The density at `x` is
//! `f(x) = 1/(n h) · Σᵢ φ((x − xᵢ)/h)` with `φ` the standard normal
//! density.
//!
//! Data without spread have no density to draw: every function returns
//! `None` for them, as for fewer than two values.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::kde::Kde;
//!
//! let kde = Kde::new(&[1.0, 2.0, 2.5, 3.0, 7.0]).expect("data with spread");
//! let (xs, ys) = kde.sweep(200);
//! assert_eq!(xs.len(), 200);
//! let area: f64 = ys.windows(2).zip(xs.windows(2))
//!     .map(|(y, x)| (y[0] + y[1]) / 2.0 * (x[1] - x[0])).sum();
//! assert!((area - 1.0).abs() < 1e-3);
//! assert!(Kde::new(&[4.0, 4.0, 4.0]).is_none());
//! ```

use std::f64::consts::PI;

use crate::univariate::{mean_unchecked, variance_with_mean};

/// The normal-reference bandwidth `1.06 · σ · n^(−1/5)`, or `None` for
/// fewer than two values, non-finite values or no spread.
#[must_use]
pub fn normal_reference_bandwidth(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 || !xs.iter().all(|x| x.is_finite()) {
        return None;
    }
    let sd = variance_with_mean(xs, mean_unchecked(xs)).sqrt();
    let h = 1.06 * sd * (xs.len() as f64).powf(-0.2);
    (h > 0.0).then_some(h)
}

/// A Gaussian kernel density estimate of a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Kde {
    sample: Vec<f64>,
    bandwidth: f64,
}

impl Kde {
    /// The estimate with the normal-reference bandwidth; `None` for fewer
    /// than two values, non-finite values or no spread.
    #[must_use]
    pub fn new(sample: &[f64]) -> Option<Kde> {
        let bandwidth = normal_reference_bandwidth(sample)?;
        Some(Kde {
            sample: sample.to_vec(),
            bandwidth,
        })
    }

    /// The estimate with a given bandwidth; `None` when it is not positive
    /// and finite or the sample is empty or not finite.
    #[must_use]
    pub fn with_bandwidth(sample: &[f64], bandwidth: f64) -> Option<Kde> {
        if sample.is_empty()
            || !sample.iter().all(|x| x.is_finite())
            || !(bandwidth > 0.0 && bandwidth.is_finite())
        {
            return None;
        }
        Some(Kde {
            sample: sample.to_vec(),
            bandwidth,
        })
    }

    /// The bandwidth `h`.
    #[must_use]
    pub fn bandwidth(&self) -> f64 {
        self.bandwidth
    }

    /// The density at `x`.
    #[must_use]
    pub fn density(&self, x: f64) -> f64 {
        let h = self.bandwidth;
        let norm = 1.0 / ((2.0 * PI).sqrt() * h * self.sample.len() as f64);
        self.sample
            .iter()
            .map(|&xi| {
                let z = (x - xi) / h;
                (-0.5 * z * z).exp()
            })
            .sum::<f64>()
            * norm
    }

    /// The density at each point of `grid`.
    #[must_use]
    pub fn evaluate(&self, grid: &[f64]) -> Vec<f64> {
        grid.iter().map(|&x| self.density(x)).collect()
    }

    /// `npoints` evenly spaced points from `min − 3h` to `max + 3h` (so the
    /// tails are drawn) and the density at each. `npoints < 2` gives the
    /// two end points.
    #[must_use]
    pub fn sweep(&self, npoints: usize) -> (Vec<f64>, Vec<f64>) {
        let npoints = npoints.max(2);
        let lo = self.sample.iter().copied().fold(f64::INFINITY, f64::min) - 3.0 * self.bandwidth;
        let hi = self
            .sample
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            + 3.0 * self.bandwidth;
        let step = (hi - lo) / (npoints - 1) as f64;
        let xs: Vec<f64> = (0..npoints).map(|i| lo + step * i as f64).collect();
        let ys = self.evaluate(&xs);
        (xs, ys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_point_kernel_is_normal_density() {
        let k = Kde::with_bandwidth(&[0.0], 1.0).unwrap();
        assert!((k.density(0.0) - 1.0 / (2.0 * PI).sqrt()).abs() < 1e-15);
        assert!(Kde::with_bandwidth(&[0.0], 0.0).is_none());
        assert!(normal_reference_bandwidth(&[1.0]).is_none());
    }
}

//! Bootstrap estimates of one benchmark's samples: mean, median, standard
//! deviation, MAD and (for linear sampling) the slope.

use crate::bootstrap::{run, Estimate};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::regression::{centred_r2, ols, slope_unchecked, OlsFit};
use crate::resample;
use crate::rng::Rng;
use crate::univariate::{
    mad_in_place, mean_unchecked, median_in_place, variance_with_mean, MAD_SCALE,
};

/// How to bootstrap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapConfig {
    /// Number of resamples (Criterion.rs's default is 100,000).
    pub nresamples: usize,
    /// Confidence level of the intervals as a fraction (0.95).
    pub confidence: f64,
    /// Seed of the random streams; the same seed gives the same intervals.
    pub seed: u64,
}

impl Default for BootstrapConfig {
    /// 100,000 resamples, 95 % confidence, seed 0.
    fn default() -> BootstrapConfig {
        BootstrapConfig {
            nresamples: 100_000,
            confidence: 0.95,
            seed: 0,
        }
    }
}

impl BootstrapConfig {
    pub(crate) fn check(&self) -> Result<(), StatsError> {
        check_confidence(self.confidence)?;
        if self.nresamples == 0 || self.nresamples > crate::MAX_NRESAMPLES {
            return Err(StatsError::InvalidConfig(
                "nresamples must be from 1 to 10^7",
            ));
        }
        Ok(())
    }
}

/// The estimates of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimates {
    /// Mean of the per-iteration values.
    pub mean: Estimate,
    /// Median of the per-iteration values.
    pub median: Estimate,
    /// Standard deviation (`n − 1`) of the per-iteration values.
    pub std_dev: Estimate,
    /// Median absolute deviation of the per-iteration values, scaled by
    /// 1.4826.
    pub mad: Estimate,
    /// Slope of the least-squares line through the origin of the measured
    /// values on the iteration counts (linear sampling only).
    pub slope: Option<Estimate>,
    /// Centred R² of that slope (linear sampling only; see
    /// [`regression`](crate::regression)).
    pub r2: Option<f64>,
    /// Least-squares line with intercept of the measured values on the
    /// iteration counts (linear sampling with at least two different counts
    /// only). Its intercept is the per-sample overhead.
    pub intercept_fit: Option<OlsFit>,
}

/// The bootstrap distributions behind [`Estimates`], in resample order, for
/// plots.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Distributions {
    /// Resampled means.
    pub mean: Vec<f64>,
    /// Resampled medians.
    pub median: Vec<f64>,
    /// Resampled standard deviations.
    pub std_dev: Vec<f64>,
    /// Resampled MADs.
    pub mad: Vec<f64>,
    /// Resampled slopes (empty unless linear).
    pub slope: Vec<f64>,
}

/// Bootstrap estimates of a benchmark's samples.
///
/// `iters[i]` is the iteration count of sample `i` and `values[i]` the
/// total value measured for it. Mean, median, standard deviation and MAD
/// are statistics of the per-iteration values `values[i] / iters[i]`, as in
/// Criterion.rs. When `linear` is true the slope through the origin of
/// `values` on `iters` is bootstrapped too (by resampling `(iters, values)`
/// pairs), and its R² and the fit with intercept are reported.
///
/// Each resample draws `n` sample indices once and uses them for every
/// statistic (so the slope is bootstrapped over `(iters, values)` pairs).
/// The result does not depend on the order of the samples, to the last bit.
///
/// # Errors
///
/// * [`StatsError::LengthMismatch`] when the slices differ in length;
/// * [`StatsError::TooFewSamples`] for fewer than two samples;
/// * [`StatsError::NonFinite`] for NaN or infinite inputs;
/// * [`StatsError::NonPositiveIterations`] for an iteration count ≤ 0;
/// * [`StatsError::InvalidConfig`] for a confidence outside (0, 1) or zero
///   resamples.
///
/// # Example
///
/// ```
/// use yardstick_stats::{estimates, BootstrapConfig};
///
/// let iters = [1.0, 2.0, 3.0, 4.0, 5.0];
/// let values = [10.5, 19.0, 31.0, 40.2, 49.0];
/// let cfg = BootstrapConfig { nresamples: 1000, ..BootstrapConfig::default() };
/// let est = estimates(&iters, &values, true, &cfg)?;
/// assert!(est.mean.contains(est.mean.point));
/// assert!((est.slope.unwrap().point - 9.951).abs() < 0.001);
/// # Ok::<(), yardstick_stats::StatsError>(())
/// ```
pub fn estimates(
    iters: &[f64],
    values: &[f64],
    linear: bool,
    cfg: &BootstrapConfig,
) -> Result<Estimates, StatsError> {
    estimates_with_distributions(iters, values, linear, cfg).map(|(e, _)| e)
}

/// The checks of [`estimates`]' input.
fn check_input(iters: &[f64], values: &[f64], cfg: &BootstrapConfig) -> Result<(), StatsError> {
    cfg.check()?;
    if iters.len() != values.len() {
        return Err(StatsError::LengthMismatch {
            left: iters.len(),
            right: values.len(),
        });
    }
    let n = values.len();
    if n < 2 {
        return Err(StatsError::TooFewSamples { needed: 2, got: n });
    }
    check_finite(iters)?;
    check_finite(values)?;
    if iters.iter().any(|&x| x <= 0.0) {
        return Err(StatsError::NonPositiveIterations);
    }
    Ok(())
}

/// [`estimates`], also returning the bootstrap distributions (for the
/// probability-density plots of a report).
///
/// # Errors
///
/// As [`estimates`].
pub fn estimates_with_distributions(
    iters: &[f64],
    values: &[f64],
    linear: bool,
    cfg: &BootstrapConfig,
) -> Result<(Estimates, Distributions), StatsError> {
    check_input(iters, values, cfg)?;
    let n = values.len();
    // Sort the samples once, by per-iteration value and then by the pair
    // itself. Every statistic below is computed from this order, so the
    // results are exactly (bit for bit) invariant to the order of the input;
    // and every resample is a vector of counts over it whose order
    // statistics are linear walks (see `resample`).
    let mut samples: Vec<(f64, f64, f64)> = values
        .iter()
        .zip(iters)
        .map(|(&v, &i)| (v / i, i, v))
        .collect();
    samples.sort_unstable_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    let sorted: Vec<f64> = samples.iter().map(|s| s.0).collect();
    let iters: Vec<f64> = samples.iter().map(|s| s.1).collect();
    let values: Vec<f64> = samples.iter().map(|s| s.2).collect();
    let xy: Vec<f64> = samples.iter().map(|s| s.1 * s.2).collect();
    let xx: Vec<f64> = samples.iter().map(|s| s.1 * s.1).collect();

    let point_mean = mean_unchecked(&sorted);
    let point_sd = variance_with_mean(&sorted, point_mean).sqrt();
    let mut scratch = sorted.clone();
    let point_median = median_in_place(&mut scratch);
    let point_mad = mad_in_place(&mut scratch, point_median);

    let nf = n as f64;

    let k = if linear { 5 } else { 4 };
    let dists = run(
        0,
        cfg.nresamples,
        cfg.seed,
        k,
        n,
        || vec![0u32; n],
        |counts: &mut Vec<u32>, rng: &mut Rng, row: &mut [f64]| {
            resample::draw_counts(rng, counts, n);
            let m = resample::mean(&sorted, counts, nf);
            let (mut ss, mut s) = (0.0, 0.0);
            for (&x, &c) in sorted.iter().zip(counts.iter()) {
                let d = x - m;
                let c = f64::from(c);
                ss += c * d * d;
                s += c * d;
            }
            row[0] = m;
            row[1] = ((ss - s * s / nf) / (nf - 1.0)).max(0.0).sqrt();
            let med = resample::median(&sorted, counts, n);
            row[2] = med;
            row[3] = MAD_SCALE * resample::median_abs_dev(&sorted, counts, n, med);
            if linear {
                let (mut sxy, mut sxx) = (0.0, 0.0);
                for ((&a, &b), &c) in xy.iter().zip(&xx).zip(counts.iter()) {
                    let c = f64::from(c);
                    sxy += c * a;
                    sxx += c * b;
                }
                row[4] = sxy / sxx;
            }
        },
    );
    let mut dists = dists.into_iter();
    let mut next = || dists.next().unwrap_or_default();
    let d = Distributions {
        mean: next(),
        std_dev: next(),
        median: next(),
        mad: next(),
        slope: next(),
    };

    let c = cfg.confidence;
    let (slope, r2, intercept_fit) = if linear {
        let s = slope_unchecked(&iters, &values);
        (
            Some(Estimate::from_distribution(s, &d.slope, c)),
            Some(centred_r2(&iters, &values, 0.0, s)),
            ols(&iters, &values).ok(),
        )
    } else {
        (None, None, None)
    };
    let e = Estimates {
        mean: Estimate::from_distribution(point_mean, &d.mean, c),
        median: Estimate::from_distribution(point_median, &d.median, c),
        std_dev: Estimate::from_distribution(point_sd, &d.std_dev, c),
        mad: Estimate::from_distribution(point_mad, &d.mad, c),
        slope,
        r2,
        intercept_fit,
    };
    Ok((e, d))
}

/// The resampled means and medians of per-iteration `values`, exactly (to
/// the last bit) as [`estimates_with_distributions`] draws them with the
/// same number of resamples and seed: the same streams, the same counts
/// over the same sorted values. `values` must be finite, at least two.
pub(crate) fn mean_median_distributions(
    values: &[f64],
    nresamples: usize,
    seed: u64,
) -> (Vec<f64>, Vec<f64>) {
    let n = values.len();
    let nf = n as f64;
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let mut dists = run(
        0,
        nresamples,
        seed,
        2,
        n,
        || vec![0u32; n],
        |counts: &mut Vec<u32>, rng: &mut Rng, row: &mut [f64]| {
            resample::draw_counts(rng, counts, n);
            row[0] = resample::mean(&sorted, counts, nf);
            row[1] = resample::median(&sorted, counts, n);
        },
    )
    .into_iter();
    let mean = dists.next().unwrap_or_default();
    (mean, dists.next().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(nresamples: usize) -> BootstrapConfig {
        BootstrapConfig {
            nresamples,
            confidence: 0.95,
            seed: 1,
        }
    }

    #[test]
    fn constant_data_gives_degenerate_intervals() {
        let iters = [1.0, 2.0, 3.0];
        let values = [5.0, 10.0, 15.0];
        let e = estimates(&iters, &values, true, &cfg(500)).unwrap();
        assert_eq!(e.mean.point, 5.0);
        assert_eq!((e.mean.lower, e.mean.upper), (5.0, 5.0));
        assert_eq!(e.std_dev.point, 0.0);
        assert_eq!(e.mad.upper, 0.0);
        assert_eq!(e.slope.unwrap().point, 5.0);
        assert_eq!(e.r2, Some(1.0));
    }

    #[test]
    fn flat_sampling_has_no_slope() {
        let e = estimates(&[4.0; 3], &[4.0, 8.0, 6.0], false, &cfg(100)).unwrap();
        assert_eq!(e.slope, None);
        assert_eq!(e.r2, None);
        assert_eq!(e.mean.point, 1.5);
    }

    #[test]
    fn rejects_bad_input() {
        let c = cfg(10);
        assert_eq!(
            estimates(&[1.0], &[1.0], false, &c),
            Err(StatsError::TooFewSamples { needed: 2, got: 1 })
        );
        assert_eq!(
            estimates(&[1.0, 0.0], &[1.0, 1.0], false, &c),
            Err(StatsError::NonPositiveIterations)
        );
        assert_eq!(
            estimates(&[1.0, 1.0], &[1.0, f64::NAN], false, &c),
            Err(StatsError::NonFinite)
        );
        let bad = BootstrapConfig {
            confidence: 95.0,
            ..c
        };
        assert!(matches!(
            estimates(&[1.0, 1.0], &[1.0, 2.0], false, &bad),
            Err(StatsError::InvalidConfig(_))
        ));
    }

    #[test]
    fn same_seed_same_result_other_seed_other_result() {
        let iters: Vec<f64> = (1..=30).map(f64::from).collect();
        let values: Vec<f64> = iters.iter().map(|i| i * 10.0 + (i * 7.3).sin()).collect();
        let a = estimates(&iters, &values, true, &cfg(2000)).unwrap();
        let b = estimates(&iters, &values, true, &cfg(2000)).unwrap();
        assert_eq!(a, b);
        let c = estimates(
            &iters,
            &values,
            true,
            &BootstrapConfig {
                seed: 2,
                ..cfg(2000)
            },
        )
        .unwrap();
        assert_ne!(a.mean.lower, c.mean.lower);
    }
}

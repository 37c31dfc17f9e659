//! Turns a benchmark's samples into estimates and, given a baseline, a
//! change. A thin layer over `yardstick-stats`: it only chooses what to
//! compute from the configuration.

use yardstick_stats::{
    classify, compare_with_resampled_new, estimates_with_distributions, BootstrapConfig, Change,
    ChangeConfig, ChangeDistributions, Distributions, Estimate, Estimates, StatsError, Tukey,
};

use crate::config::{ActualSamplingMode, BenchmarkConfig};

/// The seed of every bootstrap: the analysis is a pure function of the
/// samples, so saved samples always give the same numbers.
pub(crate) const SEED: u64 = yardstick_stats::DEFAULT_SEED;

/// What the analysis of one benchmark found.
#[derive(Debug, Clone)]
pub(crate) struct Analysis {
    pub mode: ActualSamplingMode,
    pub iters: Vec<f64>,
    pub values: Vec<f64>,
    /// Measured value per iteration of each sample.
    pub averages: Vec<f64>,
    pub estimates: Estimates,
    pub tukey: Tukey,
    /// R² of the slope line at the lower and upper bounds of its interval.
    pub r2_bounds: Option<(f64, f64)>,
    pub change: Option<Change>,
    /// The bootstrap distributions, kept for the report's plots.
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub distributions: Option<Distributions>,
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub change_distributions: Option<ChangeDistributions>,
}

impl Analysis {
    /// The estimate shown first: the slope for linear sampling, else the
    /// mean.
    pub(crate) fn typical(&self) -> &Estimate {
        self.estimates
            .slope
            .as_ref()
            .unwrap_or(&self.estimates.mean)
    }
}

/// Analyses samples (`values[i]` measured over `iters[i]` iterations),
/// comparing with `baseline` (a baseline's per-iteration averages) if given.
pub(crate) fn analyse(
    mode: ActualSamplingMode,
    iters: Vec<f64>,
    values: Vec<f64>,
    baseline: Option<&[f64]>,
    config: &BenchmarkConfig,
    keep_distributions: bool,
) -> Result<Analysis, StatsError> {
    let averages: Vec<f64> = values.iter().zip(&iters).map(|(v, n)| v / n).collect();
    let tukey = classify(&averages);
    let boot = BootstrapConfig {
        nresamples: config.nresamples,
        confidence: config.confidence_level,
        seed: SEED,
    };
    let linear = mode == ActualSamplingMode::Linear;
    let (estimates, distributions) = estimates_with_distributions(&iters, &values, linear, &boot)?;
    let r2_bounds = estimates
        .slope
        .as_ref()
        .map(|s| (r2(&iters, &values, s.lower), r2(&iters, &values, s.upper)));
    let compared = baseline
        .map(|old| {
            // The estimates just resampled the new run's means and medians;
            // the comparison reuses them.
            compare_with_resampled_new(
                old,
                &averages,
                &distributions,
                &ChangeConfig {
                    nresamples: config.nresamples,
                    confidence: config.confidence_level,
                    significance: config.significance_level,
                    noise_threshold: config.noise_threshold,
                    seed: SEED,
                },
            )
        })
        .transpose()?;
    let (change, change_distributions) = match compared {
        Some((c, d)) => (Some(c), Some(d)),
        None => (None, None),
    };
    Ok(Analysis {
        mode,
        iters,
        values,
        averages,
        estimates,
        tukey,
        r2_bounds,
        change,
        distributions: keep_distributions.then_some(distributions),
        change_distributions: change_distributions.filter(|_| keep_distributions),
    })
}

/// Centred R² of the line `y = slope · x` through the origin.
fn r2(x: &[f64], y: &[f64], slope: f64) -> f64 {
    yardstick_stats::regression::centred_r2(x, y, 0.0, slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_samples_get_a_slope_and_flat_ones_do_not() {
        let iters: Vec<f64> = (1..=20).map(f64::from).collect();
        let values: Vec<f64> = iters
            .iter()
            .enumerate()
            .map(|(i, n)| n * 10.0 + if i % 2 == 0 { 0.5 } else { -0.5 })
            .collect();
        let config = BenchmarkConfig {
            nresamples: 1000,
            ..BenchmarkConfig::default()
        };
        let a = analyse(
            ActualSamplingMode::Linear,
            iters.clone(),
            values.clone(),
            None,
            &config,
            false,
        )
        .unwrap();
        let slope = a.estimates.slope.unwrap();
        assert!((slope.point - 10.0).abs() < 0.05, "{slope:?}");
        assert_eq!(a.typical().point, slope.point);
        let (lo, hi) = a.r2_bounds.unwrap();
        assert!(lo > 0.99 && hi > 0.99);
        let flat = analyse(ActualSamplingMode::Flat, iters, values, None, &config, true).unwrap();
        assert!(flat.distributions.is_some());
        assert!(flat.estimates.slope.is_none());
        assert_eq!(flat.typical().point, flat.estimates.mean.point);
    }

    #[test]
    fn r2_of_a_perfect_line_is_one() {
        // Hand calculation: y = 3x exactly, so SS_res = 0.
        assert_eq!(r2(&[1.0, 2.0, 3.0], &[3.0, 6.0, 9.0], 3.0), 1.0);
        // y = [2, 4, 7], ȳ = 13/3, SS_tot = 12.667; slope 2: residuals 0, 0, 1.
        let v = r2(&[1.0, 2.0, 3.0], &[2.0, 4.0, 7.0], 2.0);
        assert!((v - (1.0 - 1.0 / (38.0 / 3.0))).abs() < 1e-12, "{v}");
    }

    #[test]
    fn a_slower_run_is_a_regression() {
        let iters = vec![1.0; 50];
        let old: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 5)).collect();
        let new: Vec<f64> = old.iter().map(|v| v * 1.2).collect();
        let config = BenchmarkConfig {
            nresamples: 2000,
            ..BenchmarkConfig::default()
        };
        let a = analyse(
            ActualSamplingMode::Flat,
            iters,
            new,
            Some(&old),
            &config,
            false,
        )
        .unwrap();
        let change = a.change.unwrap();
        assert_eq!(change.verdict, yardstick_stats::Verdict::Regressed);
        assert!((change.mean.point - 0.2).abs() < 1e-9);
    }
}

//! Pure statistics for the yardstick benchmarking framework.
//!
//! ```
//! use yardstick_stats::{classify, compare, estimates, BootstrapConfig, ChangeConfig};
//!
//! // Linear sampling: sample i ran (i + 1) * 10 iterations.
//! let iters: Vec<f64> = (1..=20).map(|i| f64::from(i) * 10.0).collect();
//! let values: Vec<f64> = iters.iter().enumerate()
//!     .map(|(i, n)| n * 25.0 + if i % 3 == 0 { 4.0 } else { -2.0 })
//!     .collect();
//!
//! let cfg = BootstrapConfig { nresamples: 10_000, confidence: 0.95, seed: 7 };
//! let est = estimates(&iters, &values, true, &cfg)?;
//! let slope = est.slope.expect("linear sampling has a slope");
//! assert!(slope.lower <= slope.point && slope.point <= slope.upper);
//! assert!((slope.point - 25.0).abs() < 0.1);
//!
//! let per_iter: Vec<f64> = values.iter().zip(&iters).map(|(v, n)| v / n).collect();
//! let outliers = classify(&per_iter);
//! assert_eq!(outliers.labels.len(), 20);
//!
//! let slower: Vec<f64> = per_iter.iter().map(|t| t * 1.10).collect();
//! let change = compare(&per_iter, &slower, &ChangeConfig { nresamples: 10_000, ..ChangeConfig::default() })?;
//! println!("{:+.1}% {}", change.mean.point * 100.0, change.verdict.message());
//! # Ok::<(), yardstick_stats::StatsError>(())
//! ```
//!
//! # Overview
//!
//! Every function takes slices of `f64` and returns values; nothing here
//! reads a clock, touches a file or prints. The only threads are the scoped
//! ones the bootstrap uses, and its results do not depend on them.
//!
//! * [`estimates`] — bootstrap confidence intervals of the mean, median,
//!   standard deviation, MAD and slope of a benchmark's samples.
//! * [`classify`] — Tukey's fences and outlier classes.
//! * [`compare`] — the change from a baseline, with a verdict.
//! * [`outlier_variance()`] — how much outliers inflate the variance
//!   (Haskell criterion, rebar3_bench).
//! * [`hypothesis`] — Welch's t-test, Student's t interval of a difference
//!   (ministat, rebar3_bench), Mann-Whitney U.
//! * [`tasty`] — tasty-bench's two-point estimate and stopping rule;
//!   [`nanobench`] — err%, the unstable rule, epoch sizing;
//!   [`complexity`] — Big-O fits.
//! * [`processes`] — estimates and comparisons over worker processes, the
//!   intervals that carry run-to-run variance.
//! * [`changepoint`] — level shifts in a benchmark's history;
//!   [`drift`] — a machine's run-to-run drift from A/A runs.
//! * [`kde`] — kernel density estimates for plots.
//! * [`univariate`] — descriptive statistics; [`regression`] — least
//!   squares; [`distributions`] — normal and t distributions; [`rng`] — the
//!   seeded generator; [`bootstrap`] — how the resampling is organised.
//!
//! # Degenerate data
//!
//! Nothing returns NaN for finite input. Undefined statistics are `None` or
//! an [`StatsError`]; data without spread gives zero-width intervals, and a
//! comparison of two spread-less samples is [`Verdict::NoChange`].
#![deny(missing_docs)]

/// The seed yardstick's bootstraps use unless told otherwise: the harness's
/// analysis and the report regenerated from disk share it, so both draw the
/// same resamples from the same samples.
pub const DEFAULT_SEED: u64 = 0x5EED_0F7A_8D57_C1A5;

/// Relative slack for floating-point rounding when two estimates are
/// compared as ratios: equal times reached through different iteration
/// counts differ in their last bits, and no clock resolves one part in 10⁹.
pub const RELATIVE_ROUNDING: f64 = 1e-9;

/// The most bootstrap resamples any analysis accepts: 10^7 (the default is
/// 10^5). The distributions are held in memory, 8 bytes per resample and
/// statistic, so an unbounded count is an allocation failure, not an
/// answer.
pub const MAX_NRESAMPLES: usize = 10_000_000;

/// The fewest bootstrap resamples the command lines accept: 100. With
/// fewer, the percentiles of a 95 % interval are the few extreme resamples
/// themselves (with one, every bound is that one resample, and the point
/// estimate can fall outside its own interval), so no interval or verdict
/// means anything.
pub const MIN_NRESAMPLES: usize = 100;

pub mod bootstrap;
mod change;
pub mod changepoint;
pub mod complexity;
pub mod distributions;
pub mod drift;
mod error;
mod estimates;
pub mod hypothesis;
pub mod kde;
pub mod multiple;
pub mod nanobench;
mod outlier_variance;
pub mod paired;
pub mod power;
pub mod precision;
pub mod processes;
pub mod regression;
mod resample;
pub mod rng;
pub mod tasty;
mod tukey;
pub mod univariate;

pub use bootstrap::Estimate;
pub use change::{
    compare, compare_with_distributions, compare_with_resampled_new, verdict_of, Change,
    ChangeConfig, ChangeDistributions, Verdict,
};
pub use error::StatsError;
pub use estimates::{
    estimates, estimates_with_distributions, BootstrapConfig, Distributions, Estimates,
};
pub use outlier_variance::{outlier_variance, OutlierEffect, OutlierVariance};
pub use tukey::{classify, OutlierClass, OutlierCounts, Tukey, TukeyFences};

#![doc = include_str!("../README.md")]
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
pub mod layouts;
pub mod multiple;
pub mod nanobench;
pub mod online;
mod outlier_variance;
pub mod paired;
pub mod power;
pub mod precision;
pub mod processes;
pub mod regression;
mod resample;
pub mod rng;
pub mod sequential;
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

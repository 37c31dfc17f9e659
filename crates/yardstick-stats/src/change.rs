//! Change detection between a baseline and a new run, as Criterion.rs does
//! it: a bootstrapped t-test for significance and bootstrapped relative
//! changes of the mean and median against a noise threshold.

use crate::bootstrap::{run, Estimate};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::resample;
use crate::rng::Rng;
use crate::univariate::{mean_unchecked, median_in_place, variance_with_mean};

/// Mixed into the seed for the baseline's resamples.
const OLD_STREAMS: u64 = 0x6f6c_645f_7275_6e00;

/// Resamples of t's null distribution drawn before deciding whether more
/// can change the verdict: three whole chunks, so that later stages
/// continue the same streams.
const T_FIRST_STAGE: usize = 3 * crate::bootstrap::CHUNK;

/// How to compare two runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangeConfig {
    /// Number of resamples of each bootstrap.
    pub nresamples: usize,
    /// Confidence level of the change intervals, as a fraction (0.95).
    pub confidence: f64,
    /// The p-value below which a difference is significant (0.05).
    pub significance: f64,
    /// Relative changes of the mean within `±noise_threshold` are noise;
    /// a fraction (0.01 = 1 %).
    pub noise_threshold: f64,
    /// Seed of the random streams.
    pub seed: u64,
}

impl Default for ChangeConfig {
    /// Criterion.rs's defaults: 100,000 resamples, 95 % confidence,
    /// significance 0.05, noise threshold 1 %; seed 0.
    fn default() -> ChangeConfig {
        ChangeConfig {
            nresamples: 100_000,
            confidence: 0.95,
            significance: 0.05,
            noise_threshold: 0.01,
            seed: 0,
        }
    }
}

/// What a comparison concludes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Significant, and the whole interval of the mean change is above
    /// `+noise_threshold`.
    Regressed,
    /// Significant, and the whole interval of the mean change is below
    /// `−noise_threshold`.
    Improved,
    /// Not significant (`p_value >= significance`).
    NoChange,
    /// Significant, but the interval of the mean change reaches into
    /// `±noise_threshold`.
    WithinNoise,
}

impl Verdict {
    /// Every verdict.
    pub const ALL: [Verdict; 4] = [
        Verdict::Regressed,
        Verdict::Improved,
        Verdict::NoChange,
        Verdict::WithinNoise,
    ];

    /// Its name in files and templates: `Regressed`, `Improved`,
    /// `NoChange`, `WithinNoise`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Regressed => "Regressed",
            Verdict::Improved => "Improved",
            Verdict::NoChange => "NoChange",
            Verdict::WithinNoise => "WithinNoise",
        }
    }

    /// Whether it says the performance changed: `Regressed` or `Improved`.
    #[must_use]
    pub fn is_change(&self) -> bool {
        matches!(self, Verdict::Regressed | Verdict::Improved)
    }

    /// The verdict of that [`name`](Verdict::name).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The sentence Criterion.rs prints for this verdict.
    #[must_use]
    pub fn message(&self) -> &'static str {
        match self {
            Verdict::Regressed => "Performance has regressed.",
            Verdict::Improved => "Performance has improved.",
            Verdict::NoChange => "No change in performance detected.",
            Verdict::WithinNoise => "Change within noise threshold.",
        }
    }
}

/// Criterion.rs's rule: not significant is no change; significant with the
/// whole interval of the mean change beyond the noise threshold is a
/// regression or an improvement; otherwise within noise.
pub fn verdict_of(p_value: f64, mean: &Estimate, cfg: &ChangeConfig) -> Verdict {
    if p_value >= cfg.significance {
        Verdict::NoChange
    } else if mean.lower > cfg.noise_threshold {
        Verdict::Regressed
    } else if mean.upper < -cfg.noise_threshold {
        Verdict::Improved
    } else {
        Verdict::WithinNoise
    }
}

/// The change from a baseline to a new run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Relative change of the mean, `mean(new) / mean(old) − 1`
    /// (0.05 = 5 % slower).
    pub mean: Estimate,
    /// Relative change of the median.
    pub median: Estimate,
    /// Two-tailed p-value of the bootstrapped Welch t-test.
    pub p_value: f64,
    /// Welch's t statistic of `new` against `old` (positive when `new` is
    /// larger).
    pub t: f64,
    /// The conclusion.
    pub verdict: Verdict,
}

/// The bootstrap distributions behind a [`Change`], in resample order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChangeDistributions {
    /// t statistics of resamples drawn from the pooled samples (the null
    /// distribution of the test).
    pub t: Vec<f64>,
    /// Resampled relative changes of the mean.
    pub mean: Vec<f64>,
    /// Resampled relative changes of the median.
    pub median: Vec<f64>,
}

/// Welch's t of `b` against `a` from means and variances; 0 when both
/// groups have no spread and equal means, ±∞ when they differ — never NaN.
#[inline]
fn welch_t(mean_a: f64, var_a: f64, na: f64, mean_b: f64, var_b: f64, nb: f64) -> f64 {
    let diff = mean_b - mean_a;
    let se2 = var_a / na + var_b / nb;
    if se2 > 0.0 {
        diff / se2.sqrt()
    } else if diff == 0.0 {
        0.0
    } else {
        diff.signum() * f64::INFINITY
    }
}

/// Compares `new` against the baseline `old` (both per-iteration values).
///
/// * **Significance**: Welch's t of `new` against `old`, then the same
///   statistic for `nresamples` resamples drawn from both samples pooled
///   (two groups of the original sizes, with replacement). The p-value is the
///   fraction of resampled `|t*|` at least `|t|`.
/// * **Size**: the relative changes of the mean and the median, with
///   intervals from resamples that draw **both** samples afresh every time
///   (Criterion.rs reuses each new-run resample for many baseline resamples).
/// * **Verdict**: `p_value >= significance` is [`Verdict::NoChange`];
///   otherwise an interval of the mean change wholly above
///   `+noise_threshold` is [`Verdict::Regressed`], wholly below
///   `−noise_threshold` is [`Verdict::Improved`], and anything else is
///   [`Verdict::WithinNoise`].
///
/// When neither sample has any spread the test is undefined: `t` is 0,
/// `p_value` is 1 and the verdict is [`Verdict::NoChange`]; the relative
/// changes are still reported (with zero-width intervals).
///
/// # Errors
///
/// [`StatsError::TooFewSamples`] when a sample has fewer than two values,
/// [`StatsError::NonFinite`] for NaN or infinite values,
/// [`StatsError::ZeroBaseline`] when the baseline's mean or median is 0, and
/// [`StatsError::InvalidConfig`] for a confidence or significance outside
/// (0, 1), a negative noise threshold or zero resamples.
///
/// # Example
///
/// ```
/// use yardstick_stats::{compare, ChangeConfig, Verdict};
///
/// let old = [10.0, 10.2, 9.9, 10.1, 10.0, 9.8, 10.3, 10.1];
/// let new = [12.0, 12.1, 11.9, 12.2, 12.0, 11.8, 12.3, 12.1];
/// let cfg = ChangeConfig { nresamples: 10_000, ..ChangeConfig::default() };
/// let change = compare(&old, &new, &cfg)?;
/// assert_eq!(change.verdict, Verdict::Regressed);
/// assert!((change.mean.point - 0.1985).abs() < 1e-3);
/// assert_eq!(change.verdict.message(), "Performance has regressed.");
/// # Ok::<(), yardstick_stats::StatsError>(())
/// ```
pub fn compare(old: &[f64], new: &[f64], cfg: &ChangeConfig) -> Result<Change, StatsError> {
    compare_with_distributions(old, new, cfg).map(|(c, _)| c)
}

/// [`compare`], also returning the bootstrap distributions.
///
/// # Errors
///
/// As [`compare`].
pub fn compare_with_distributions(
    old: &[f64],
    new: &[f64],
    cfg: &ChangeConfig,
) -> Result<(Change, ChangeDistributions), StatsError> {
    check_config(cfg)?;
    check_sample(new)?;
    let (mean, median) = crate::estimates::mean_median_distributions(new, cfg.nresamples, cfg.seed);
    compare_given_new(old, new, &mean, &median, cfg)
}

/// [`compare_with_distributions`] for a `new` run whose estimates were just
/// bootstrapped: the resampled means and medians of `new` are taken from
/// `resampled` (from [`estimates_with_distributions`] on `new` with the
/// same number of resamples and seed) instead of being drawn again, which
/// saves a third of the comparison's work. The result is the same, to the
/// last bit, as [`compare_with_distributions`]'s.
///
/// [`estimates_with_distributions`]: crate::estimates_with_distributions
///
/// # Errors
///
/// As [`compare`], and [`StatsError::InvalidConfig`] when `resampled` does
/// not hold `cfg.nresamples` means and medians.
pub fn compare_with_resampled_new(
    old: &[f64],
    new: &[f64],
    resampled: &crate::Distributions,
    cfg: &ChangeConfig,
) -> Result<(Change, ChangeDistributions), StatsError> {
    check_config(cfg)?;
    if resampled.mean.len() != cfg.nresamples || resampled.median.len() != cfg.nresamples {
        return Err(StatsError::InvalidConfig(
            "the new run's resamples must number nresamples (bootstrap it with the same settings)",
        ));
    }
    compare_given_new(old, new, &resampled.mean, &resampled.median, cfg)
}

fn check_sample(s: &[f64]) -> Result<(), StatsError> {
    if s.len() < 2 {
        return Err(StatsError::TooFewSamples {
            needed: 2,
            got: s.len(),
        });
    }
    check_finite(s)
}

fn check_config(cfg: &ChangeConfig) -> Result<(), StatsError> {
    check_confidence(cfg.confidence)?;
    if !(cfg.significance > 0.0 && cfg.significance < 1.0) {
        return Err(StatsError::InvalidConfig(
            "significance must be a fraction strictly between 0 and 1 (e.g. 0.05)",
        ));
    }
    if !(cfg.noise_threshold >= 0.0 && cfg.noise_threshold.is_finite()) {
        return Err(StatsError::InvalidConfig(
            "noise_threshold must be a non-negative fraction (e.g. 0.01)",
        ));
    }
    if cfg.nresamples == 0 || cfg.nresamples > crate::MAX_NRESAMPLES {
        return Err(StatsError::InvalidConfig(
            "nresamples must be from 1 to 10^7",
        ));
    }
    Ok(())
}

/// The comparison, given the resampled means and medians of `new`.
fn compare_given_new(
    old: &[f64],
    new: &[f64],
    new_means: &[f64],
    new_medians: &[f64],
    cfg: &ChangeConfig,
) -> Result<(Change, ChangeDistributions), StatsError> {
    check_sample(old)?;
    check_sample(new)?;

    // Everything is computed from sorted copies, so the result does not
    // depend on the order of either sample, to the last bit.
    let mut sorted_old = old.to_vec();
    sorted_old.sort_unstable_by(f64::total_cmp);
    let mut sorted_new = new.to_vec();
    sorted_new.sort_unstable_by(f64::total_cmp);
    let (old, new) = (&sorted_old[..], &sorted_new[..]);
    let (no, nn) = (old.len(), new.len());
    let (fo, fnw) = (no as f64, nn as f64);
    let mean_old = mean_unchecked(old);
    let mean_new = mean_unchecked(new);
    let var_old = variance_with_mean(old, mean_old);
    let var_new = variance_with_mean(new, mean_new);
    let med_old = median_in_place(&mut old.to_vec());
    let med_new = median_in_place(&mut new.to_vec());
    if mean_old == 0.0 || med_old == 0.0 {
        return Err(StatsError::ZeroBaseline);
    }
    let no_spread = var_old == 0.0 && var_new == 0.0;
    let t = if no_spread {
        0.0
    } else {
        welch_t(mean_old, var_old, fo, mean_new, var_new, fnw)
    };

    let old_resampled = resampled_means_and_medians(old, cfg);
    let relative = |new: &[f64], old: &[f64]| -> Vec<f64> {
        new.iter().zip(old).map(|(n, o)| n / o - 1.0).collect()
    };
    let changes = [
        relative(new_means, &old_resampled[0]),
        relative(new_medians, &old_resampled[1]),
    ];
    let t_dist = null_t_distribution(old, new, t, no_spread, cfg);
    let mut changes = changes.into_iter();
    let d = ChangeDistributions {
        t: t_dist,
        mean: changes.next().unwrap_or_default(),
        median: changes.next().unwrap_or_default(),
    };

    let c = cfg.confidence;
    let few = no.min(nn) < MIN_RESAMPLED;
    let (p_value, mean) = if no_spread {
        let mean = Estimate::from_distribution(mean_new / mean_old - 1.0, &d.mean, c);
        (1.0, mean)
    } else if few {
        welch_change([mean_old, var_old, fo], [mean_new, var_new, fnw], c)
    } else {
        let extreme = d.t.iter().filter(|x| x.abs() >= t.abs()).count();
        let mean = Estimate::from_distribution(mean_new / mean_old - 1.0, &d.mean, c);
        (extreme as f64 / d.t.len() as f64, mean)
    };
    let median = Estimate::from_distribution(med_new / med_old - 1.0, &d.median, c);
    let verdict = verdict_of(p_value, &mean, cfg);
    Ok((
        Change {
            mean,
            median,
            p_value,
            t,
            verdict,
        },
        d,
    ))
}

/// Below this many values in either sample, the change of the mean and its
/// p-value both come from Welch's t-test ([`welch_change`]) instead of
/// resamples. A bootstrap of two values (`--quick` keeps two) has three
/// possible means: its interval was the spread of two agreeing timings,
/// far from zero, while the resampled t-test could not go below p ≈ 0.09,
/// and the two were printed side by side. 10 is Criterion.rs's smallest
/// sample size; every sampling plan but `--quick` and tasty-bench's
/// `--stdev` takes at least that many.
pub const MIN_RESAMPLED: usize = 10;

/// Welch's t-test of the mean change and its interval, one analysis: the
/// interval is `(mean_new − mean_old ± t_{(1+c)/2, ν} · se) / mean_old` with
/// Welch–Satterthwaite's ν, the two-sided p-value is from the same `t` and
/// `ν`, so the interval excludes zero exactly when `p < 1 − c`. Each
/// sample is `[mean, variance, n]`; at least one variance is positive.
fn welch_change(old: [f64; 3], new: [f64; 3], confidence: f64) -> (f64, Estimate) {
    let [mean_old, var_old, no] = old;
    let [mean_new, var_new, nn] = new;
    let (vo, vn) = (var_old / no, var_new / nn);
    let se = (vo + vn).sqrt();
    let df = (vo + vn).powi(2) / (vo * vo / (no - 1.0) + vn * vn / (nn - 1.0));
    let diff = mean_new - mean_old;
    let p = (2.0 * crate::distributions::t_sf((diff / se).abs(), df)).min(1.0);
    let half = crate::distributions::t_quantile(0.5 * (1.0 + confidence), df) * se;
    let mean = Estimate {
        point: mean_new / mean_old - 1.0,
        lower: (diff - half) / mean_old,
        upper: (diff + half) / mean_old,
        confidence,
        standard_error: se / mean_old,
    };
    (p, mean)
}

/// The baseline's resampled means and medians: each sample is resampled on
/// its own. The baseline draws from streams of its own: on the new run's
/// streams, two samples of one size would be resampled at the same
/// positions.
fn resampled_means_and_medians(old: &[f64], cfg: &ChangeConfig) -> Vec<Vec<f64>> {
    let no = old.len();
    run(
        0,
        cfg.nresamples,
        cfg.seed ^ OLD_STREAMS,
        2,
        no,
        || vec![0u32; no],
        |co: &mut Vec<u32>, rng: &mut Rng, row: &mut [f64]| {
            resample::draw_counts(rng, co, no);
            let sum: f64 = old
                .iter()
                .zip(co.iter())
                .map(|(&x, &c)| f64::from(c) * x)
                .sum();
            row[0] = sum / no as f64;
            row[1] = resample::median(old, co, no);
        },
    )
}

/// The null distribution of Welch's t: two groups of the samples' sizes
/// drawn from the pooled data (`old` and `new` sorted), `t` the observed
/// statistic.
///
/// It is drawn in stages: a Monte Carlo p-value far from the significance
/// level after the first stage would not change side with more resamples,
/// so the rest are drawn only when it is close (Besag and Clifford's
/// sequential p-value, with a margin of 4 standard errors).
fn null_t_distribution(
    old: &[f64],
    new: &[f64],
    t: f64,
    no_spread: bool,
    cfg: &ChangeConfig,
) -> Vec<f64> {
    let (no, nn) = (old.len(), new.len());
    let (fo, fnw) = (no as f64, nn as f64);
    let (mean_old, mean_new) = (mean_unchecked(old), mean_unchecked(new));
    // The pooled data, shifted by their mean so that one-pass sums of
    // squares stay exact for values far from zero.
    let shift = (mean_old * fo + mean_new * fnw) / (fo + fnw);
    let pooled: Vec<f64> = old.iter().chain(new).map(|x| x - shift).collect();
    let np = pooled.len();
    // The pooled sample has at most u32::MAX values in any realistic use;
    // larger ones draw one index at a time.
    let np32 = u32::try_from(np).ok();
    let group = |rng: &mut Rng, size: usize| {
        let (mut s, mut ss) = (0.0, 0.0);
        let mut add = |d: f64| {
            s += d;
            ss += d * d;
        };
        match np32 {
            Some(n32) => {
                for _ in 0..size / 2 {
                    let (a, b) = rng.below_u32_pair(n32);
                    add(pooled[a as usize]);
                    add(pooled[b as usize]);
                }
                if size % 2 == 1 {
                    add(pooled[rng.index(np)]);
                }
            }
            None => {
                for _ in 0..size {
                    add(pooled[rng.index(np)]);
                }
            }
        }
        let k = size as f64;
        let var = ((ss - s * s / k) / (k - 1.0)).max(0.0);
        (s / k, var)
    };
    let t_seed = cfg.seed ^ 0x7465_7374_5f74_0000;
    let null_t = |first: u64, count: usize| {
        run(
            first,
            count,
            t_seed,
            1,
            2 * np,
            || (),
            |(), rng: &mut Rng, row: &mut [f64]| {
                let (ma, va) = group(rng, no);
                let (mb, vb) = group(rng, nn);
                row[0] = welch_t(ma, va, fo, mb, vb, fnw);
            },
        )
        .pop()
        .unwrap_or_default()
    };
    let first_stage = cfg.nresamples.min(T_FIRST_STAGE);
    let mut t_dist = null_t(0, first_stage);
    if !no_spread && first_stage < cfg.nresamples {
        let m = t_dist.len() as f64;
        let p = t_dist.iter().filter(|x| x.abs() >= t.abs()).count() as f64 / m;
        let se = (p.max(1.0 / m) * (1.0 - p).max(1.0 / m) / m).sqrt();
        if (p - cfg.significance).abs() <= 4.0 * se {
            let chunks_done = first_stage.div_ceil(crate::bootstrap::CHUNK) as u64;
            t_dist.extend(null_t(chunks_done, cfg.nresamples - first_stage));
        }
    }
    t_dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_p_value_stops_after_the_first_stage() {
        // A 20 % shift with 1 % spread: p is 0 after 12 288 resamples, and
        // 4 standard errors (of 1 / 12 288) are far from 0.05.
        let old: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 5) * 0.25).collect();
        let new: Vec<f64> = old.iter().map(|x| x * 1.2).collect();
        let c = ChangeConfig {
            nresamples: 100_000,
            ..ChangeConfig::default()
        };
        let (change, d) = compare_with_distributions(&old, &new, &c).unwrap();
        assert_eq!(d.t.len(), T_FIRST_STAGE);
        assert_eq!(
            d.mean.len(),
            100_000,
            "the change's interval keeps every resample"
        );
        assert_eq!(change.p_value, 0.0);
        // Identical samples: p is near 1, also far from 0.05.
        let (same, d) = compare_with_distributions(&old, &old, &c).unwrap();
        assert_eq!(d.t.len(), T_FIRST_STAGE);
        assert!(same.p_value > 0.5, "{}", same.p_value);
    }

    #[test]
    fn staged_bootstraps_draw_the_same_streams_as_one_run() {
        let step = |_: &mut (), rng: &mut Rng, row: &mut [f64]| row[0] = rng.next_f64();
        let whole = run(0, 3 * crate::bootstrap::CHUNK, 9, 1, 1, || (), step)
            .pop()
            .unwrap();
        let mut staged =
            crate::bootstrap::run(0, 2 * crate::bootstrap::CHUNK, 9, 1, 1, || (), step)
                .pop()
                .unwrap();
        staged.extend(
            crate::bootstrap::run(2, crate::bootstrap::CHUNK, 9, 1, 1, || (), step)
                .pop()
                .unwrap(),
        );
        assert_eq!(whole, staged);
    }

    fn cfg() -> ChangeConfig {
        ChangeConfig {
            nresamples: 5_000,
            ..ChangeConfig::default()
        }
    }

    #[test]
    fn identical_constant_samples_are_no_change() {
        let c = compare(&[5.0; 10], &[5.0; 10], &cfg()).unwrap();
        assert_eq!(c.verdict, Verdict::NoChange);
        assert_eq!(c.p_value, 1.0);
        assert_eq!(c.t, 0.0);
        assert_eq!(c.mean.point, 0.0);
    }

    #[test]
    fn different_constant_samples_are_defined() {
        let c = compare(&[5.0; 10], &[6.0; 10], &cfg()).unwrap();
        assert_eq!(c.verdict, Verdict::NoChange);
        assert!((c.mean.point - 0.2).abs() < 1e-12);
        assert!(c.mean.lower.is_finite() && c.median.upper.is_finite());
    }

    #[test]
    fn same_distribution_is_not_significant() {
        let old: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 7)).collect();
        let new: Vec<f64> = (0..50).map(|i| 100.0 + f64::from((i + 3) % 7)).collect();
        let c = compare(&old, &new, &cfg()).unwrap();
        assert_eq!(c.verdict, Verdict::NoChange);
        assert!(c.p_value > 0.5);
    }

    #[test]
    fn small_significant_change_is_within_noise() {
        let old: Vec<f64> = (0..100).map(|i| 100.0 + f64::from(i % 5) * 0.1).collect();
        let new: Vec<f64> = old.iter().map(|x| x * 1.003).collect();
        let c = compare(&old, &new, &cfg()).unwrap();
        assert!(c.p_value < 0.05);
        assert_eq!(c.verdict, Verdict::WithinNoise);
        let faster: Vec<f64> = old.iter().map(|x| x * 0.9).collect();
        assert_eq!(
            compare(&old, &faster, &cfg()).unwrap().verdict,
            Verdict::Improved
        );
    }

    #[test]
    fn zero_baseline_is_an_error() {
        assert_eq!(
            compare(&[0.0, 0.0, 0.0], &[1.0, 2.0], &cfg()),
            Err(StatsError::ZeroBaseline)
        );
    }

    #[test]
    fn messages_are_criterions() {
        assert_eq!(Verdict::Improved.message(), "Performance has improved.");
        assert_eq!(
            Verdict::NoChange.message(),
            "No change in performance detected."
        );
        assert_eq!(
            Verdict::WithinNoise.message(),
            "Change within noise threshold."
        );
    }

    #[test]
    fn reusing_the_new_runs_resamples_changes_nothing() {
        use crate::{estimates_with_distributions, BootstrapConfig};
        let old: Vec<f64> = (0..40).map(|i| 100.0 + f64::from(i * 7 % 13)).collect();
        let iters: Vec<f64> = (1..=30).map(f64::from).collect();
        let values: Vec<f64> = iters
            .iter()
            .map(|n| n * (104.0 + (n * 5.0) % 11.0))
            .collect();
        let averages: Vec<f64> = values.iter().zip(&iters).map(|(v, n)| v / n).collect();
        let c = ChangeConfig {
            nresamples: 5000,
            ..ChangeConfig::default()
        };
        let alone = compare_with_distributions(&old, &averages, &c).unwrap();
        for linear in [false, true] {
            let boot = BootstrapConfig {
                nresamples: c.nresamples,
                confidence: c.confidence,
                seed: c.seed,
            };
            let (_, d) = estimates_with_distributions(&iters, &values, linear, &boot).unwrap();
            let reused = compare_with_resampled_new(&old, &averages, &d, &c).unwrap();
            assert_eq!(reused, alone, "linear: {linear}");
        }
        // Resamples of another length are refused, in words.
        let (_, d) = estimates_with_distributions(
            &iters,
            &values,
            false,
            &BootstrapConfig {
                nresamples: 10,
                ..BootstrapConfig::default()
            },
        )
        .unwrap();
        assert!(matches!(
            compare_with_resampled_new(&old, &averages, &d, &c),
            Err(StatsError::InvalidConfig(_))
        ));
    }

    #[test]
    fn the_two_runs_are_resampled_independently() {
        // Were the baseline drawn on the new run's streams, two runs with
        // the same values would be resampled at the same positions and
        // every resampled change would be exactly 0.
        let x: Vec<f64> = (0..50).map(|i| 10.0 + f64::from(i % 9)).collect();
        let (change, d) = compare_with_distributions(&x, &x, &cfg()).unwrap();
        let zeros = d.mean.iter().filter(|c| **c == 0.0).count();
        assert!(zeros < d.mean.len() / 20, "{zeros} of {}", d.mean.len());
        // The spread of the difference of two independent means: the
        // standard error of one mean is s / sqrt(n); of the ratio of two,
        // about sqrt(2) s / (sqrt(n) mean). Here s = 2.561 (population sd,
        // numpy's x.std()) and mean = 13.8: sqrt(2) * 2.561 / sqrt(50) /
        // 13.8 = 0.0371; allow the bootstrap's own noise.
        let se = change.mean.standard_error;
        assert!((se - 0.0371).abs() < 0.004, "{se}");
    }
}

#[cfg(test)]
mod few_samples {
    use super::*;

    /// `--quick` keeps two samples. A bootstrap of two values has three
    /// possible means: the interval of the change was the spread of two
    /// agreeing timings (`[+5300% +5473% +5651%]`), while the resampled
    /// t-test could not go below p ≈ 0.09, so the line said "No change".
    /// With so few values both now come from Welch's t-test, one analysis:
    /// the interval excludes zero exactly when p < 1 − confidence.
    /// Expected values from scipy 1.17:
    /// `r = ttest_ind(new, old, equal_var=False)`, `r.pvalue`,
    /// `r.confidence_interval(0.95) / mean(old)`.
    #[test]
    fn two_samples_each_get_one_analysis_whose_interval_and_p_agree() {
        let cfg = ChangeConfig {
            nresamples: 10_000,
            ..ChangeConfig::default()
        };
        let c = compare(&[100.0, 102.0], &[5400.0, 5550.0], &cfg).unwrap();
        let close = |got: f64, want: f64| (got - want).abs() <= 1e-6 * want.abs().max(1.0);
        assert!(close(c.p_value, 0.008_872_056_971_698_579), "{c:?}");
        assert!(close(c.mean.lower, 43.779_703_467_854_87), "{c:?}");
        assert!(close(c.mean.point, 53.207_920_792_079_21), "{c:?}");
        assert!(close(c.mean.upper, 62.636_138_116_303_54), "{c:?}");
        assert_eq!(c.verdict, Verdict::Regressed);
        // 3 % slower in two noisy pairs: the interval reaches below zero,
        // and p is above 0.05.
        let c = compare(&[100.0, 101.0], &[103.0, 104.5], &cfg).unwrap();
        assert!(close(c.p_value, 0.084_388_541_625_161_89), "{c:?}");
        assert!(close(c.mean.lower, -0.012_273_939_144_683_372), "{c:?}");
        assert!(close(c.mean.upper, 0.076_950_556_060_106_26), "{c:?}");
        assert_eq!(c.verdict, Verdict::NoChange);
    }
}

//! Power guidance: how small a change a comparison of two runs could have
//! detected, and how much longer to run to detect a smaller one.
//!
//! The comparison is the two-sample test of means of per-iteration values
//! (Criterion.rs's bootstrapped Welch t-test). With the normal
//! approximation, a two-sided test at level `α` detects a relative change
//! `δ` of the mean with probability `power` when
//!
//! ```text
//! δ = (z(1 − α/2) + z(power)) · cv · √(1/n_old + 1/n_new)
//! ```
//!
//! where `cv` is the samples' coefficient of variation (standard deviation
//! over mean) and `z` the standard normal quantile (Cohen 1988, ch. 2).
//!
//! The time needed for a smaller change follows from the same formula if
//! the noise of a sample averages out over its length (white noise): `cv²`
//! of a sample falls as `1/length`, so `δ²` falls as `1/total time`,
//! however the time is split into samples, and detecting `δ'` takes
//! `(δ / δ')²` times as long. Drift between runs does not average out; the
//! figure is then a lower bound, and alternating comparisons (`ab`,
//! interleaved groups) are the remedy.

use crate::distributions::normal_quantile;

/// The smallest relative change of the mean (0.02 = 2 %) that a two-sided
/// test at level `alpha` detects with probability `power`, for samples of
/// coefficient of variation `cv` with `n_old` and `n_new` values.
///
/// `None` when an argument is out of range (`cv` negative or not finite,
/// a sample size of zero, `alpha` or `power` outside (0, 1)).
///
/// # Example
///
/// ```
/// use yardstick_stats::power::detectable_change;
///
/// // 5 % noise, 100 samples a side, α = 0.05, 80 % power: about ±2 %.
/// let d = detectable_change(0.05, 100, 100, 0.05, 0.8).unwrap();
/// assert!((d - 0.0198).abs() < 1e-4);
/// ```
#[must_use]
pub fn detectable_change(
    cv: f64,
    n_old: usize,
    n_new: usize,
    alpha: f64,
    power: f64,
) -> Option<f64> {
    let z = z_sum(alpha, power)?;
    if !(cv >= 0.0 && cv.is_finite()) || n_old == 0 || n_new == 0 {
        return None;
    }
    Some(z * cv * (1.0 / n_old as f64 + 1.0 / n_new as f64).sqrt())
}

/// How many times the current measuring time it takes to bring the
/// detectable change from `detectable` down to `wanted` (both relative),
/// under white noise: `(detectable / wanted)²`. `None` unless both are
/// positive and finite.
#[must_use]
pub fn time_factor(detectable: f64, wanted: f64) -> Option<f64> {
    let ok = |x: f64| x > 0.0 && x.is_finite();
    (ok(detectable) && ok(wanted)).then(|| (detectable / wanted).powi(2))
}

/// `z(1 − α/2) + z(power)`, or `None` outside (0, 1).
fn z_sum(alpha: f64, power: f64) -> Option<f64> {
    let inside = |p: f64| p > 0.0 && p < 1.0;
    (inside(alpha) && inside(power))
        .then(|| normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power))
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy.stats.norm.ppf(0.975) = 1.959963984540054,
    // scipy.stats.norm.ppf(0.8) = 0.8416212335729143,
    // scipy.stats.norm.ppf(0.995) = 2.5758293035489004,
    // scipy.stats.norm.ppf(0.9) = 1.2815515655446004.
    const Z975: f64 = 1.959_963_984_540_054;
    const Z80: f64 = 0.841_621_233_572_914_3;

    #[test]
    fn detectable_change_is_the_textbook_formula() {
        // By hand: (1.95996 + 0.84162) · 0.05 · √(2/100) = 0.0198101.
        let d = detectable_change(0.05, 100, 100, 0.05, 0.8).unwrap();
        let hand = (Z975 + Z80) * 0.05 * (2.0_f64 / 100.0).sqrt();
        assert!((d - hand).abs() < 1e-8, "{d} {hand}");
        assert!((d - 0.019_810_1).abs() < 1e-6);
        // Unequal sizes and stricter settings: (2.57583 + 1.28155) · 0.1 ·
        // √(1/10 + 1/40) = 0.136377.
        let d = detectable_change(0.1, 10, 40, 0.01, 0.9).unwrap();
        let hand = (2.575_829_303_548_900_4 + 1.281_551_565_544_600_4) * 0.1 * 0.125_f64.sqrt();
        assert!((d - hand).abs() < 1e-8, "{d} {hand}");
    }

    #[test]
    fn cohens_table_sample_size_is_reproduced() {
        // Cohen (1988), Table 2.4.1: a two-sided test at α = 0.05 with 80 %
        // power needs n = 64 per group for effect size d = 0.5 (the normal
        // approximation gives 62.8, the t-test's exact answer 63.8). With
        // cv = 1 the detectable change is the effect size d.
        let d64 = detectable_change(1.0, 64, 64, 0.05, 0.8).unwrap();
        assert!((d64 - 0.495).abs() < 0.001, "{d64}");
    }

    #[test]
    fn quartering_the_change_takes_sixteen_times_as_long() {
        assert_eq!(time_factor(0.04, 0.01), Some(16.0));
        assert_eq!(time_factor(0.01, 0.02), Some(0.25));
        assert_eq!(time_factor(0.0, 0.01), None);
        assert_eq!(time_factor(0.01, f64::NAN), None);
    }

    #[test]
    fn out_of_range_arguments_give_none() {
        assert!(detectable_change(-0.1, 10, 10, 0.05, 0.8).is_none());
        assert!(detectable_change(f64::NAN, 10, 10, 0.05, 0.8).is_none());
        assert!(detectable_change(0.1, 0, 10, 0.05, 0.8).is_none());
        assert!(detectable_change(0.1, 10, 10, 0.0, 0.8).is_none());
        assert!(detectable_change(0.1, 10, 10, 0.05, 1.0).is_none());
        assert_eq!(detectable_change(0.0, 10, 10, 0.05, 0.8), Some(0.0));
    }
}

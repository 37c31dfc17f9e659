//! How much outliers inflate the variance, as Haskell's criterion computes
//! it (`outlierVariance` in `Criterion.Analysis`) and rebar3_bench prints it
//! ("Outlier variance: 9.9e-3 (unaffected)").
//!
//! The model (Kalibera and Jones' idea as criterion implements it): with
//! `a` samples of mean `μ` and standard deviation `σ_b`, let `μ_a = μ / a`,
//! `μ_g,min = μ_a / 2` and `σ_g = min(μ_g,min / 4, σ_b / √a)`. The variance
//! explained by `c` outliers is
//! `var_out(c) = ((a − c) / a) · (σ_b² − (a − c) σ_g²)`, and the largest
//! plausible number of outliers at a point `x` is
//! `c_max(x) = ⌊−2 k₀ / (k₁ + √(k₁² − 4 σ_g² k₀))⌋` with
//! `d = (μ_a − x)²`, `k₀ = −a² d`, `k₁ = σ_b² − a σ_g² + a d`. The result is
//! `min(var_out(1), var_out(min(c_max(0), c_max(μ_g,min)))) / σ_b²`.
//!
//! criterion passes the number of samples as `a` and the mean and standard
//! deviation of the samples; [`outlier_variance`] takes the same three
//! numbers.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::{outlier_variance, OutlierEffect};
//!
//! let ov = outlier_variance(100.0, 0.5, 100.0);
//! assert_eq!(ov.effect, OutlierEffect::Unaffected);
//! assert_eq!(outlier_variance(100.0, 0.0, 100.0).fraction, 0.0);
//! ```

/// How strongly outliers inflate the variance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutlierEffect {
    /// Less than 1 % of the variance is due to outliers.
    Unaffected,
    /// Less than 10 %.
    Slight,
    /// Less than 50 %.
    Moderate,
    /// 50 % or more.
    Severe,
}

impl OutlierEffect {
    /// The class for a fraction of the variance.
    #[must_use]
    pub fn of(fraction: f64) -> OutlierEffect {
        if fraction < 0.01 {
            OutlierEffect::Unaffected
        } else if fraction < 0.1 {
            OutlierEffect::Slight
        } else if fraction < 0.5 {
            OutlierEffect::Moderate
        } else {
            OutlierEffect::Severe
        }
    }

    /// The lower-case word rebar3_bench prints: `unaffected`, `slight`,
    /// `moderate` or `severe`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            OutlierEffect::Unaffected => "unaffected",
            OutlierEffect::Slight => "slight",
            OutlierEffect::Moderate => "moderate",
            OutlierEffect::Severe => "severe",
        }
    }
}

/// The fraction of the variance explained by outliers, and its class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutlierVariance {
    /// The fraction (criterion's `ovFraction`).
    pub fraction: f64,
    /// Its class.
    pub effect: OutlierEffect,
}

/// The outlier variance of `a` samples with the given `mean` and `std_dev`.
///
/// No spread (`std_dev` 0), a non-finite input or `a < 1` gives fraction 0,
/// [`OutlierEffect::Unaffected`] — never NaN.
#[must_use]
pub fn outlier_variance(mean: f64, std_dev: f64, a: f64) -> OutlierVariance {
    let unaffected = OutlierVariance {
        fraction: 0.0,
        effect: OutlierEffect::Unaffected,
    };
    if !(std_dev > 0.0 && std_dev.is_finite() && mean.is_finite() && a >= 1.0 && a.is_finite()) {
        return unaffected;
    }
    let sb2 = std_dev * std_dev;
    let mu_a = mean / a;
    let mu_g_min = mu_a / 2.0;
    let sg = (mu_g_min / 4.0).min(std_dev / a.sqrt());
    let sg2 = sg * sg;
    let var_out = |c: f64| {
        let ac = a - c;
        (ac / a) * (sb2 - ac * sg2)
    };
    let c_max = |x: f64| {
        let k = mu_a - x;
        let d = k * k;
        let ad = a * d;
        let k0 = -a * ad;
        let k1 = sb2 - a * sg2 + ad;
        let det = k1 * k1 - 4.0 * sg2 * k0;
        (-2.0 * k0 / (k1 + det.sqrt())).floor()
    };
    let fraction = var_out(1.0).min(var_out(c_max(0.0).min(c_max(mu_g_min)))) / sb2;
    if fraction.is_nan() {
        return unaffected;
    }
    OutlierVariance {
        fraction,
        effect: OutlierEffect::of(fraction),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_have_criterions_boundaries() {
        assert_eq!(OutlierEffect::of(0.0099), OutlierEffect::Unaffected);
        assert_eq!(OutlierEffect::of(0.01), OutlierEffect::Slight);
        assert_eq!(OutlierEffect::of(0.1), OutlierEffect::Moderate);
        assert_eq!(OutlierEffect::of(0.5), OutlierEffect::Severe);
        assert_eq!(OutlierEffect::Moderate.as_str(), "moderate");
    }

    #[test]
    fn degenerate_inputs_are_unaffected() {
        for (m, s, a) in [(1.0, 0.0, 10.0), (1.0, f64::NAN, 10.0), (1.0, 1.0, 0.0)] {
            let ov = outlier_variance(m, s, a);
            assert_eq!(ov.fraction, 0.0);
            assert_eq!(ov.effect, OutlierEffect::Unaffected);
        }
    }
}

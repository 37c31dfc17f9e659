//! Descriptive statistics of one sample.
//!
//! Every function takes a slice and returns `None` when the statistic is not
//! defined for it (an empty slice; fewer than two values for a variance; a
//! non-positive value for a geometric mean) instead of panicking or returning
//! NaN. Inputs are expected to be finite; NaN in gives NaN (or `None`) out,
//! never a panic.
//!
//! # Conventions
//!
//! * **Quantiles** interpolate linearly between order statistics: R's
//!   type 7, numpy's default `linear` method and Criterion.rs's rule. For
//!   `n` sorted values and `p` in 0..=100 the rank is `h = (n - 1) p / 100`
//!   and the result is `x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋])`.
//! * **Variance** uses the `n − 1` denominator and the corrected two-pass
//!   algorithm, so values near 1e9 with a spread of 1e-3 keep their variance.
//! * **MAD** is the median absolute deviation around the median, scaled by
//!   1.4826 (an f64 constant) so that it estimates the standard deviation of
//!   normal data, as Criterion.rs does.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::univariate as u;
//!
//! let xs = [3.0, 1.0, 4.0, 1.0, 5.0];
//! assert_eq!(u::mean(&xs), Some(2.8));
//! assert_eq!(u::median(&xs), Some(3.0));
//! assert_eq!(u::percentile(&xs, 25.0), Some(1.0));
//! assert_eq!(u::min(&xs), Some(1.0));
//! assert_eq!(u::mad(&[]), None);
//! ```

/// The factor that turns a median absolute deviation into an estimate of the
/// standard deviation of normally distributed data (1 / Φ⁻¹(3/4), rounded as
/// Criterion.rs and R round it).
pub const MAD_SCALE: f64 = 1.4826;

/// The arithmetic mean, or `None` for an empty slice.
#[must_use]
pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        None
    } else {
        Some(mean_unchecked(xs))
    }
}

/// Mean of a non-empty slice.
#[inline]
pub(crate) fn mean_unchecked(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The sample variance (denominator `n − 1`), or `None` for fewer than two
/// values.
///
/// Computed by the corrected two-pass algorithm (Chan, Golub and LeVeque):
/// `(Σd² − (Σd)²/n) / (n − 1)` with `d = x − mean`; the second term removes
/// the rounding error of the mean.
#[must_use]
pub fn variance(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        None
    } else {
        Some(variance_with_mean(xs, mean_unchecked(xs)))
    }
}

/// Sample variance of a slice of at least two values, around its `mean`.
#[inline]
pub(crate) fn variance_with_mean(xs: &[f64], mean: f64) -> f64 {
    let (mut ss, mut s) = (0.0, 0.0);
    for &x in xs {
        let d = x - mean;
        ss += d * d;
        s += d;
    }
    let n = xs.len() as f64;
    ((ss - s * s / n) / (n - 1.0)).max(0.0)
}

/// The sample standard deviation (square root of [`variance`]), or `None`
/// for fewer than two values.
#[must_use]
pub fn std_dev(xs: &[f64]) -> Option<f64> {
    variance(xs).map(f64::sqrt)
}

/// The median (the 50th percentile, so the mean of the two middle values
/// when the length is even), or `None` for an empty slice. Runs in linear
/// expected time.
#[must_use]
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut buf = xs.to_vec();
    Some(median_in_place(&mut buf))
}

/// The median of a non-empty buffer, reordering it (linear expected time).
#[inline]
pub(crate) fn median_in_place(buf: &mut [f64]) -> f64 {
    let n = buf.len();
    let mid = n / 2;
    let (left, m, _) = buf.select_nth_unstable_by(mid, f64::total_cmp);
    let upper = *m;
    if n % 2 == 1 {
        upper
    } else {
        let lower = left.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // Average written so that equal halves give exactly that value.
        lower + (upper - lower) / 2.0
    }
}

/// The median absolute deviation around the median, scaled by
/// [`MAD_SCALE`], or `None` for an empty slice.
#[must_use]
pub fn mad(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut buf = xs.to_vec();
    let med = median_in_place(&mut buf);
    Some(mad_in_place(&mut buf, med))
}

/// Scaled MAD of a non-empty buffer around `median`, overwriting it.
#[inline]
pub(crate) fn mad_in_place(buf: &mut [f64], median: f64) -> f64 {
    for x in buf.iter_mut() {
        *x = (*x - median).abs();
    }
    MAD_SCALE * median_in_place(buf)
}

/// The `p`-th percentile (`p` in `0.0..=100.0`) by linear interpolation
/// (R type 7), or `None` for an empty slice or a `p` outside the range.
///
/// Sorts a copy of the data; to take several percentiles of the same data,
/// sort once and use [`percentile_of_sorted`].
#[must_use]
pub fn percentile(xs: &[f64], p: f64) -> Option<f64> {
    if xs.is_empty() || !(0.0..=100.0).contains(&p) {
        return None;
    }
    let mut buf = xs.to_vec();
    buf.sort_unstable_by(f64::total_cmp);
    percentile_of_sorted(&buf, p)
}

/// The `p`-th percentile of data already sorted in ascending order, by
/// linear interpolation (R type 7); `None` for an empty slice or a `p`
/// outside `0.0..=100.0`.
#[must_use]
pub fn percentile_of_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=100.0).contains(&p) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * p / 100.0;
    let lo = h.floor();
    // h is in 0..=len-1, so the cast is exact and in range.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = lo as usize;
    let frac = h - lo;
    Some(if frac == 0.0 || i + 1 >= sorted.len() {
        sorted[i]
    } else {
        lerp(sorted[i], sorted[i + 1], frac)
    })
}

/// Linear interpolation as numpy writes it (exact at both ends).
#[inline]
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let d = b - a;
    if t < 0.5 {
        a + d * t
    } else {
        b - d * (1.0 - t)
    }
}

/// The `p`-th percentile (`p` in `0..=100`) by the nearest-rank rule: the
/// smallest value with at least `p` % of the values at or below it,
/// `sorted[ceil(p/100 · n) − 1]` (the minimum for `p = 0`).
///
/// This is rebar3_bench's (eministat's) rule, used only in its compatible
/// output; everything else uses [`percentile`] (R type 7). `None` for an
/// empty slice, NaN or `p` outside `0..=100`.
///
/// The example is the nearest-rank worked example of Wikipedia's
/// "Percentile" article.
///
/// ```
/// use yardstick_stats::univariate::percentile_nearest_rank;
/// let xs = [15.0, 20.0, 35.0, 40.0, 50.0];
/// assert_eq!(percentile_nearest_rank(&xs, 30.0), Some(20.0));
/// assert_eq!(percentile_nearest_rank(&xs, 40.0), Some(20.0));
/// assert_eq!(percentile_nearest_rank(&xs, 50.0), Some(35.0));
/// assert_eq!(percentile_nearest_rank(&xs, 100.0), Some(50.0));
/// ```
#[must_use]
pub fn percentile_nearest_rank(xs: &[f64], p: f64) -> Option<f64> {
    if xs.is_empty() || !(0.0..=100.0).contains(&p) || xs.iter().any(|x| x.is_nan()) {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.max(1) - 1])
}

/// The first quartile, the median and the third quartile (the 25th, 50th
/// and 75th percentiles, type 7), or `None` for an empty slice.
#[must_use]
pub fn quartiles(xs: &[f64]) -> Option<(f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let mut buf = xs.to_vec();
    buf.sort_unstable_by(f64::total_cmp);
    Some(quartiles_of_sorted(&buf))
}

/// Quartiles of sorted, non-empty data.
pub(crate) fn quartiles_of_sorted(sorted: &[f64]) -> (f64, f64, f64) {
    let q = |p| percentile_of_sorted(sorted, p).unwrap_or(f64::NAN);
    (q(25.0), q(50.0), q(75.0))
}

/// The smallest value, or `None` for an empty slice.
#[must_use]
pub fn min(xs: &[f64]) -> Option<f64> {
    xs.iter().copied().reduce(f64::min)
}

/// The largest value, or `None` for an empty slice.
#[must_use]
pub fn max(xs: &[f64]) -> Option<f64> {
    xs.iter().copied().reduce(f64::max)
}

/// The geometric mean `exp(mean(ln x))`, or `None` for an empty slice or
/// when a value is zero or negative.
#[must_use]
pub fn geometric_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|&x| x.is_nan() || x <= 0.0) {
        return None;
    }
    let logs = xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64;
    Some(logs.exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_statistics_are_none() {
        assert_eq!(mean(&[]), None);
        assert_eq!(variance(&[1.0]), None);
        assert_eq!(std_dev(&[]), None);
        assert_eq!(median(&[]), None);
        assert_eq!(percentile(&[1.0], 101.0), None);
        assert_eq!(percentile(&[1.0], -0.1), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
        assert_eq!(quartiles(&[]), None);
        assert_eq!(min(&[]), None);
    }

    #[test]
    fn single_value() {
        assert_eq!(median(&[4.0]), Some(4.0));
        assert_eq!(percentile(&[4.0], 37.0), Some(4.0));
        assert_eq!(mad(&[4.0]), Some(0.0));
    }

    #[test]
    fn even_median_is_midpoint() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn variance_survives_large_offset() {
        // Spread 1e-3 around 1e9: the naive Σx² − n·mean² formula returns 0
        // or garbage here.
        let xs: Vec<f64> = (0..100).map(|i| 1e9 + f64::from(i % 2) * 1e-3).collect();
        let v = variance(&xs).unwrap();
        let exact = 0.25e-6 * 100.0 / 99.0;
        assert!((v / exact - 1.0).abs() < 1e-3, "{v} vs {exact}");
    }
}

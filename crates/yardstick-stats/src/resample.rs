//! Resamples represented as multiplicities over sorted data.
//!
//! A bootstrap resample of `n` values drawn with replacement from data
//! `x[0..n]` is the multiset "value `x[i]` taken `c[i]` times". When the
//! data are sorted once up front, every order statistic of the resample —
//! the median, and the median of absolute deviations around it — is a linear
//! walk over the counts, with no comparisons and no sorting per resample.
//! This is what makes 100,000 resamples of a benchmark cheap.

use crate::rng::Rng;

/// Fills `counts` (one slot per source value, zeroed first) with the
/// multiplicities of `draws` values drawn uniformly with replacement.
#[inline]
pub(crate) fn draw_counts(rng: &mut Rng, counts: &mut [u32], draws: usize) {
    counts.fill(0);
    let n = counts.len();
    match u32::try_from(n) {
        Ok(n32) => {
            for _ in 0..draws / 2 {
                let (a, b) = rng.below_u32_pair(n32);
                counts[a as usize] += 1;
                counts[b as usize] += 1;
            }
            if draws % 2 == 1 {
                counts[rng.index(n)] += 1;
            }
        }
        Err(_) => {
            for _ in 0..draws {
                counts[rng.index(n)] += 1;
            }
        }
    }
}

/// Mean of a resample of `m` values (`m` as a float) given by `counts`
/// over `sorted`.
#[inline]
pub(crate) fn mean(sorted: &[f64], counts: &[u32], m: f64) -> f64 {
    let mut sum = 0.0;
    for (&x, &c) in sorted.iter().zip(counts) {
        sum += f64::from(c) * x;
    }
    sum / m
}

/// The values at ranks `r` and `r + 1` (0-based) of the resample given by
/// `counts` over ascending `sorted`; the second is the first when `r` is the
/// last rank.
///
/// Zero counts need no test: they leave the running total unchanged, so a
/// rank is never crossed at them. The only branch is the loop exit, which
/// the processor predicts (a test for zero counts would be mispredicted a
/// third of the time).
#[inline]
fn ranks_pair(sorted: &[f64], counts: &[u32], r: usize) -> (f64, f64) {
    let n = counts.len();
    let mut i = 0;
    let mut cum = counts[0] as usize;
    while cum <= r && i + 1 < n {
        i += 1;
        cum += counts[i] as usize;
    }
    let first = sorted[i];
    while cum <= r + 1 && i + 1 < n {
        i += 1;
        cum += counts[i] as usize;
    }
    (first, sorted[i])
}

/// Median (type 7) of a resample of `m` values given by `counts` over
/// ascending `sorted`.
#[inline]
pub(crate) fn median(sorted: &[f64], counts: &[u32], m: usize) -> f64 {
    if m % 2 == 1 {
        ranks_pair(sorted, counts, m / 2).0
    } else {
        let (a, b) = ranks_pair(sorted, counts, m / 2 - 1);
        a + (b - a) / 2.0
    }
}

/// Median of `|x − center|` over a resample of `m` values given by
/// `counts` over ascending `sorted` (unscaled).
#[inline]
pub(crate) fn median_abs_dev(sorted: &[f64], counts: &[u32], m: usize, center: f64) -> f64 {
    // Deviations grow leftwards from the split and rightwards from it, so a
    // merge of the two runs visits them in ascending order. The merge step
    // is written with selects rather than branches: which side comes next
    // is a coin toss the branch predictor cannot learn.
    let n = sorted.len();
    let split = sorted.partition_point(|&x| x < center);
    let (mut l, mut r) = (split, split); // left run is sorted[..l], reversed
    let (lo_rank, hi_rank) = if m % 2 == 1 {
        (m / 2, m / 2)
    } else {
        (m / 2 - 1, m / 2)
    };
    let mut next = || {
        let (dl, cl) = if l > 0 {
            (center - sorted[l - 1], counts[l - 1])
        } else {
            (f64::INFINITY, 0)
        };
        let (dr, cr) = if r < n {
            (sorted[r] - center, counts[r])
        } else {
            (f64::INFINITY, 0)
        };
        let left = dl <= dr;
        l -= usize::from(left);
        r += usize::from(!left);
        if left {
            (dl, cl)
        } else {
            (dr, cr)
        }
    };
    let mut cum = 0usize;
    let mut lo = 0.0;
    while cum <= lo_rank {
        let (d, c) = next();
        if d == f64::INFINITY {
            return lo;
        }
        cum += c as usize;
        lo = d;
    }
    let mut hi = lo;
    while cum <= hi_rank {
        let (d, c) = next();
        if d == f64::INFINITY {
            break;
        }
        cum += c as usize;
        hi = d;
    }
    lo + (hi - lo) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::univariate;

    /// Expands counts into the resample itself.
    fn expand(sorted: &[f64], counts: &[u32]) -> Vec<f64> {
        sorted
            .iter()
            .zip(counts)
            .flat_map(|(&x, &c)| std::iter::repeat_n(x, c as usize))
            .collect()
    }

    #[test]
    fn walks_agree_with_direct_statistics() {
        let mut rng = Rng::new(11);
        for n in [1usize, 2, 3, 4, 5, 10, 11, 50, 101] {
            let mut sorted: Vec<f64> = (0..n).map(|_| (rng.next_f64() * 8.0).floor()).collect();
            sorted.sort_unstable_by(f64::total_cmp);
            let mut counts = vec![0; n];
            for _ in 0..200 {
                draw_counts(&mut rng, &mut counts, n);
                let sample = expand(&sorted, &counts);
                let med = univariate::median(&sample).unwrap();
                assert_eq!(median(&sorted, &counts, n), med, "n={n} {sample:?}");
                let mad = univariate::mad(&sample).unwrap() / univariate::MAD_SCALE;
                let got = median_abs_dev(&sorted, &counts, n, med);
                assert!(
                    (got - mad).abs() <= 1e-12 * mad.abs(),
                    "n={n} {got} {mad} {sample:?}"
                );
            }
        }
    }
}

//! Property tests of invariants: intervals contain their point estimates,
//! results do not depend on the order of the samples, and they scale with
//! the unit of measurement.

use proptest::prelude::*;
use yardstick_stats::distributions::{t_cdf, t_quantile};
use yardstick_stats::hypothesis::{mann_whitney_u, welch};
use yardstick_stats::univariate as u;
use yardstick_stats::{
    classify, compare, estimates, BootstrapConfig, ChangeConfig, Estimate, Estimates, OutlierClass,
};

const CFG: BootstrapConfig = BootstrapConfig {
    nresamples: 2_000,
    confidence: 0.95,
    seed: 3,
};

/// Benchmark-like samples: linear iteration counts and per-iteration times
/// with noise and the odd outlier.
fn samples() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (10usize..60).prop_flat_map(|n| {
        proptest::collection::vec((1.0f64..2.0, prop::bool::weighted(0.05)), n).prop_map(
            move |noise| {
                let iters: Vec<f64> = (1..=noise.len()).map(|i| (i * 3) as f64).collect();
                let values = iters
                    .iter()
                    .zip(&noise)
                    .map(|(n, (e, outlier))| n * 100.0 * e * if *outlier { 3.0 } else { 1.0 })
                    .collect();
                (iters, values)
            },
        )
    })
}

fn all(e: &Estimates) -> Vec<(&'static str, Estimate)> {
    let mut v = vec![
        ("mean", e.mean),
        ("median", e.median),
        ("std_dev", e.std_dev),
        ("mad", e.mad),
    ];
    if let Some(s) = e.slope {
        v.push(("slope", s));
    }
    v
}

/// A permutation of `0..n` from a proptest-chosen key.
fn permuted<T: Clone>(xs: &[T], keys: &[u64]) -> Vec<T> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by_key(|&i| keys[i % keys.len()].wrapping_mul(i as u64 + 1) ^ i as u64);
    idx.into_iter().map(|i| xs[i].clone()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn intervals_contain_their_point_estimates((iters, values) in samples(), seed in any::<u64>()) {
        let e = estimates(&iters, &values, true, &BootstrapConfig { seed, ..CFG }).unwrap();
        for (name, est) in all(&e) {
            prop_assert!(est.lower <= est.upper, "{name}: {est:?}");
            prop_assert!(est.contains(est.point), "{name}: {est:?}");
            prop_assert!(est.standard_error >= 0.0);
        }
    }

    #[test]
    fn estimates_do_not_depend_on_sample_order((iters, values) in samples(), keys in proptest::collection::vec(any::<u64>(), 1..8)) {
        let pairs: Vec<(f64, f64)> = iters.iter().copied().zip(values.iter().copied()).collect();
        let shuffled = permuted(&pairs, &keys);
        let (si, sv): (Vec<f64>, Vec<f64>) = shuffled.into_iter().unzip();
        let a = estimates(&iters, &values, true, &CFG).unwrap();
        let b = estimates(&si, &sv, true, &CFG).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn estimates_scale_with_the_unit((iters, values) in samples()) {
        let a = estimates(&iters, &values, true, &CFG).unwrap();
        let scaled: Vec<f64> = values.iter().map(|v| v * 1000.0).collect();
        let b = estimates(&iters, &scaled, true, &CFG).unwrap();
        for ((name, x), (_, y)) in all(&a).into_iter().zip(all(&b)) {
            for (p, q) in [(x.point, y.point), (x.lower, y.lower), (x.upper, y.upper), (x.standard_error, y.standard_error)] {
                prop_assert!((q - 1000.0 * p).abs() <= 1e-9 * (1000.0 * p).abs().max(1e-300), "{name}: {p} vs {q}");
            }
        }
        prop_assert!((a.r2.unwrap() - b.r2.unwrap()).abs() < 1e-9);
    }

    #[test]
    fn comparison_is_order_invariant_and_unit_free(
        (_, old) in samples(), (_, new) in samples(), keys in proptest::collection::vec(any::<u64>(), 1..8)
    ) {
        let cfg = ChangeConfig { nresamples: 2_000, ..ChangeConfig::default() };
        let a = compare(&old, &new, &cfg).unwrap();
        let b = compare(&permuted(&old, &keys), &permuted(&new, &keys), &cfg).unwrap();
        prop_assert_eq!(a, b);
        let k = |xs: &[f64]| xs.iter().map(|x| x * 1000.0).collect::<Vec<_>>();
        let c = compare(&k(&old), &k(&new), &cfg).unwrap();
        prop_assert!((a.mean.point - c.mean.point).abs() < 1e-9);
        prop_assert!((a.mean.lower - c.mean.lower).abs() < 1e-9);
        prop_assert!((a.median.upper - c.median.upper).abs() < 1e-9);
        prop_assert!((a.p_value - c.p_value).abs() < 1e-9);
        prop_assert_eq!(a.verdict, c.verdict);
        prop_assert!(a.mean.contains(a.mean.point));
    }

    #[test]
    fn tukey_labels_agree_with_fences(xs in proptest::collection::vec(-1e6f64..1e6, 1..80)) {
        let t = classify(&xs);
        let [ls, lm, hm, hs] = t.fences.as_array();
        prop_assert!(ls <= lm && lm <= hm && hm <= hs);
        for (&x, &l) in xs.iter().zip(&t.labels) {
            let expected = if x < ls { OutlierClass::LowSevere } else if x > hs { OutlierClass::HighSevere }
                else if x < lm { OutlierClass::LowMild } else if x > hm { OutlierClass::HighMild }
                else { OutlierClass::NotAnOutlier };
            prop_assert_eq!(l, expected);
        }
        prop_assert_eq!(t.counts.total(), t.labels.iter().filter(|l| l.is_outlier()).count());
    }

    #[test]
    fn percentiles_are_monotone_and_bounded(xs in proptest::collection::vec(-1e6f64..1e6, 1..50), p in 0.0f64..100.0, q in 0.0f64..100.0) {
        let (lo, hi) = if p <= q { (p, q) } else { (q, p) };
        let a = u::percentile(&xs, lo).unwrap();
        let b = u::percentile(&xs, hi).unwrap();
        prop_assert!(a <= b);
        prop_assert!(u::min(&xs).unwrap() <= a && b <= u::max(&xs).unwrap());
    }

    #[test]
    fn two_sample_tests_are_antisymmetric(
        x in proptest::collection::vec(0.0f64..100.0, 2..30),
        y in proptest::collection::vec(0.0f64..100.0, 2..30),
    ) {
        let (a, b) = (welch(&x, &y).unwrap(), welch(&y, &x).unwrap());
        prop_assert_eq!(a.t, -b.t);
        prop_assert_eq!(a.p, b.p);
        let (m, n) = (mann_whitney_u(&x, &y).unwrap(), mann_whitney_u(&y, &x).unwrap());
        prop_assert!((m.u + n.u - (x.len() * y.len()) as f64).abs() < 1e-9);
        prop_assert!((m.p - n.p).abs() < 1e-12);
        prop_assert!((0.0..=1.0).contains(&m.p));
    }

    #[test]
    fn t_quantile_inverts_the_cdf(p in 1e-6f64..0.999_999, df in 0.5f64..500.0) {
        let q = t_quantile(p, df);
        let back = t_cdf(q, df);
        prop_assert!((back - p).abs() <= 1e-12 * p.min(1.0 - p).max(1e-3), "{p} {df} {q} {back}");
    }
}

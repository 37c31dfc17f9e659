//! Every deterministic statistic against values computed by numpy/scipy (or
//! a direct transcription of the published formula) in
//! `tests/reference/generate.py`; bootstrap results against a
//! 200,000-resample numpy reference from the same script.
//!
//! To regenerate: `python3 tests/reference/generate.py > tests/reference/values.rs`.

#[path = "reference/values.rs"]
mod values;

use values::*;
use yardstick_stats::complexity::{big_o_with, ComplexityFn};
use yardstick_stats::distributions::{normal_cdf, normal_quantile, t_quantile, t_sf};
use yardstick_stats::hypothesis::{mann_whitney_u, student_ci, welch, MannWhitneyMethod};
use yardstick_stats::kde::{normal_reference_bandwidth, Kde};
use yardstick_stats::nanobench::err_fraction;
use yardstick_stats::regression::{ols, through_origin};
use yardstick_stats::tasty::{predict, predict_perturbed};
use yardstick_stats::univariate as u;
use yardstick_stats::{
    classify, compare, estimates, outlier_variance, BootstrapConfig, ChangeConfig, Estimate,
    OutlierEffect,
};

const SCRIPT: &str = "tests/reference/generate.py";
const REL: f64 = 1e-9;

/// Asserts `got` is within `rel` (relative) of `want`, naming the source.
#[track_caller]
fn close(what: &str, got: f64, want: f64, rel: f64) {
    let tol = rel * want.abs().max(f64::MIN_POSITIVE);
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got:e}, expected {want:e} (from {SCRIPT}), off by {:e} relative",
        ((got - want) / want).abs()
    );
}

#[test]
fn descriptive_statistics_match_numpy() {
    for (p, want) in PCTS.iter().zip(A_PERCENTILES) {
        close(
            &format!("np.percentile(A, {p})"),
            u::percentile(&A, *p).unwrap(),
            want,
            REL,
        );
    }
    close("np.mean", u::mean(&A).unwrap(), A_MEAN, REL);
    close("np.median", u::median(&A).unwrap(), A_MEDIAN, REL);
    close("np.var(ddof=1)", u::variance(&A).unwrap(), A_VAR, REL);
    close("np.std(ddof=1)", u::std_dev(&A).unwrap(), A_STD, REL);
    close(
        "median_abs_deviation(scale=1/1.4826)",
        u::mad(&A).unwrap(),
        A_MAD,
        REL,
    );
    close("median_abs_deviation(B)", u::mad(&B).unwrap(), B_MAD, REL);
    close(
        "scipy.stats.gmean",
        u::geometric_mean(&A).unwrap(),
        A_GMEAN,
        REL,
    );
    close("min", u::min(&A).unwrap(), A_MIN, 0.0);
    close("max", u::max(&A).unwrap(), A_MAX, 0.0);
    let (q1, q2, q3) = u::quartiles(&A).unwrap();
    close("q1", q1, A_PERCENTILES[3], REL);
    close("q2", q2, A_PERCENTILES[5], REL);
    close("q3", q3, A_PERCENTILES[7], REL);
}

#[test]
fn variance_near_1e9_matches_extended_precision_numpy() {
    // The spread (1e-3) is 1e-12 of the values; a one-pass formula returns
    // 0 or noise. Representation error of the inputs limits agreement to
    // about 1e-5 relative (values near 1e9 carry ~1e-7 absolute error).
    close(
        "np.std(longdouble)",
        u::std_dev(&BIG).unwrap(),
        BIG_STD,
        1e-4,
    );
}

#[test]
fn tukey_fences_match_numpy_quartiles() {
    let t = classify(&A);
    for (got, want) in t.fences.as_array().iter().zip(A_FENCES) {
        close("Tukey fence", *got, want, REL);
    }
    let c = t.counts;
    assert_eq!(
        [c.low_severe, c.low_mild, c.high_mild, c.high_severe],
        A_TUKEY_COUNTS,
        "counts from {SCRIPT}"
    );
}

#[test]
fn regression_matches_numpy_lstsq_and_polyfit() {
    let f = through_origin(&LIN_X, &LIN_Y).unwrap();
    close("lstsq slope through origin", f.slope, LIN_ORIGIN_SLOPE, REL);
    close(
        "centred R² through origin",
        f.r2,
        LIN_ORIGIN_R2_CENTRED,
        REL,
    );
    let o = ols(&LIN_X, &LIN_Y).unwrap();
    close("polyfit slope", o.slope, LIN_OLS_SLOPE, REL);
    close("polyfit intercept", o.intercept, LIN_OLS_INTERCEPT, REL);
    close("OLS R²", o.r2, LIN_OLS_R2, REL);
}

#[test]
fn distributions_match_scipy() {
    for ((p, df), want) in T_Q_P.iter().zip(T_Q_DF).zip(T_Q) {
        close(
            &format!("stats.t.ppf({p}, {df})"),
            t_quantile(*p, df),
            want,
            REL,
        );
    }
    for ((t, df), want) in T_SF_T.iter().zip(T_SF_DF).zip(T_SF) {
        close(&format!("stats.t.sf({t}, {df})"), t_sf(*t, df), want, REL);
    }
    for (z, want) in NORM_Z.iter().zip(NORM_CDF) {
        close(&format!("stats.norm.cdf({z})"), normal_cdf(*z), want, REL);
    }
    for (p, want) in NORM_P.iter().zip(NORM_Q) {
        if want == 0.0 {
            assert_eq!(normal_quantile(*p), 0.0);
        } else {
            close(
                &format!("stats.norm.ppf({p})"),
                normal_quantile(*p),
                want,
                REL,
            );
        }
    }
}

#[test]
fn welch_matches_scipy_ttest_ind() {
    let w = welch(&B, &A).unwrap();
    close("ttest_ind(B, A).statistic", w.t, WELCH_BA[0], REL);
    close("ttest_ind(B, A).df", w.df, WELCH_BA[1], REL);
    close("ttest_ind(B, A).pvalue", w.p, WELCH_BA[2], REL);
    let w = welch(&SMALL_X, &SMALL_Y).unwrap();
    close("ttest_ind(small).statistic", w.t, WELCH_SMALL[0], REL);
    close("ttest_ind(small).df", w.df, WELCH_SMALL[1], REL);
    close("ttest_ind(small).pvalue", w.p, WELCH_SMALL[2], REL);
}

#[test]
fn student_interval_matches_ministat_formula_and_scipy() {
    for (c, want) in STUDENT_LEVELS.iter().zip(STUDENT_HALF) {
        let ci = student_ci(&B, &A, *c).unwrap();
        close("pooled s", ci.pooled_s, STUDENT_POOLED_S, REL);
        close("difference of means", ci.diff, STUDENT_DIFF, REL);
        close(&format!("half width at {c}"), ci.half_width, want, REL);
    }
    let ci = student_ci(&B, &A, 0.95).unwrap();
    close(
        "scipy CI low",
        ci.diff - ci.half_width,
        STUDENT_SCIPY_CI95[0],
        REL,
    );
    close(
        "scipy CI high",
        ci.diff + ci.half_width,
        STUDENT_SCIPY_CI95[1],
        REL,
    );
    assert!(ci.is_significant());
}

#[test]
fn mann_whitney_matches_scipy() {
    type Case<'a> = (&'a [f64], &'a [f64], [f64; 2], MannWhitneyMethod);
    let cases: [Case<'_>; 4] = [
        (&B, &A, MWU_BA, MannWhitneyMethod::Asymptotic),
        (&SMALL_X, &SMALL_Y, MWU_SMALL, MannWhitneyMethod::Exact),
        (&EIGHT, &TWENTY, MWU_EIGHT_TWENTY, MannWhitneyMethod::Exact),
        (&TIES_X, &TIES_Y, MWU_TIES, MannWhitneyMethod::Asymptotic),
    ];
    for (x, y, [u_want, p_want], method) in cases {
        let m = mann_whitney_u(x, y).unwrap();
        close("mannwhitneyu statistic", m.u, u_want, REL);
        close("mannwhitneyu pvalue", m.p, p_want, REL);
        assert_eq!(m.method, method);
    }
}

#[test]
fn outlier_variance_matches_haskell_formula() {
    for i in 0..OV_FRACTION.len() {
        let ov = outlier_variance(OV_MEAN[i], OV_SD[i], OV_A[i]);
        close("outlierVariance", ov.fraction, OV_FRACTION[i], REL);
    }
    // rebar3_bench's README prints "9.90000e-3 (unaffected)" and
    // "0.316545 (moderate)".
    assert_eq!(
        outlier_variance(50.0, 0.01, 100.0).effect,
        OutlierEffect::Unaffected
    );
    assert_eq!(
        outlier_variance(135.0, 5.0, 100.0).effect,
        OutlierEffect::Moderate
    );
}

#[test]
fn kde_matches_hand_formula_in_numpy() {
    close(
        "bandwidth",
        normal_reference_bandwidth(&A).unwrap(),
        KDE_BANDWIDTH,
        REL,
    );
    let k = Kde::new(&A).unwrap();
    for (got, want) in k.evaluate(&KDE_GRID).into_iter().zip(KDE_DENSITY) {
        close("density", got, want, REL);
    }
}

#[test]
fn nanobench_err_matches_its_formula_in_numpy() {
    close("MdAPE(A)", err_fraction(&A).unwrap(), ERR_A, REL);
    close("MdAPE(B)", err_fraction(&B).unwrap(), ERR_B, REL);
}

#[test]
fn big_o_matches_numpy_lstsq() {
    let sqrt: ComplexityFn<'_> = &|n: f64| n.sqrt();
    let fits = big_o_with(&BIGO_N, &BIGO_Y, &[("O(sqrt n)", sqrt)]).unwrap();
    let names: Vec<&str> = fits.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, BIGO_NAMES, "order from {SCRIPT}");
    for (i, fit) in fits.iter().enumerate() {
        close(
            &format!("{} coefficient", fit.name),
            fit.coefficient,
            BIGO_COEF[i],
            REL,
        );
        close(
            &format!("{} rms", fit.name),
            fit.normalized_rms,
            BIGO_RMS[i],
            REL,
        );
    }
}

#[test]
fn tasty_predict_matches_its_formula() {
    for i in 0..TASTY_N.len() {
        let p = predict(TASTY_N[i], TASTY_T1[i], TASTY_T2[i]);
        close("predict mean", p.mean, TASTY_MEAN[i], REL);
        if TASTY_SD[i] == 0.0 {
            assert_eq!(p.std_dev, 0.0);
        } else {
            close("predict stdev", p.std_dev, TASTY_SD[i], REL);
        }
        let q = predict_perturbed(TASTY_N[i], TASTY_T1[i], TASTY_T2[i], TASTY_PREC[i]);
        close(
            "predictPerturbed stdev",
            q.std_dev,
            TASTY_SD_PERTURBED[i],
            REL,
        );
    }
}

#[test]
fn precision_half_widths_match_scipy() {
    use yardstick_stats::precision::{mean_relative_half_width, slope_relative_half_width};
    let w = slope_relative_half_width(&LIN_X, &LIN_Y, 0.95).unwrap();
    close("t.ppf(0.975, n-1) * se(b) / b", w, PRECISION_SLOPE_95, REL);
    let w = mean_relative_half_width(&A, 0.90).unwrap();
    close(
        "t.ppf(0.95, n-1) * s / sqrt(n) / mean",
        w,
        PRECISION_MEAN_90,
        REL,
    );
}

/// Bootstrap bounds within 1 % of the estimate of a 200,000-resample
/// reference; standard errors within 3 %.
#[track_caller]
fn within_band(what: &str, got: &Estimate, want: [f64; 4]) {
    close(&format!("{what} point"), got.point, want[0], REL);
    let tol = 0.01 * want[0].abs();
    for (g, w, side) in [(got.lower, want[1], "lower"), (got.upper, want[2], "upper")] {
        assert!(
            (g - w).abs() <= tol,
            "{what} {side} bound {g} vs {w} from {SCRIPT} (tolerance {tol})"
        );
    }
    close(
        &format!("{what} standard error"),
        got.standard_error,
        want[3],
        0.03,
    );
}

#[test]
fn bootstrap_estimates_agree_with_numpy_reference() {
    let cfg = BootstrapConfig {
        nresamples: 100_000,
        confidence: 0.95,
        seed: 11,
    };
    let e = estimates(&BOOT_ITERS, &BOOT_VALUES, true, &cfg).unwrap();
    within_band("mean", &e.mean, BOOT_MEAN);
    within_band("median", &e.median, BOOT_MEDIAN);
    within_band("std_dev", &e.std_dev, BOOT_STD);
    within_band("mad", &e.mad, BOOT_MAD);
    within_band("slope", &e.slope.unwrap(), BOOT_SLOPE);
}

#[test]
fn bootstrap_comparison_agrees_with_numpy_reference() {
    let old: Vec<f64> = BOOT_VALUES
        .iter()
        .zip(BOOT_ITERS)
        .map(|(v, n)| v / n)
        .collect();
    let cfg = ChangeConfig {
        nresamples: 100_000,
        seed: 5,
        ..ChangeConfig::default()
    };
    let c = compare(&old, &BOOT_NEW, &cfg).unwrap();
    close("Welch t", c.t, CHANGE_T, REL);
    assert!(
        (c.p_value - CHANGE_P).abs() < 5e-4,
        "p {} vs {CHANGE_P} from {SCRIPT}",
        c.p_value
    );
    for (what, got, want) in [
        ("mean", c.mean, CHANGE_MEAN),
        ("median", c.median, CHANGE_MEDIAN),
    ] {
        close(&format!("{what} change point"), got.point, want[0], REL);
        // 5 % of the reference interval's width.
        let tol = 0.05 * (want[2] - want[1]);
        assert!(
            (got.lower - want[1]).abs() <= tol && (got.upper - want[2]).abs() <= tol,
            "{what} change [{}, {}] vs [{}, {}] from {SCRIPT}",
            got.lower,
            got.upper,
            want[1],
            want[2]
        );
    }
}

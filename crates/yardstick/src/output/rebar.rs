//! rebar3_bench's statistics block (eministat's layout): percentiles by
//! nearest rank, outliers, outlier variance, the bootstrapped mean and
//! standard deviation, and against a baseline Student's t difference.

use yardstick_stats::hypothesis::student_ci;
use yardstick_stats::outlier_variance;
use yardstick_stats::univariate::{mean, percentile_nearest_rank};

use super::Completed;

/// A value with eministat's units: `133.00ns`, `1.25us`, `3.10ms`, `2.00s`
/// for time; other units as a plain number.
fn value(v: f64, unit: &str) -> String {
    if unit != "ns" {
        return format!("{v:.2}");
    }
    let a = v.abs();
    if a < 1e3 {
        format!("{v:.2}ns")
    } else if a < 1e6 {
        format!("{:.2}us", v / 1e3)
    } else if a < 1e9 {
        format!("{:.2}ms", v / 1e6)
    } else {
        format!("{:.2}s", v / 1e9)
    }
}

/// `(+    1.00ns /  0.4%)`: the change from the baseline's same statistic.
fn delta(new: f64, old: f64, unit: &str) -> String {
    let d = new - old;
    let sign = if d < 0.0 { '-' } else { '+' };
    let pct = if old == 0.0 {
        0.0
    } else {
        (d / old).abs() * 100.0
    };
    format!(" ({sign}{:>10} / {pct:4.1}%)", value(d.abs(), unit))
}

fn line(label: &str, new: f64, old: Option<f64>, unit: &str) -> String {
    let mut s = format!("{:<18}{:>10}", format!("{label}:"), value(new, unit));
    if let Some(old) = old {
        s.push_str(&delta(new, old, unit));
    }
    s
}

/// The block for one benchmark.
pub(crate) fn lines(c: &Completed<'_>, confidence: f64) -> Vec<String> {
    let a = c.analysis;
    let unit = c.unit;
    let xs = &a.averages;
    let old = c.baseline;
    let pct = |data: &[f64], p: f64| percentile_nearest_rank(data, p).unwrap_or(f64::NAN);
    let mut out = vec![
        format!("===> Testing {}", c.title),
        format!(
            "===> Stats for {}",
            if unit == "ns" { "wall_time" } else { unit }
        ),
    ];
    for (label, p) in [
        ("Min", 0.0),
        ("25 percentile", 25.0),
        ("Median", 50.0),
        ("75 percentile", 75.0),
        ("Max", 100.0),
    ] {
        out.push(line(label, pct(xs, p), old.map(|o| pct(o, p)), unit));
    }
    let t = &a.tukey.counts;
    let (lo, hi) = (t.low_severe + t.low_mild, t.high_mild + t.high_severe);
    out.push(format!(
        "Outliers:         Lo: {lo}; Hi: {hi}; Sum: {}",
        lo + hi
    ));
    let e = &a.estimates;
    let ov = outlier_variance(e.mean.point, e.std_dev.point, xs.len() as f64);
    out.push(format!(
        "Outlier variance: {:>10} ({})",
        format!("{:.5e}", ov.fraction),
        ov.effect.as_str()
    ));
    out.push("> Bootstrapped".to_owned());
    let old_mean = old.and_then(mean);
    out.push(line("Mean", e.mean.point, old_mean, unit));
    out.push(line("Std deviation", e.std_dev.point, None, unit));
    if let Some(old) = old {
        out.push("> Relative".to_owned());
        out.extend(difference(xs, old, confidence, unit));
    }
    out
}

/// ministat's "Difference at 95.0 confidence" lines (new − old), or "No
/// difference proven" when the interval contains zero.
fn difference(new: &[f64], old: &[f64], confidence: f64, unit: &str) -> Vec<String> {
    let Ok(ci) = student_ci(new, old, confidence) else {
        return vec!["Difference not computable: too few samples".to_owned()];
    };
    let level = confidence * 100.0;
    if !ci.is_significant() {
        return vec![format!("No difference proven at {level:.1}% confidence")];
    }
    vec![
        format!("Difference at {level:.1} confidence"),
        format!(
            "    {:>8} ± {:>10}",
            value(ci.diff, unit),
            value(ci.half_width, unit)
        ),
        format!(
            "    {:>7.2}%  ± {:>5.2}%",
            ci.relative_diff * 100.0,
            ci.relative_half_width * 100.0
        ),
        format!(" (Student's t, pooled s = {:.5})", ci.pooled_s),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_use_eministats_units() {
        assert_eq!(value(133.0, "ns"), "133.00ns");
        assert_eq!(value(1250.0, "ns"), "1.25us");
        assert_eq!(value(3.1e6, "ns"), "3.10ms");
        assert_eq!(value(2e9, "ns"), "2.00s");
        assert_eq!(value(7.0, "B"), "7.00");
    }

    #[test]
    fn deltas_carry_sign_and_percent() {
        assert_eq!(delta(134.0, 133.0, "ns"), " (+    1.00ns /  0.8%)");
        assert_eq!(delta(133.0, 135.0, "ns"), " (-    2.00ns /  1.5%)");
    }

    #[test]
    fn a_clear_difference_is_reported_with_pooled_s() {
        // Hand calculation: new = old + 10, both with the same spread
        // (s = 1.5811 for 1..=5), so diff = 10 and pooled s = 1.58114.
        let old = [1.0, 2.0, 3.0, 4.0, 5.0];
        let new = [11.0, 12.0, 13.0, 14.0, 15.0];
        let l = difference(&new, &old, 0.95, "ns");
        assert_eq!(l[0], "Difference at 95.0 confidence");
        assert!(l[1].contains("10.00ns"), "{l:?}");
        assert_eq!(l[3], " (Student's t, pooled s = 1.58114)");
        let same = difference(&old, &old, 0.95, "ns");
        assert_eq!(same, ["No difference proven at 95.0% confidence"]);
    }
}

//! rebar3_bench's statistics block (eministat's layout): percentiles by
//! nearest rank, outliers, outlier variance, the bootstrapped mean and
//! standard deviation, and against a baseline Student's t difference.

use yardstick_format::units::TimeUnit;
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
    let u = TimeUnit::for_nanos(v, TimeUnit::Ns);
    format!("{:.2}{}", u.scale(v), u.ascii())
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

/// One parameter's statistics, rebar3_bench's `-p` (`wall_time`, `memory`).
struct Block<'a> {
    parameter: &'a str,
    unit: &'a str,
    /// The values per iteration of each sample.
    xs: &'a [f64],
    /// The baseline's, when compared.
    old: Option<&'a [f64]>,
    outliers: &'a yardstick_stats::OutlierCounts,
    /// The bootstrap's mean and standard deviation.
    mean: f64,
    std_dev: f64,
}

/// The block for one benchmark: the time's, then with `--measure allocs`
/// the allocated bytes' (rebar3_bench's `-p memory`).
pub(crate) fn lines(c: &Completed<'_>, confidence: f64) -> Vec<String> {
    let a = c.analysis;
    let e = &a.estimates;
    let mut out = vec![format!("===> Testing {}", c.title)];
    out.extend(block(
        &Block {
            parameter: if c.unit == "ns" { "wall_time" } else { c.unit },
            unit: c.unit,
            xs: &a.averages,
            old: c.baseline,
            outliers: &a.tukey.counts,
            mean: e.mean.point,
            std_dev: e.std_dev.point,
        },
        confidence,
    ));
    if let Some(memory) = memory(c) {
        out.extend(block(
            &Block {
                parameter: "memory",
                unit: "bytes",
                xs: &memory.xs,
                old: memory.old.as_deref(),
                outliers: &memory.tukey.counts,
                mean: memory.mean,
                std_dev: memory.std_dev,
            },
            confidence,
        ));
    }
    out
}

/// Allocated bytes per iteration, analysed as the time is.
struct Memory {
    xs: Vec<f64>,
    old: Option<Vec<f64>>,
    tukey: yardstick_stats::Tukey,
    mean: f64,
    std_dev: f64,
}

fn memory(c: &Completed<'_>) -> Option<Memory> {
    let r = c
        .metrics
        .iter()
        .find(|r| r.metric == crate::meters::Metric::AllocatedBytes)?;
    let iters = &c.analysis.iters;
    if r.values.len() != iters.len() || r.values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let cfg = yardstick_stats::BootstrapConfig {
        nresamples: 10_000,
        confidence: c.confidence,
        seed: crate::analysis::SEED,
    };
    let e = yardstick_stats::estimates(iters, &r.values, false, &cfg).ok()?;
    let xs: Vec<f64> = r.values.iter().zip(iters).map(|(v, n)| v / n).collect();
    Some(Memory {
        tukey: yardstick_stats::classify(&xs),
        xs,
        old: r.baseline_per_iteration.clone(),
        mean: e.mean.point,
        std_dev: e.std_dev.point,
    })
}

fn block(b: &Block<'_>, confidence: f64) -> Vec<String> {
    let (xs, old, unit) = (b.xs, b.old, b.unit);
    let pct = |data: &[f64], p: f64| percentile_nearest_rank(data, p).unwrap_or(f64::NAN);
    let mut out = vec![format!("===> Stats for {}", b.parameter)];
    for (label, p) in [
        ("Min", 0.0),
        ("25 percentile", 25.0),
        ("Median", 50.0),
        ("75 percentile", 75.0),
        ("Max", 100.0),
    ] {
        out.push(line(label, pct(xs, p), old.map(|o| pct(o, p)), unit));
    }
    let t = b.outliers;
    let (lo, hi) = (t.low_severe + t.low_mild, t.high_mild + t.high_severe);
    out.push(format!(
        "Outliers:         Lo: {lo}; Hi: {hi}; Sum: {}",
        lo + hi
    ));
    let ov = outlier_variance(b.mean, b.std_dev, xs.len() as f64);
    out.push(format!(
        "Outlier variance: {:>10} ({})",
        format!("{:.5e}", ov.fraction),
        ov.effect.as_str()
    ));
    out.push("> Bootstrapped".to_owned());
    let old_mean = old.and_then(mean);
    out.push(line("Mean", b.mean, old_mean, unit));
    out.push(line("Std deviation", b.std_dev, None, unit));
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
    fn allocated_bytes_get_their_own_block_as_rebar3s_memory_parameter() {
        // Five linear samples of 1..5 iterations; allocated bytes per
        // iteration 11..15 against a baseline's 1..5 (the hand-calculated
        // case below: difference 10, pooled s = 1.58114). Nearest-rank
        // percentiles of 11..15: min 11, 25th 12, median 13, 75th 14, max
        // 15; mean 13 and sample standard deviation √2.5 = 1.58. Outlier
        // variance by Criterion's formula, computed apart in Python: 0.3662
        // (moderate). The interval: t(0.975, 8) = 2.306004 (scipy) × 1.58114
        // × √(2/5) = 2.31, 76.87 % of the baseline's mean 3.
        let iters = vec![1.0, 2.0, 3.0, 4.0, 5.0];
        let config = crate::config::BenchmarkConfig {
            nresamples: 100,
            ..Default::default()
        };
        let times: Vec<f64> = iters.iter().map(|n| 100.0 * n).collect();
        let a = crate::analysis::analyse(
            crate::analysis::Samples::in_one_process(
                crate::config::ActualSamplingMode::Linear,
                iters.clone(),
                times,
            ),
            None,
            &config,
            false,
        )
        .unwrap();
        let memory = crate::metered::MetricResult {
            metric: crate::meters::Metric::AllocatedBytes,
            estimate: None,
            peak: None,
            values: iters.iter().map(|n| (10.0 + n) * n).collect(),
            change: None,
            baseline_per_iteration: Some(vec![1.0, 2.0, 3.0, 4.0, 5.0]),
        };
        let metrics = [memory];
        let c = Completed {
            metrics: &metrics,
            ..Completed::for_test("bench_kv:bench_maps()", &a)
        };
        let out = lines(&c, 0.95);
        let at = out
            .iter()
            .position(|l| l == "===> Stats for memory")
            .unwrap();
        assert_eq!(
            out[at + 1..],
            [
                "Min:                   11.00 (+     10.00 / 1000.0%)",
                "25 percentile:         12.00 (+     10.00 / 500.0%)",
                "Median:                13.00 (+     10.00 / 333.3%)",
                "75 percentile:         14.00 (+     10.00 / 250.0%)",
                "Max:                   15.00 (+     10.00 / 200.0%)",
                "Outliers:         Lo: 0; Hi: 0; Sum: 0",
                "Outlier variance: 3.66200e-1 (moderate)",
                "> Bootstrapped",
                "Mean:                  13.00 (+     10.00 / 333.3%)",
                "Std deviation:          1.58",
                "> Relative",
                "Difference at 95.0 confidence",
                "       10.00 ±       2.31",
                "     333.33%  ± 76.87%",
                " (Student's t, pooled s = 1.58114)",
            ]
        );
        // The time's block comes first, as before.
        assert_eq!(out[1], "===> Stats for wall_time");
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

//! tasty-bench's output: `name: OK (2.13s)` then `63 ns ± 3.4 ns`, with
//! its comparison against a baseline (`8% more than baseline`).

use super::Completed;

/// A time in picoseconds the way tasty-bench prints it: three significant
/// figures at most, the unit switching at 995 so `999 ns` reads `1.0 μs`.
pub(crate) fn picos(t: f64) -> String {
    if t < 995.0 {
        format!("{t:3.0} ps")
    } else if t < 995e1 {
        format!("{:3.1} ns", t / 1e3)
    } else if t < 995e3 {
        format!("{:3.0} ns", t / 1e3)
    } else if t < 995e4 {
        format!("{:3.1} μs", t / 1e6)
    } else if t < 995e6 {
        format!("{:3.0} μs", t / 1e6)
    } else if t < 995e7 {
        format!("{:3.1} ms", t / 1e9)
    } else if t < 995e9 {
        format!("{:3.0} ms", t / 1e9)
    } else {
        format!("{:4.2} s", t / 1e12)
    }
}

/// tasty-bench's comparison: the change truncated to whole percent.
pub(crate) fn against_baseline(ratio: f64) -> String {
    let percent = ((ratio - 1.0) * 100.0).trunc() as i64;
    match percent.cmp(&0) {
        std::cmp::Ordering::Less => format!("{:2}% less than baseline", -percent),
        std::cmp::Ordering::Equal => "same as baseline".to_owned(),
        std::cmp::Ordering::Greater => format!("{percent:2}% more than baseline"),
    }
}

/// Bytes the way tasty-bench prints them (its `showBytes`): three
/// significant figures at most in powers of 1024, so `2.3 KB`, `277 KB`.
pub(crate) fn bytes(b: f64) -> String {
    const K: f64 = 1024.0;
    let (value, unit, decimals) = if b < 1000.0 {
        (b, "B", 0)
    } else if b < 10189.0 {
        (b / K, "KB", 1)
    } else if b < 1_023_488.0 {
        (b / K, "KB", 0)
    } else if b < 10_433_332.0 {
        (b / (K * K), "MB", 1)
    } else if b < 1_048_051_712.0 {
        (b / (K * K), "MB", 0)
    } else if b < 10_683_731_149.0 {
        (b / (K * K * K), "GB", 1)
    } else if b < 1_073_204_953_088.0 {
        (b / (K * K * K), "GB", 0)
    } else {
        (b / (K * K * K * K), "TB", 2)
    };
    format!("{value:.decimals$} {unit}")
}

/// The estimate and tasty-bench's ± (twice its standard deviation), in the
/// measurement's unit: tasty-bench's own from a doubling pair (`--stdev`,
/// `--quick`), else the typical estimate and twice its bootstrap standard
/// error.
pub(crate) fn estimate(a: &crate::analysis::Analysis, unit: &str) -> (f64, f64) {
    match crate::tasty_sampling::estimate_of_pair(&a.iters, &a.values, unit) {
        Some(p) => (p.mean, 2.0 * p.std_dev),
        None => (a.typical().point, 2.0 * a.typical().standard_error),
    }
}

/// `, 223 B allocated, 2.0 MB peak memory` when allocations were measured
/// (tasty-bench's `+RTS -T` fields; `copied` is the garbage collector's and
/// has no counterpart in Rust).
fn memory(metrics: &[crate::metered::MetricResult]) -> String {
    use crate::meters::Metric;
    let mut out = String::new();
    for r in metrics {
        match (r.metric, r.estimate, r.peak) {
            (Metric::AllocatedBytes, Some(e), _) => {
                out.push_str(&format!(", {} allocated", bytes(e.point.max(0.0))));
            }
            (Metric::PeakLiveBytes, _, Some(p)) => {
                out.push_str(&format!(", {} peak memory", bytes(p)));
            }
            _ => {}
        }
    }
    out
}

/// The lines of one benchmark: under `tree`, the group headers it opens
/// (ids split on `/`, under `All`) and its name; else its whole id. Time
/// values are in nanoseconds; other units are printed with the
/// measurement's own formatter.
pub(crate) fn lines(c: &Completed<'_>, tree: bool) -> Vec<String> {
    let (typical, spread) = estimate(c.analysis, c.unit);
    let (value, pm) = if c.unit == "ns" {
        (picos(typical * 1e3), picos(spread * 1e3))
    } else {
        (
            c.formatter.format_value(typical).trim().to_owned(),
            c.formatter.format_value(spread).trim().to_owned(),
        )
    };
    let (mut out, name, indent) = if tree {
        let parts: Vec<&str> = c.title.split('/').collect();
        let (groups, leaf) = parts.split_at(parts.len() - 1);
        let mut opened = OPEN_GROUPS.lock().unwrap_or_else(|e| e.into_inner());
        let headers = open_groups(&mut opened, groups);
        (headers, leaf[0].to_owned(), "  ".repeat(groups.len() + 1))
    } else {
        (Vec::new(), c.title.to_owned(), String::new())
    };
    let status = if c.failure.is_some() { "FAIL" } else { "OK" };
    out.push(format!(
        "{indent}{name}: {status} ({:.2}s)",
        c.elapsed.as_secs_f64()
    ));
    let mut second = format!("{indent}  {} ± {}", value.trim(), pm.trim());
    second.push_str(&memory(c.metrics));
    if let Some(ratio) = c.ratio_to_baseline {
        second.push_str(", ");
        second.push_str(against_baseline(ratio).trim_start());
    }
    out.push(second);
    if let Some(f) = &c.failure {
        out.push(format!("{indent}  {f}"));
    }
    out
}

/// The groups printed so far (`All` first): a benchmark prints only the
/// headers of the groups it does not share with the one before.
static OPEN_GROUPS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The header lines that open `groups` after the groups `open`, which it
/// updates; `All` heads the tree, as in tasty-bench.
fn open_groups(open: &mut Vec<String>, groups: &[&str]) -> Vec<String> {
    let path: Vec<&str> = std::iter::once("All")
        .chain(groups.iter().copied())
        .collect();
    let shared = open
        .iter()
        .zip(&path)
        .take_while(|(a, b)| a.as_str() == **b)
        .count();
    *open = path.iter().map(|s| (*s).to_owned()).collect();
    path[shared..]
        .iter()
        .enumerate()
        .map(|(i, g)| format!("{}{g}", "  ".repeat(shared + i)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_in_the_tasty_bench_readme() {
        // The README's lines: "63 ns ± 3.4 ns", "809 ns ± 73 ns",
        // "104 μs ± 4.9 μs", "1.6 μs ± 31 ns".
        assert_eq!(picos(63_000.0).trim(), "63 ns");
        assert_eq!(picos(3_400.0).trim(), "3.4 ns");
        assert_eq!(picos(809_000.0).trim(), "809 ns");
        assert_eq!(picos(104e6).trim(), "104 μs");
        assert_eq!(picos(4.9e6).trim(), "4.9 μs");
        assert_eq!(picos(1.6e6).trim(), "1.6 μs");
        assert_eq!(picos(999_000.0).trim(), "1.0 μs");
        assert_eq!(picos(500.0).trim(), "500 ps");
        assert_eq!(picos(2.5e12).trim(), "2.50 s");
    }

    #[test]
    fn bytes_read_as_in_the_tasty_bench_readme() {
        // The README's memory lines: "223 B allocated", "2.3 KB allocated",
        // "277 KB allocated", "59 B copied", "2.0 MB peak memory".
        assert_eq!(bytes(223.0), "223 B");
        assert_eq!(bytes(59.0), "59 B");
        assert_eq!(bytes(2355.0), "2.3 KB"); // 2355 / 1024 = 2.30
        assert_eq!(bytes(283_648.0), "277 KB"); // 277 × 1024
        assert_eq!(bytes(2.0 * 1_048_576.0), "2.0 MB");
        assert_eq!(bytes(5.0 * 1_048_576.0), "5.0 MB");
        // tasty-bench's switch points: 9.95 KiB, 999.5 KiB, 9.95 MiB.
        assert_eq!(bytes(10_188.0), "9.9 KB");
        assert_eq!(bytes(10_189.0), "10 KB");
        assert_eq!(bytes(1_023_487.0), "999 KB");
        assert_eq!(bytes(1_023_488.0), "1.0 MB");
        assert_eq!(bytes(0.0), "0 B");
    }

    #[test]
    fn the_tree_opens_only_new_groups() {
        // The README's example: "All", "Fibonacci numbers", then three
        // benchmarks in it; a second group at the same level follows.
        let mut open = Vec::new();
        assert_eq!(
            open_groups(&mut open, &["Fibonacci numbers"]),
            ["All", "  Fibonacci numbers"]
        );
        assert!(open_groups(&mut open, &["Fibonacci numbers"]).is_empty());
        assert_eq!(
            open_groups(&mut open, &["Fibonacci numbers", "big"]),
            ["    big"]
        );
        assert_eq!(open_groups(&mut open, &["Sorting"]), ["  Sorting"]);
        // A benchmark without a group sits right under All.
        assert!(open_groups(&mut open, &[]).is_empty());
        assert_eq!(open_groups(&mut open, &["Sorting"]), ["  Sorting"]);
    }

    fn metric(metric: crate::meters::Metric, point: f64) -> crate::metered::MetricResult {
        let e = yardstick_stats::Estimate {
            point,
            lower: point,
            upper: point,
            confidence: 0.95,
            standard_error: 0.0,
        };
        crate::metered::MetricResult {
            metric,
            estimate: metric.is_additive().then_some(e),
            peak: (!metric.is_additive()).then_some(point),
            values: Vec::new(),
            change: None,
            baseline_per_iteration: None,
        }
    }

    #[test]
    fn a_benchmark_prints_as_in_the_tasty_bench_readme() {
        // A doubling pair on a fake clock: 2^20 and 2^21 iterations of
        // exactly 63 ns. tasty-bench's estimate is (t₁ + 2t₂) / 5n = 63 ns;
        // its deviation comes from the 1 ms perturbation alone: the pair
        // (t₁ + p, t₂ − p) is off the line by |2x − y| / √5 = 3p / √5, so
        // σ = 3 ms / √5 / 2^20 = 1.2795 ns and ± 2σ = 2.559 ns → "2.6 ns".
        let n = f64::from(1 << 20);
        let config = crate::config::BenchmarkConfig {
            nresamples: 100,
            ..Default::default()
        };
        let a = crate::analysis::analyse(
            crate::analysis::Samples::in_one_process(
                crate::config::ActualSamplingMode::Linear,
                vec![n, 2.0 * n],
                vec![63.0 * n, 126.0 * n],
            ),
            None,
            &config,
            false,
        )
        .unwrap();
        let metrics = [
            metric(crate::meters::Metric::AllocatedBytes, 223.0),
            metric(crate::meters::Metric::PeakLiveBytes, 2.0 * 1_048_576.0),
        ];
        let mut c = Completed {
            elapsed: std::time::Duration::from_millis(2130),
            metrics: &metrics,
            ..Completed::for_test("Fibonacci numbers/fifth", &a)
        };
        assert_eq!(
            lines(&c, true),
            [
                "All",
                "  Fibonacci numbers",
                "    fifth: OK (2.13s)",
                "      63 ns ± 2.6 ns, 223 B allocated, 2.0 MB peak memory",
            ]
        );
        // The flat form, against a baseline 8.9 % faster, over a limit.
        c.metrics = &[];
        c.ratio_to_baseline = Some(1.089);
        c.failure = Some("8.9% slower than the baseline".into());
        assert_eq!(
            lines(&c, false),
            [
                "Fibonacci numbers/fifth: FAIL (2.13s)",
                "  63 ns ± 2.6 ns, 8% more than baseline",
                "  8.9% slower than the baseline",
            ]
        );
    }

    #[test]
    fn baseline_comparison_truncates_to_whole_percent() {
        assert_eq!(against_baseline(1.089), " 8% more than baseline");
        assert_eq!(against_baseline(1.004), "same as baseline");
        assert_eq!(against_baseline(0.996), "same as baseline");
        assert_eq!(against_baseline(0.945), " 5% less than baseline");
        assert_eq!(against_baseline(2.0), "100% more than baseline");
    }
}

//! nanobench's markdown table for the harness (`--output-format table`):
//! per unit of work, with the counters `--measure` read, `-` for what was
//! not measured.

use yardstick_stats::nanobench::{err_fraction, is_unstable};
use yardstick_stats::univariate::mean;

use super::cells::{header, Column};
use super::numbers::{grouped, markdown_code};
use super::Completed;
use crate::meters::Metric;
use crate::Throughput;

/// The unit of work and how many of it one iteration does.
pub(crate) fn unit_of(t: Option<Throughput>) -> (&'static str, f64) {
    match t {
        Some(Throughput::Bytes(n) | Throughput::BytesDecimal(n)) => ("byte", n as f64),
        Some(Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. }) => {
            ("elem", n as f64)
        }
        Some(Throughput::Bits(n)) => ("bit", n as f64),
        None => ("op", 1.0),
    }
}

/// The columns of one benchmark's row.
pub(crate) fn columns(c: &Completed<'_>) -> Vec<Column> {
    let (unit, per_iter) = unit_of(c.throughput);
    let per_unit = |v: f64| v / per_iter.max(1.0);
    let metric = |m: Metric| {
        c.metrics
            .iter()
            .find(|r| r.metric == m)
            .and_then(|r| r.estimate.as_ref())
            .map(|e| per_unit(e.point))
    };
    let time = (c.unit == "ns").then(|| per_unit(c.analysis.typical().point));
    let err = err_fraction(&c.analysis.averages).map(|e| e * 100.0);
    let (ins, cyc, bra, miss) = (
        metric(Metric::Instructions),
        metric(Metric::Cycles),
        metric(Metric::Branches),
        metric(Metric::BranchMisses),
    );
    let total = (c.unit == "ns").then(|| c.analysis.values.iter().sum::<f64>() / 1e9);
    vec![
        Column::new(22, 2, format!("ns/{unit}"), time),
        Column::new(
            22,
            2,
            format!("{unit}/s"),
            time.map(|t| if t > 0.0 { 1e9 / t } else { 0.0 }),
        ),
        Column::percent(10, "err%", err),
        Column::new(18, 2, format!("ins/{unit}"), ins),
        Column::new(18, 2, format!("cyc/{unit}"), cyc),
        Column::new(
            9,
            3,
            "IPC",
            ins.zip(cyc).map(|(i, c)| if c > 0.0 { i / c } else { 0.0 }),
        ),
        Column::new(17, 2, format!("bra/{unit}"), bra),
        Column::percent(
            10,
            "miss%",
            bra.zip(miss)
                .map(|(b, m)| if b > 0.0 { 100.0 * m / b } else { 0.0 }),
        ),
        Column::new(12, 2, "total", total),
    ]
}

/// The counters of the table's columns, in column order.
const COUNTERS: [Metric; 4] = [
    Metric::Instructions,
    Metric::Cycles,
    Metric::Branches,
    Metric::BranchMisses,
];

/// Why counter cells show `-`, printed above the header: a counter is read
/// only when `--measure` names it, and only where the machine has hardware
/// counters (a counter that could not be read was warned about on stderr).
fn counter_note(c: &Completed<'_>) -> Option<String> {
    let missing: Vec<&str> = COUNTERS
        .iter()
        .filter(|&&m| {
            !c.metrics
                .iter()
                .any(|r| r.metric == m && r.estimate.is_some())
        })
        .map(Metric::name)
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "`-`: not measured. `--measure {}` reads the counter columns where the machine has hardware counters.\n",
            missing.join(",")
        )
    })
}

/// The header (when `show_header`, with a note on the columns left `-`) and
/// the row of one benchmark.
pub(crate) fn lines(c: &Completed<'_>, show_header: bool, optimised_away: bool) -> String {
    let cols = columns(c);
    let mut out = String::new();
    if show_header {
        out.extend(counter_note(c));
        out.push_str(&header(&cols, "benchmark"));
    }
    let name = markdown_code(c.title);
    if optimised_away {
        out.extend(cols.iter().map(Column::missing_cell));
        out.push_str(&format!(
            "| :boom: {name} (iterations overflow. Maybe your code got optimized away?)\n"
        ));
        return out;
    }
    out.extend(cols.iter().map(Column::value_cell));
    match err_fraction(&c.analysis.averages).filter(|&e| is_unstable(e)) {
        Some(_) => {
            let iters = mean(&c.analysis.iters).unwrap_or(0.0);
            out.push_str(&format!(
                "| :wavy_dash: {name} (Unstable with ~{} iters. Increase the warm-up or measurement time)\n",
                grouped(iters, 1)
            ));
        }
        None => out.push_str(&format!("| {name}\n")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse, Analysis};
    use crate::config::{ActualSamplingMode, BenchmarkConfig};

    /// err% 9.09 %: the errors |x − 100| / x sorted are 0 ×4, 10/110 ×2,
    /// 10/90 ×2, 20/120 and 20/80, and their median is 10/110.
    const NOISY: [f64; 10] = [
        100.0, 110.0, 90.0, 100.0, 120.0, 80.0, 100.0, 100.0, 110.0, 90.0,
    ];

    /// Flat samples of `iters` iterations each, taking `per_iter` ns per
    /// iteration.
    fn analysis(per_iter: &[f64], iters: f64) -> Analysis {
        let config = BenchmarkConfig {
            nresamples: 200,
            ..BenchmarkConfig::default()
        };
        let values = per_iter.iter().map(|v| v * iters).collect();
        let counts = vec![iters; per_iter.len()];
        let samples =
            crate::analysis::Samples::in_one_process(ActualSamplingMode::Flat, counts, values);
        analyse(samples, None, &config, false).unwrap()
    }

    fn row(title: &str, a: &Analysis, optimised_away: bool) -> String {
        with_header(title, a, optimised_away, false)
    }

    fn with_header(title: &str, a: &Analysis, optimised_away: bool, header: bool) -> String {
        let c = Completed {
            optimised_away,
            ..Completed::for_test(title, a)
        };
        lines(&c, header, optimised_away)
    }

    #[test]
    fn the_header_says_why_the_counter_columns_are_dashes() {
        let a = analysis(&[100.0; 10], 1000.0);
        let table = with_header("steady", &a, false, true);
        let mut lines = table.lines();
        assert_eq!(
            lines.next().unwrap(),
            "`-`: not measured. `--measure instructions,cycles,branches,branch-misses` reads the counter columns where the machine has hardware counters."
        );
        assert_eq!(lines.next().unwrap(), "");
        assert!(lines.next().unwrap().contains("ins/op"), "{table}");
        // Rows without a header carry no note.
        assert!(row("steady", &a, false).starts_with('|'));
    }

    /// The cells of a row, trimmed, and the benchmark's cell.
    fn cells(row: &str) -> (Vec<&str>, &str) {
        let parts: Vec<&str> = row.trim_end_matches('\n').split('|').skip(1).collect();
        let (name, cells) = parts.split_last().unwrap();
        (cells.iter().map(|c| c.trim()).collect(), name.trim())
    }

    #[test]
    fn a_steady_benchmark_gets_a_plain_row() {
        // Median 100; |x − 100| / x is 0 four times, 1/101 and 1/99 twice
        // each, 2/102 and 2/98 once: the median of the ten is 1/101 =
        // 0.99 %.
        let a = analysis(
            &[
                100.0, 101.0, 99.0, 100.0, 102.0, 98.0, 100.0, 100.0, 101.0, 99.0,
            ],
            10.0,
        );
        let r = row("steady", &a, false);
        let (cells, name) = cells(&r);
        assert_eq!(name, "`steady`");
        // ns/op (the mean), op/s, err%, five counters not measured, and
        // the total: 10 samples of 10 iterations of 100 ns, 10 µs = 0.00 s.
        assert_eq!(
            cells,
            [
                "100.00",
                "10,000,000.00",
                "1.0%",
                "-",
                "-",
                "-",
                "-",
                "-",
                "0.00"
            ]
        );
        assert!(!r.contains(":wavy_dash:") && !r.contains(":boom:"), "{r}");
    }

    #[test]
    fn an_err_of_five_percent_or_more_is_flagged_unstable() {
        // Just under: 100 four times, 105 and 95 three times each; the
        // errors sorted are 0 ×4, 5/105 ×3, 5/95 ×3, median 5/105 = 4.76 %.
        let under = analysis(
            &[
                100.0, 105.0, 95.0, 100.0, 105.0, 95.0, 100.0, 105.0, 95.0, 100.0,
            ],
            2000.0,
        );
        let r = row("under", &under, false);
        assert_eq!(cells(&r).0[2], "4.8%");
        assert_eq!(cells(&r).1, "`under`", "{r}");

        // Over, 9.09 %. Every sample has 2000 iterations.
        let noisy = analysis(&NOISY, 2000.0);
        let r = row("noisy", &noisy, false);
        let (cells, name) = cells(&r);
        assert_eq!(cells[2], "9.1%");
        assert_eq!(cells[0], "100.00");
        assert_eq!(
            name,
            ":wavy_dash: `noisy` (Unstable with ~2,000.0 iters. Increase the warm-up or measurement time)"
        );
    }

    #[test]
    fn an_optimised_away_body_gets_the_boom_row_with_no_numbers() {
        let noisy = analysis(&NOISY, 10.0);
        // nanobench's cells of nothing: "- " right-aligned in each width
        // (22, 22, 10, 18, 18, 9, 17, 10, 12), then the name; the overflow
        // row wins over the unstable one.
        let dash = |width: usize| format!("|{}- ", " ".repeat(width - 3));
        let expected: String = [22, 22, 10, 18, 18, 9, 17, 10, 12]
            .into_iter()
            .map(dash)
            .chain([
                "| :boom: `empty` (iterations overflow. Maybe your code got optimized away?)\n"
                    .to_owned(),
            ])
            .collect();
        assert_eq!(row("empty", &noisy, true), expected);
        assert!(expected.starts_with("|                   - |                   - |       - |"));
    }
}

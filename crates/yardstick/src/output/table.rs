//! nanobench's markdown table for the harness (`--output-format table`):
//! per unit of work, with the counters `--measure` read, `-` for what was
//! not measured.

use yardstick_stats::nanobench::{err_fraction, is_unstable};

use super::Completed;
use crate::meters::Metric;
use crate::nanobench::format::markdown_code;
use crate::nanobench::table::{header, Column};
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

/// The header (when `show_header`) and the row of one benchmark.
pub(crate) fn lines(c: &Completed<'_>, show_header: bool, optimised_away: bool) -> String {
    let cols = columns(c);
    let mut out = String::new();
    if show_header {
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
            let iters = c.analysis.iters.iter().sum::<f64>() / c.analysis.iters.len().max(1) as f64;
            out.push_str(&format!(
                "| :wavy_dash: {name} (Unstable with ~{iters:.1} iters. Increase the warm-up or measurement time)\n"
            ));
        }
        None => out.push_str(&format!("| {name}\n")),
    }
    out
}

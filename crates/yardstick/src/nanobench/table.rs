//! nanobench's markdown table: one row per run, a header whenever the
//! columns or the title change.
//!
//! Each cell is right-aligned in a fixed width (`relative` 11, `ns/op` and
//! `op/s` 22, `err%` 10, `ins/op` and `cyc/op` 18, `IPC` 9, `bra/op` 17,
//! `miss%` 10, `total` 12, `complexityN` 14) with nanobench's precision; a
//! figure that was not measured is `-`. The last cell holds the title in the
//! header and the benchmark's name in a row, with the `:wavy_dash:` warning
//! (err% ≥ 5 %) or the `:boom:` row (iterations overflowed).

use yardstick_stats::nanobench::suggested_min_epoch_iterations;

use super::clock::nanos;
use super::config::Config;
use super::result::BenchResult;
use crate::output::cells::Column;
use crate::output::numbers::{grouped, markdown_code};

/// The message of the `:boom:` row.
pub(super) const OVERFLOW: &str = "iterations overflow. Maybe your code got optimized away?";

/// The columns of `result`'s row. `relative` is the baseline's time per
/// unit over this one's, in percent (`None`: not measurable); the column
/// is there only when the configuration asks for it.
pub(super) fn columns(config: &Config, result: &BenchResult, relative: Option<f64>) -> Vec<Column> {
    let mut columns = Vec::with_capacity(11);
    if config.relative {
        columns.push(Column::percent(11, "relative", relative));
    }
    if let Some(n) = config.complexity_n {
        columns.push(Column::new(14, 0, "complexityN", Some(n as f64)));
    }
    let unit = &config.unit;
    let batch = config.batch as f64;
    let median = result.median_ns();
    columns.push(Column::new(
        22,
        2,
        format!("ns/{unit}"),
        median.map(|m| m / batch),
    ));
    let rate = median.map(|m| if m > 0.0 { batch / m * 1e9 } else { 0.0 });
    columns.push(Column::new(22, 2, format!("{unit}/s"), rate));
    columns.push(Column::percent(10, "err%", result.err().map(|e| e * 100.0)));
    if config.performance_counters {
        counter_columns(&mut columns, config, result);
    }
    let total = (!result.overflowed()).then(|| nanos(result.total()) / 1e9);
    columns.push(Column::new(12, 2, "total", total));
    columns
}

fn counter_columns(columns: &mut Vec<Column>, config: &Config, result: &BenchResult) {
    let unit = &config.unit;
    let batch = config.batch as f64;
    let c = result.counters();
    let per_unit = |v: Option<f64>| v.map(|v| v / batch);
    let ipc = c
        .instructions
        .zip(c.cycles)
        .map(|(i, cy)| if cy > 0.0 { i / cy } else { 0.0 });
    let miss = c
        .branches
        .zip(c.branch_misses)
        .map(|(b, m)| if b < 1e-9 { 0.0 } else { 100.0 * m / b });
    columns.extend([
        Column::new(18, 2, format!("ins/{unit}"), per_unit(c.instructions)),
        Column::new(18, 2, format!("cyc/{unit}"), per_unit(c.cycles)),
        Column::new(9, 3, "IPC", ipc),
        Column::new(17, 2, format!("bra/{unit}"), per_unit(c.branches)),
        Column::percent(10, "miss%", miss),
    ]);
}

/// One result's row, ending in a newline.
pub(super) fn row(columns: &[Column], config: &Config, result: &BenchResult) -> String {
    let mut name = markdown_code(&config.name);
    if !config.context.is_empty() {
        let pairs: Vec<String> = config
            .context
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        name.push_str(&format!(" ({})", pairs.join(", ")));
    }
    if result.overflowed() {
        let mut out: String = columns.iter().map(Column::missing_cell).collect();
        out.push_str(&format!("| :boom: {name} ({OVERFLOW})\n"));
        return out;
    }
    let mut out: String = columns.iter().map(Column::value_cell).collect();
    if result.is_unstable() {
        let total: u64 = result.epochs().iter().map(|e| e.iterations).sum();
        let epochs = config.epochs.max(1) as f64;
        let average = total as f64 / epochs;
        let suggested = suggested_min_epoch_iterations(total as f64, epochs);
        out.push_str(&format!(
            "| :wavy_dash: {name} (Unstable with ~{} iters. Increase `min_epoch_iterations` to e.g. {suggested})\n",
            grouped(average, 1)
        ));
    } else {
        out.push_str(&format!("| {name}\n"));
    }
    out
}

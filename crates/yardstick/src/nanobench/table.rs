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
use super::format::{grouped, markdown_code};
use super::result::BenchResult;

/// The message of the `:boom:` row.
pub(super) const OVERFLOW: &str = "iterations overflow. Maybe your code got optimized away?";

/// One column: its geometry, title and this row's value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Column {
    width: usize,
    precision: usize,
    title: String,
    suffix: &'static str,
    value: Option<f64>,
}

impl Column {
    pub(crate) fn new(
        width: usize,
        precision: usize,
        title: impl Into<String>,
        value: Option<f64>,
    ) -> Column {
        Column {
            width,
            precision,
            title: title.into(),
            suffix: "",
            value,
        }
    }

    pub(crate) fn percent(width: usize, title: &str, value: Option<f64>) -> Column {
        Column {
            suffix: "%",
            ..Column::new(width, 1, title, value)
        }
    }

    fn title_cell(&self) -> String {
        format!("|{:>w$} ", self.title, w = self.width - 2)
    }

    fn separator_cell(&self) -> String {
        format!("|{}:", "-".repeat(self.width - 2))
    }

    pub(crate) fn value_cell(&self) -> String {
        match self.value {
            Some(v) => format!(
                "|{:>w$}{} ",
                grouped(v, self.precision),
                self.suffix,
                w = self.width - 2 - self.suffix.len()
            ),
            None => self.missing_cell(),
        }
    }

    pub(crate) fn missing_cell(&self) -> String {
        format!("|{}- ", " ".repeat(self.width - 3))
    }
}

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

/// The header: an empty line, the column titles with the table's title
/// last, and the alignment line.
pub(crate) fn header(columns: &[Column], title: &str) -> String {
    let mut out = String::from("\n");
    for c in columns {
        out.push_str(&c.title_cell());
    }
    out.push_str("| ");
    out.push_str(title);
    out.push('\n');
    for c in columns {
        out.push_str(&c.separator_cell());
    }
    out.push_str("|:");
    out.push_str(&"-".repeat(title.chars().count() + 1));
    out.push('\n');
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_have_nanobench_geometry() {
        let c = Column::new(22, 2, "ns/op", Some(5.634));
        // Cells of the tables in nanobench's documentation.
        assert_eq!(c.title_cell(), "|               ns/op ");
        assert_eq!(c.separator_cell(), "|--------------------:");
        assert_eq!(c.value_cell(), "|                5.63 ");
        assert_eq!(c.missing_cell(), "|                   - ");
        let p = Column::percent(10, "err%", Some(2.34));
        assert_eq!(p.value_cell(), "|    2.3% ");
        let r = Column::percent(11, "relative", Some(1767.44));
        assert_eq!(r.title_cell(), "| relative ");
        assert_eq!(r.value_cell(), "| 1,767.4% ");
    }

    #[test]
    fn header_lines_up_with_the_title() {
        let cols = [Column::new(12, 2, "total", None)];
        assert_eq!(
            header(&cols, "benchmark"),
            "\n|     total | benchmark\n|----------:|:----------\n"
        );
    }
}

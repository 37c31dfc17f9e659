//! The cells of nanobench's markdown table: each right-aligned in a fixed
//! width with nanobench's precision, `-` for a figure not measured. The
//! nanobench builder's table (`nanobench::table`) and `--format nanobench`
//! of every other run (`output::table`) print the same cells.

use super::numbers::grouped;

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

//! A markdown summary of a run, for CI step summaries
//! (`--output-format markdown`): one table, a row per benchmark.

use std::fmt::Write;

use crate::results::{BenchmarkResult, RunResults};
use crate::units::{format_change, format_throughput, Scale};

/// The summary of `results`: a heading with the run's title and a table
/// with each benchmark's id, time `[lower estimate upper]`, throughput,
/// change of the mean and verdict. Ids are escaped so that no id can break
/// the table or inject markup.
///
/// # Example
///
/// ```
/// use yardstick_report::{markdown_summary, RunResults};
///
/// let md = markdown_summary(&RunResults::new("nightly", Vec::new()));
/// assert!(md.starts_with("## nightly\n"));
/// ```
#[must_use]
pub fn markdown_summary(results: &RunResults) -> String {
    let mut out = format!("## {}\n\n", escape(&results.title));
    if results.benchmarks.is_empty() {
        out.push_str("No benchmarks ran.\n");
        return out;
    }
    out.push_str(
        "| Benchmark | Time (lower) | Time | Time (upper) | Throughput | Change | Verdict |\n",
    );
    out.push_str("| :--- | ---: | ---: | ---: | ---: | ---: | :--- |\n");
    for b in &results.benchmarks {
        row(&mut out, b);
    }
    out
}

fn row(out: &mut String, b: &BenchmarkResult) {
    let t = &b.typical;
    let scale = Scale::for_value(&b.unit, t.estimate);
    let thrpt = if b.unit == "ns" {
        b.throughput
            .iter()
            .map(|tp| {
                let t = to_throughput(tp.per_iteration, tp.unit);
                format_throughput(&t, b.typical.estimate).join(", ")
            })
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        String::new()
    };
    let (change, verdict) = match &b.change {
        Some(c) => (
            format!(
                "{} [{} {}]",
                format_change(c.mean.estimate),
                format_change(c.mean.lower_bound),
                format_change(c.mean.upper_bound)
            ),
            match c.verdict {
                Some("Regressed") => "**regressed**",
                Some("Improved") => "improved",
                Some("WithinNoise") => "within noise",
                Some(_) => "no change",
                None => "",
            },
        ),
        None => (String::new(), ""),
    };
    let _ = writeln!(
        out,
        "| {} | {} | **{}** | {} | {} | {} | {} |",
        escape(&b.id),
        scale.format(t.lower_bound),
        scale.format(t.estimate),
        scale.format(t.upper_bound),
        thrpt,
        change,
        verdict
    );
}

fn to_throughput(n: u64, unit: &str) -> yardstick_format::criterion::Throughput {
    use yardstick_format::criterion::Throughput;
    match unit {
        "bytes" => Throughput::Bytes(n),
        "bytes_decimal" => Throughput::BytesDecimal(n),
        "bits" => Throughput::Bits(n),
        _ => Throughput::Elements(n),
    }
}

/// Escapes markdown punctuation and HTML so that text stays text inside a
/// table cell; line breaks become spaces.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cannot_break_the_table() {
        assert_eq!(escape("a|b<script>"), "a\\|b&lt;script&gt;");
        assert_eq!(escape("x\ny_z"), "x y\\_z");
    }
}

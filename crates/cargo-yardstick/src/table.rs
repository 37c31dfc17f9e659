//! Printing a [`Comparison`] as a terminal table or as markdown.

use std::fmt::Write;

use crate::compare::{verdict_word, Comparison, Row};

/// Formats a value in its unit, scaling nanoseconds to a readable unit;
/// other units (instructions, bytes) with no trailing zeros: counts are
/// whole numbers.
#[must_use]
pub fn value(v: f64, unit: &str) -> String {
    if unit == "ns" {
        yardstick_format::units::fixed(v, 4)
    } else {
        let text = format!("{v:.6}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        format!("{text} {unit}")
    }
}

fn pct(x: f64) -> String {
    format!("{:+.2}%", x * 100.0)
}

fn change(r: &Row) -> String {
    if r.change.lower == r.change.upper {
        pct(r.change.point)
    } else {
        format!(
            "{} [{}, {}]",
            pct(r.change.point),
            pct(r.change.lower),
            pct(r.change.upper)
        )
    }
}

fn p(r: &Row) -> String {
    r.p_value
        .map_or_else(|| "-".to_owned(), |p| format!("{p:.3}"))
}

/// A plain-text table, columns aligned.
#[must_use]
pub fn terminal(c: &Comparison, old_label: &str, new_label: &str) -> String {
    let mut rows = vec![[
        "benchmark".to_owned(),
        old_label.to_owned(),
        new_label.to_owned(),
        "change [CI]".to_owned(),
        "p".to_owned(),
        "verdict".to_owned(),
    ]];
    for r in &c.rows {
        rows.push([
            r.name.clone(),
            value(r.old.point, &r.unit),
            value(r.new.point, &r.unit),
            change(r),
            p(r),
            verdict_cell(r),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(s, w)| format!("{s}{}", " ".repeat(w - s.chars().count())))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    notes(c, &mut out, "");
    out
}

/// A markdown table (GitHub flavour), ids escaped.
#[must_use]
pub fn markdown(c: &Comparison, old_label: &str, new_label: &str) -> String {
    let esc = |s: &str| s.replace('|', "\\|").replace('`', "'");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| benchmark | {} | {} | change [CI] | p | verdict |",
        esc(old_label),
        esc(new_label)
    );
    out.push_str("| --- | ---: | ---: | ---: | ---: | --- |\n");
    for r in &c.rows {
        let icon = match r.verdict {
            yardstick_stats::Verdict::Regressed => "🔴 ",
            yardstick_stats::Verdict::Improved => "🟢 ",
            _ => "",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {icon}{} |",
            esc(&r.name),
            value(r.old.point, &r.unit),
            value(r.new.point, &r.unit),
            change(r),
            p(r),
            verdict_cell(r)
        );
    }
    notes(c, &mut out, "\n");
    out
}

/// The verdict, and whether it is only what chance flags among this many.
fn verdict_cell(r: &crate::compare::Row) -> String {
    let word = verdict_word(r.verdict);
    if r.survives_fdr {
        word.to_owned()
    } else {
        format!("{word} (not after FDR)")
    }
}

fn notes(c: &Comparison, out: &mut String, sep: &str) {
    if !c.only_old.is_empty() {
        let _ = writeln!(out, "{sep}only in the old run: {}", c.only_old.join(", "));
    }
    if !c.only_new.is_empty() {
        let _ = writeln!(out, "{sep}only in the new run: {}", c.only_new.join(", "));
    }
    for s in &c.skipped {
        let _ = writeln!(out, "{sep}skipped {s}");
    }
    if let Some(f) = &c.fdr {
        let _ = writeln!(out, "{sep}{}", f.line());
    }
}

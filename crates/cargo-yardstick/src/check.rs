//! `cargo yardstick check`: the CI gate. Compares a run with a baseline and
//! fails when a benchmark regressed beyond a threshold with significance.

use std::fmt::Write;

use yardstick_stats::Verdict;

use crate::compare::{Comparison, Row};
use crate::table::markdown;

/// Limits of the gate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// A timed benchmark fails when the lower bound of its change exceeds
    /// this fraction and the change is significant.
    pub threshold: f64,
    /// An exact count (no samples) fails when it grew by more than this
    /// fraction.
    pub exact_threshold: f64,
}

/// Whether `r` breaks the limits.
#[must_use]
pub fn is_regression(r: &Row, l: &Limits) -> bool {
    match r.p_value {
        Some(_) => r.verdict == Verdict::Regressed && r.change.lower > l.threshold,
        None => r.change.point > l.exact_threshold,
    }
}

/// The markdown summary and the failing benchmarks.
#[must_use]
pub fn summary(c: &Comparison, l: &Limits, old: &str, new: &str) -> (String, Vec<String>) {
    let failing: Vec<String> = c
        .rows
        .iter()
        .filter(|r| is_regression(r, l))
        .map(|r| r.name.clone())
        .collect();
    let mut s = String::from("## yardstick check\n\n");
    if failing.is_empty() {
        let _ = writeln!(
            s,
            "✅ no benchmark regressed by more than {:.1}% ({} compared, {new} against {old}).\n",
            l.threshold * 100.0,
            c.rows.len()
        );
    } else {
        let _ = writeln!(
            s,
            "❌ {} of {} benchmarks regressed by more than {:.1}% ({new} against {old}): {}\n",
            failing.len(),
            c.rows.len(),
            l.threshold * 100.0,
            failing.join(", ")
        );
    }
    s.push_str(&markdown(c, old, new));
    (s, failing)
}

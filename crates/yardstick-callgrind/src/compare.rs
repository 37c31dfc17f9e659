//! The comparison of two runs' metrics, and its terminal lines.
//!
//! The lines are iai-callgrind's, character for character (without colours):
//!
//! ```text
//!   Instructions:                2804|1733            (+61.8003%) [+1.61800x]
//!   L2 Hits:                        0|0               (No change)
//!   RAM Hits:                       2|N/A             (*********)
//! ```
//!
//! The percentage is `(new - old) / old × 100`; the factor is `new / old`
//! when the count grew and `-(old / new)` when it shrank, `+inf`/`-inf` when
//! one side is zero. Both print with six significant digits.

use serde::{Deserialize, Serialize};

use crate::metrics::{EventKind, Metrics};

/// The comparison of one event between the new run and the old one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// The count of this run, if measured.
    pub new: Option<u64>,
    /// The count of the run compared with, if there is one.
    pub old: Option<u64>,
    /// `(new - old) / old × 100`, when both are there.
    pub diff_pct: Option<f64>,
    /// `new / old`, or `-(old / new)` when it shrank, when both are there.
    pub factor: Option<f64>,
}

impl Diff {
    /// Compares `new` with `old`.
    pub fn new(new: Option<u64>, old: Option<u64>) -> Diff {
        let (diff_pct, factor) = match (new, old) {
            (Some(n), Some(o)) => (Some(percentage(n, o)), Some(factor(n, o))),
            _ => (None, None),
        };
        Diff {
            new,
            old,
            diff_pct,
            factor,
        }
    }
}

/// `(new - old) / old × 100`; `+inf` when old is zero and new is not.
pub fn percentage(new: u64, old: u64) -> f64 {
    if new == old {
        return 0.0;
    }
    if old == 0 {
        return f64::INFINITY;
    }
    (new as f64 - old as f64) / old as f64 * 100.0
}

/// `new / old` when it grew, `-(old / new)` when it shrank, `1` when equal.
pub fn factor(new: u64, old: u64) -> f64 {
    if new == old {
        1.0
    } else if new > old {
        if old == 0 {
            f64::INFINITY
        } else {
            new as f64 / old as f64
        }
    } else if new == 0 {
        f64::NEG_INFINITY
    } else {
        -(old as f64 / new as f64)
    }
}

/// Compares every shown metric of `new` with `old` (when there is an old
/// run); the order is the print order. Metrics this run did not measure
/// (the cache metrics with `--cache-sim=no`) are left out.
pub fn diffs(new: &Metrics, old: Option<&Metrics>) -> Vec<(EventKind, Diff)> {
    new.shown()
        .into_iter()
        .map(|k| (k, Diff::new(new.get(k), old.and_then(|o| o.get(k)))))
        .collect()
}

/// A number with six significant digits and a sign, as iai-callgrind prints
/// percentages and factors (`+61.8003`, `-1.61803`, `+100000`).
pub fn signed_short(n: f64) -> String {
    let a = n.abs();
    if a < 10.0 {
        format!("{n:+.5}")
    } else if a < 100.0 {
        format!("{n:+.4}")
    } else if a < 1000.0 {
        format!("{n:+.3}")
    } else if a < 10000.0 {
        format!("{n:+.2}")
    } else if a < 100_000.0 {
        format!("{n:+.1}")
    } else {
        format!("{n:+.0}")
    }
}

fn float_field(value: f64, unit: &str) -> String {
    let s = signed_short(value);
    if value.is_infinite() {
        format!("{s:+^9}")
    } else {
        format!("{s:^+8}{unit}")
    }
}

/// One terminal line: `  <label>:<new>|<old> (<pct>) [<factor>]`.
pub fn format_line(kind: EventKind, diff: &Diff) -> String {
    let label = format!("{}:", kind.label());
    let show = |v: Option<u64>| v.map_or_else(|| "N/A".to_owned(), |v| v.to_string());
    let new = show(diff.new);
    let old = show(diff.old);
    match (diff.new, diff.old, diff.diff_pct, diff.factor) {
        (Some(n), Some(o), _, _) if n == o => {
            format!("  {label:<18}{new:>15}|{old:<15} ({:^9})", "No change")
        }
        (Some(_), Some(_), Some(pct), Some(fac)) => format!(
            "  {label:<18}{new:>15}|{old:<15} ({:^9}) [{:^9}]",
            float_field(pct, "%"),
            float_field(fac, "x")
        ),
        _ => format!("  {label:<18}{new:>15}|{old:<15} ({:^9})", "*********"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: EventKind, new: Option<u64>, old: Option<u64>) -> String {
        format_line(kind, &Diff::new(new, old))
    }

    #[test]
    fn lines_match_iai_callgrinds_readme() {
        // Expected lines copied from iai-callgrind's README (0.12).
        assert_eq!(
            line(EventKind::Ir, Some(1733), None),
            "  Instructions:                1733|N/A             (*********)"
        );
        assert_eq!(
            line(EventKind::Ir, Some(2804), Some(1733)),
            "  Instructions:                2804|1733            (+61.8003%) [+1.61800x]"
        );
        assert_eq!(
            line(EventKind::LLhits, Some(0), Some(0)),
            "  L2 Hits:                        0|0               (No change)"
        );
        assert_eq!(
            line(EventKind::Ir, Some(16201596), Some(26214733)),
            "  Instructions:            16201596|26214733        (-38.1966%) [-1.61803x]"
        );
        assert_eq!(
            line(EventKind::RamHits, Some(3), Some(4)),
            "  RAM Hits:                       3|4               (-25.0000%) [-1.33333x]"
        );
        assert_eq!(
            line(EventKind::EstimatedCycles, Some(264), Some(313)),
            "  Estimated Cycles:             264|313             (-15.6550%) [-1.18561x]"
        );
    }

    #[test]
    fn infinite_changes_are_marked() {
        assert_eq!(
            line(EventKind::RamHits, Some(2), Some(0)),
            "  RAM Hits:                       2|0               (+++inf+++) [+++inf+++]"
        );
        let shrink = line(EventKind::RamHits, Some(0), Some(2));
        assert!(shrink.contains("(-100.000%) [++-inf+++]"), "{shrink}");
    }

    #[test]
    fn factor_and_percentage() {
        assert_eq!(factor(10, 10), 1.0);
        assert_eq!(factor(20, 10), 2.0);
        assert_eq!(factor(10, 20), -2.0);
        assert_eq!(percentage(15, 10), 50.0);
        assert_eq!(signed_short(61.80034), "+61.8003");
        assert_eq!(signed_short(-1.618034), "-1.61803");
    }
}

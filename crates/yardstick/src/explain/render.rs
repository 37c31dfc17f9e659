//! The explanation as the terminal shows it.

use std::fmt::Write;

use yardstick_format::explain::{ExplainFile, FunctionChange};
use yardstick_format::names::one_line;

/// Functions listed per table (self, inclusive).
const LISTED: usize = 8;

/// A header line, the totals, then the functions that moved most by their
/// own instructions and with what they call; or the one line saying both
/// sides execute the same instructions.
pub(super) fn render(e: &ExplainFile) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "explain {}: {} iteration{} under Callgrind on each side",
        one_line(&e.id),
        e.iterations,
        if e.iterations == 1 { "" } else { "s" }
    );
    let (a, b) = (e.baseline_instructions, e.current_instructions);
    if e.same {
        let _ = writeln!(
            s,
            "  both sides execute the same instructions ({} per iteration, within 0.1%): \
             the measured change comes from how they run (code layout, memory placement, \
             the machine), not from what they run",
            count(b)
        );
    } else {
        let _ = writeln!(
            s,
            "  instructions per iteration: {} -> {} ({}, {})",
            count(a),
            count(b),
            signed(b - a),
            percent(b - a, a)
        );
        table(
            &mut s,
            e,
            "self (own instructions)",
            FunctionChange::self_change,
        );
        table(
            &mut s,
            e,
            "inclusive (with what it calls)",
            FunctionChange::inclusive_change,
        );
    }
    notes(&mut s, e);
    s
}

fn table(s: &mut String, e: &ExplainFile, title: &str, change: fn(&FunctionChange) -> f64) {
    let rows = e.ranked_by(change);
    if rows.is_empty() {
        return;
    }
    let total = e.change();
    let _ = writeln!(
        s,
        "  {title}, change per iteration and share of the total change:"
    );
    for f in rows.into_iter().take(LISTED) {
        let share = if total == 0.0 {
            String::new()
        } else {
            format!("{:.1}%", 100.0 * change(f) / total)
        };
        let mut line = format!(
            "    {:>12} {:>8}  {}",
            signed(change(f)),
            share,
            one_line(&f.name)
        );
        if let (Some(file), Some(l)) = (&f.file, f.line) {
            let _ = write!(line, "  {}:{l}", one_line(file));
        }
        if f.presence != "both" {
            let _ = write!(line, "  ({})", f.presence);
        }
        let _ = writeln!(s, "{line}");
    }
}

fn notes(s: &mut String, e: &ExplainFile) {
    if !e.separated {
        s.push_str(
            "  note: the routine times itself (iter_custom): what it does around its own timing \
             is counted too, the loop cannot be told apart\n",
        );
    }
    if let Some(f) = e.change_in_timed_loop().filter(|_| !e.same) {
        let _ = writeln!(
            s,
            "  note: {} is the harness's timed loop: the routine was inlined into it, so the \
             change is in code inlined there (its file:line points into that code)",
            one_line(&f.name)
        );
    }
    if !e.same && e.functions.is_empty() {
        s.push_str(
            "  note: no function names (a binary without symbols): only the totals are compared\n",
        );
    }
    if !e.debug_info && !e.functions.is_empty() {
        s.push_str(
            "  note: no file:line, the binaries have no debug info: add \
             `[profile.bench] debug = \"line-tables-only\"` to Cargo.toml\n",
        );
    }
}

/// A count per iteration: whole above 100, one decimal below, with
/// thousands separated by commas.
fn count(x: f64) -> String {
    if x.abs() >= 100.0 {
        let whole = format!("{:.0}", x.abs());
        let mut out = String::new();
        for (k, c) in whole.chars().enumerate() {
            if k > 0 && (whole.len() - k) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if x < 0.0 {
            out.insert(0, '-');
        }
        out
    } else {
        format!("{x:.1}")
    }
}

fn signed(x: f64) -> String {
    if x >= 0.0 {
        format!("+{}", count(x))
    } else {
        count(x)
    }
}

fn percent(change: f64, of: f64) -> String {
    if of == 0.0 {
        return "new".to_owned();
    }
    format!("{:+.1}%", 100.0 * change / of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yardstick_format::explain::VERSION;

    fn function(name: &str, own: [f64; 2], inclusive: [f64; 2], presence: &str) -> FunctionChange {
        FunctionChange {
            name: name.to_owned(),
            file: Some("benches/b.rs".to_owned()),
            line: Some(12),
            presence: presence.to_owned(),
            self_baseline: own[0],
            self_current: own[1],
            inclusive_baseline: inclusive[0],
            inclusive_current: inclusive[1],
        }
    }

    fn explained() -> ExplainFile {
        ExplainFile {
            version: VERSION,
            id: "fib/20".to_owned(),
            iterations: 2000,
            baseline_instructions: 12_000.0,
            current_instructions: 15_500.0,
            same: false,
            separated: true,
            debug_info: true,
            functions: vec![
                function("b::work", [1000.0, 4000.0], [1000.0, 4000.0], "both"),
                function("b::helper", [0.0, 600.0], [0.0, 600.0], "added"),
                function("b::old", [100.0, 0.0], [100.0, 0.0], "removed"),
                function("b::main", [10.0, 10.0], [11_000.0, 14_500.0], "both"),
            ],
        }
    }

    #[test]
    fn a_change_lists_the_functions_that_moved() {
        insta::assert_snapshot!(render(&explained()));
    }

    #[test]
    fn equal_totals_say_the_change_is_in_how_it_runs() {
        let mut e = explained();
        e.current_instructions = 12_005.0;
        e.same = true;
        e.separated = false;
        insta::assert_snapshot!(render(&e));
    }

    #[test]
    fn without_debug_info_it_says_how_to_get_it() {
        let mut e = explained();
        e.debug_info = false;
        for f in &mut e.functions {
            f.file = None;
            f.line = None;
        }
        e.functions.truncate(1);
        insta::assert_snapshot!(render(&e));
    }

    #[test]
    fn a_change_inlined_into_the_timed_loop_is_said_to_be() {
        let mut e = explained();
        e.functions[0].name = "yardstick::bencher::Bencher<M>::iter".to_owned();
        e.functions.truncate(1);
        let text = render(&e);
        assert!(text.contains("  note: yardstick::bencher::Bencher<M>::iter is the harness's timed loop: the routine was inlined into it"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.contains("note:")).count(),
            1,
            "{text}"
        );
        // Not when a function of the benchmark moved most.
        assert!(!render(&explained()).contains("timed loop"));
    }

    #[test]
    fn without_symbols_only_the_totals_are_compared() {
        let mut e = explained();
        e.functions.clear();
        insta::assert_snapshot!(render(&e));
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(count(1_234_567.4), "1,234,567");
        assert_eq!(count(-1_234.0), "-1,234");
        assert_eq!(count(999.6), "1,000");
        assert_eq!(count(12.24), "12.2");
        assert_eq!(signed(0.0), "+0.0");
        assert_eq!(percent(3500.0, 12_000.0), "+29.2%");
    }
}

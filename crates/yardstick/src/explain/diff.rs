//! The two profiles compared: instructions per iteration in total and per
//! function, self and inclusive, each function's change and which side it
//! is on.

use std::collections::BTreeMap;

use yardstick_format::callgrind::{at, CallgrindProfile};
use yardstick_format::explain::{ExplainFile, FunctionChange, SAME_WITHIN, VERSION};

/// The most functions kept in a file: the largest changes, self or
/// inclusive.
const KEPT: usize = 40;

/// One side's function: per-iteration costs and where it is.
#[derive(Debug, Clone, Default, PartialEq)]
struct Side {
    own: f64,
    inclusive: f64,
    file: Option<String>,
    line: Option<u64>,
}

/// Compares two profiles of `iters` iterations each.
///
/// # Errors
///
/// A profile without the `Ir` event (not Callgrind's default events).
pub(super) fn compare(
    id: &str,
    iters: u64,
    baseline: &super::count::Counted,
    current: &super::count::Counted,
) -> Result<ExplainFile, String> {
    let n = iters.max(1) as f64;
    let (a_total, a) = per_function(&baseline.profile, n)?;
    let (b_total, b) = per_function(&current.profile, n)?;
    let symbols = has_symbols(&a) && has_symbols(&b);
    let mut functions = if symbols {
        changes(&a, &b, [a_total, b_total])
    } else {
        Vec::new()
    };
    functions.truncate(KEPT);
    let debug_info = a.values().chain(b.values()).any(|s| s.file.is_some());
    Ok(ExplainFile {
        version: VERSION,
        id: id.to_owned(),
        iterations: iters,
        baseline_instructions: a_total,
        current_instructions: b_total,
        same: same(a_total, b_total),
        separated: baseline.separated && current.separated,
        debug_info,
        functions,
    })
}

/// Whether two totals agree within [`SAME_WITHIN`] of the baseline's.
pub(crate) fn same(a: f64, b: f64) -> bool {
    (b - a).abs() <= SAME_WITHIN * a.abs().max(f64::MIN_POSITIVE)
}

/// The total and each function's costs per iteration, functions named
/// without their symbol hash (two builds' hashes differ).
fn per_function(p: &CallgrindProfile, n: f64) -> Result<(f64, BTreeMap<String, Side>), String> {
    let ir = p
        .event_index("Ir")
        .ok_or("the Callgrind profile has no Ir (instructions) event")?;
    let mut out: BTreeMap<String, Side> = BTreeMap::new();
    for (name, costs) in &p.functions {
        let own = at(&costs.self_cost, ir) as f64 / n;
        let inclusive = costs.inclusive(ir) as f64 / n;
        if own == 0.0 && inclusive == 0.0 {
            continue;
        }
        let s = out.entry(without_hash(name).to_owned()).or_default();
        s.own += own;
        s.inclusive += inclusive;
        if s.file.is_none() {
            s.file = costs.file.clone().filter(|f| f != "???");
            s.line = costs.line;
        }
    }
    Ok((at(&p.totals, ir) as f64 / n, out))
}

/// `name` without rustc's legacy symbol hash (`::h` and 16 hex digits).
pub(super) fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((stem, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            stem
        }
        _ => name,
    }
}

/// Whether the profile names functions (a stripped binary's are bare
/// addresses, `0x…`, which differ between builds).
fn has_symbols(functions: &BTreeMap<String, Side>) -> bool {
    let named: f64 = functions
        .iter()
        .filter(|(name, _)| !name.starts_with("0x"))
        .map(|(_, s)| s.own)
        .sum();
    let all: f64 = functions.values().map(|s| s.own).sum();
    all == 0.0 || named >= 0.5 * all
}

/// Whether a function only encloses the counted window: no instruction of
/// its own on either side and, with what it calls, all of each side's
/// instructions (`main`, the runtime's start, the harness's frames above
/// the loop). Its change is the total's and says nothing more.
fn encloses(x: &Side, y: &Side, totals: [f64; 2]) -> bool {
    let whole = |s: &Side, total: f64| s.inclusive >= (1.0 - SAME_WITHIN) * total;
    x.own == 0.0 && y.own == 0.0 && whole(x, totals[0]) && whole(y, totals[1])
}

/// Every function whose self or inclusive cost moved, largest self change
/// first (then largest inclusive change, then name), without the frames
/// that only enclose the counted window.
fn changes(
    a: &BTreeMap<String, Side>,
    b: &BTreeMap<String, Side>,
    totals: [f64; 2],
) -> Vec<FunctionChange> {
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let mut out: Vec<FunctionChange> = names
        .into_iter()
        .filter_map(|name| {
            let (x, y) = (a.get(name), b.get(name));
            let presence = match (x, y) {
                (Some(_), Some(_)) => "both",
                (None, Some(_)) => "added",
                _ => "removed",
            };
            let (x, y) = (
                x.cloned().unwrap_or_default(),
                y.cloned().unwrap_or_default(),
            );
            let moved = (x.own != y.own || x.inclusive != y.inclusive) && !encloses(&x, &y, totals);
            let (file, line) = if y.file.is_some() {
                (y.file, y.line)
            } else {
                (x.file, x.line)
            };
            moved.then(|| FunctionChange {
                name: name.clone(),
                file,
                line,
                presence: presence.to_owned(),
                self_baseline: x.own,
                self_current: y.own,
                inclusive_baseline: x.inclusive,
                inclusive_current: y.inclusive,
            })
        })
        .collect();
    out.sort_by(|p, q| {
        let key = |f: &FunctionChange| (f.self_change().abs(), f.inclusive_change().abs());
        key(q)
            .partial_cmp(&key(p))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| p.name.cmp(&q.name))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::count::Counted;
    use super::*;

    /// A baseline of 10 iterations: `main` calls `work` (3 instructions of
    /// its own per call site) and `old` (gone in the current side).
    const BASELINE: &str = "version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
fl=(1) benches/b.rs
fn=(9) std::rt::lang_start
cfn=(1) b::main::h0123456789abcdef
calls=1 5
1 1300
fn=(1) b::main::h0123456789abcdef
5 100
cfn=(2) b::work::h1111111111111111
calls=10 20
6 1000
cfn=(3) b::old
calls=10 30
7 200
fn=(2)
20 1000
fn=(3)
30 200
";

    /// The current side: `work` does 3000 instead of 1000 (in 10
    /// iterations), `old` is gone and `new` came; `main` unchanged.
    const CURRENT: &str = "version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
fl=(1) benches/b.rs
fn=(9) std::rt::lang_start
cfn=(1) b::main::hfedcba9876543210
calls=1 5
1 3150
fn=(1) b::main::hfedcba9876543210
5 100
cfn=(2) b::work::h2222222222222222
calls=10 20
6 3000
cfn=(3) b::new
calls=10 40
7 50
fn=(2)
21 3000
fn=(3)
40 50
";

    fn counted(text: &str) -> Counted {
        Counted {
            profile: yardstick_format::callgrind::parse_str(text).unwrap(),
            separated: true,
        }
    }

    #[test]
    fn attributes_the_change_per_iteration_to_each_function() {
        let e = compare("g/b", 10, &counted(BASELINE), &counted(CURRENT)).unwrap();
        // Baseline: 100 + 1000 + 200 = 1300 in 10 iterations = 130 each;
        // current: 100 + 3000 + 50 = 3150, 315 each: +185.
        assert_eq!(e.baseline_instructions, 130.0);
        assert_eq!(e.current_instructions, 315.0);
        assert_eq!(e.change(), 185.0);
        assert!(!e.same);
        assert!(e.debug_info);
        let names: Vec<&str> = e.functions.iter().map(|f| f.name.as_str()).collect();
        // Self changes: work +200, old −20, new +5; main's self is the same
        // but its inclusive moved (130 → 315), so it is listed last.
        // lang_start only encloses everything (no self cost, all of each
        // total): not listed. main has self cost, so it is.
        assert_eq!(names, ["b::work", "b::old", "b::new", "b::main"]);
        let work = &e.functions[0];
        assert_eq!((work.self_baseline, work.self_current), (100.0, 300.0));
        assert_eq!(work.presence, "both");
        // Its first line, on the current side.
        assert_eq!(
            (work.file.as_deref(), work.line),
            (Some("benches/b.rs"), Some(21))
        );
        assert_eq!(e.functions[1].presence, "removed");
        assert_eq!(e.functions[2].presence, "added");
        let main = &e.functions[3];
        assert_eq!(main.self_change(), 0.0);
        assert_eq!(
            (main.inclusive_baseline, main.inclusive_current),
            (130.0, 315.0)
        );
        // The shares: work's +200 is 200/185 of the total change.
        assert!((work.self_change() / e.change() - 200.0 / 185.0).abs() < 1e-12);
    }

    #[test]
    fn totals_within_a_thousandth_are_the_same() {
        assert!(same(100_000.0, 100_099.0));
        assert!(same(100_000.0, 100_100.0));
        assert!(!same(100_000.0, 100_101.0));
        assert!(!same(100_000.0, 99_899.0));
        assert!(same(0.0, 0.0));
    }

    #[test]
    fn symbol_hashes_are_not_part_of_the_name() {
        assert_eq!(without_hash("a::b::h0123456789abcdef"), "a::b");
        assert_eq!(without_hash("a::b::hello"), "a::b::hello");
        assert_eq!(without_hash("a::hash_map"), "a::hash_map");
    }

    #[test]
    fn a_stripped_binary_compares_totals_only() {
        let stripped = BASELINE
            .replace("b::main::h0123456789abcdef", "0x0000000000401000")
            .replace("b::work::h1111111111111111", "0x0000000000401100")
            .replace("b::old", "0x0000000000401200");
        let e = compare("g/b", 10, &counted(&stripped), &counted(CURRENT)).unwrap();
        assert_eq!(e.baseline_instructions, 130.0);
        assert!(e.functions.is_empty());
    }

    #[test]
    fn a_profile_without_instructions_is_an_error() {
        let other = BASELINE.replace("events: Ir", "events: Dr");
        assert!(compare("g/b", 10, &counted(&other), &counted(CURRENT)).is_err());
    }
}

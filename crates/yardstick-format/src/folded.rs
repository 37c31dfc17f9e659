//! Folded stacks (`a;b;c cost`, the format flame graphs are drawn from)
//! of a Callgrind profile: what `yardstick-callgrind`'s flame graphs and
//! the report's differential flame graph of `--explain` are drawn from.
//!
//! Callgrind records callers and callees, not whole stacks. The stacks are
//! rebuilt from the measured function down: a function reached with cost `c`
//! on a path passes each callee `c × (call cost / function's inclusive cost)`
//! and keeps the rest as its own. Recursion stops at a function already on
//! the path. The root's total is the measured count exactly; deeper frames
//! are exact unless a function is called from several places with different
//! costs per call.

use std::collections::BTreeMap;

use crate::callgrind::{at, CallgrindProfile};

/// Folded stacks (`a;b;c cost`) for event `index`, rooted at the functions
/// whose name contains `root` and that no other such function calls (a
/// closure inside the benchmark is not a root of its own); all functions
/// without callers when none matches.
pub fn folded_stacks(profile: &CallgrindProfile, index: usize, root: &str) -> Vec<String> {
    let matching: Vec<&String> = profile
        .functions
        .keys()
        .filter(|name| name.contains(root))
        .collect();
    let mut roots: Vec<&String> = matching
        .iter()
        .copied()
        .filter(|name| {
            !matching
                .iter()
                .any(|m| m != name && profile.functions[*m].calls.contains_key(*name))
        })
        .collect();
    if roots.is_empty() {
        let called: std::collections::BTreeSet<&String> = profile
            .functions
            .values()
            .flat_map(|f| f.calls.keys())
            .collect();
        roots = profile
            .functions
            .keys()
            .filter(|n| !called.contains(n))
            .collect();
    }
    from_roots(profile, index, &roots)
}

/// Folded stacks of what a window of collection counted (Callgrind
/// started with `--collect-atstart=no` and switched on around a loop, as
/// `--explain` runs it), from the first frames below those that only
/// enclose the window: a frame with no instruction of its own whose
/// inclusive cost is the whole total (within 0.1%) is the runtime's start,
/// `main` or the harness's frames above the loop. Those are left out, which
/// also leaves out what their call graph cannot say (two functions named
/// `(below main)`, one in the loader and one in libc, read as one that
/// calls itself).
pub fn counted_stacks(profile: &CallgrindProfile, index: usize) -> Vec<String> {
    let total = at(&profile.totals, index) as f64;
    let encloses = |f: &crate::callgrind::FunctionCosts| {
        at(&f.self_cost, index) == 0 && f.inclusive(index) as f64 >= 0.999 * total
    };
    let enclosing: Vec<&String> = profile
        .functions
        .iter()
        .filter(|(_, f)| encloses(f))
        .map(|(name, _)| name)
        .collect();
    if enclosing.is_empty() {
        return folded_stacks(profile, index, "");
    }
    let roots: std::collections::BTreeSet<&String> = enclosing
        .iter()
        .flat_map(|name| profile.functions[*name].calls.keys())
        .filter(|callee| {
            profile
                .functions
                .get(*callee)
                .map_or(true, |f| !encloses(f))
        })
        .collect();
    from_roots(profile, index, &roots.into_iter().collect::<Vec<_>>())
}

fn from_roots(profile: &CallgrindProfile, index: usize, roots: &[&String]) -> Vec<String> {
    let mut out = BTreeMap::new();
    for &r in roots {
        let Some(f) = profile.functions.get(r) else {
            continue;
        };
        let total = f.inclusive(index) as f64;
        let mut stack = vec![r.as_str()];
        walk(profile, index, r, total, &mut stack, &mut out);
    }
    out.into_iter()
        .filter(|(_, c)| *c > 0)
        .map(|(s, c)| format!("{s} {c}"))
        .collect()
}

fn walk<'a>(
    profile: &'a CallgrindProfile,
    index: usize,
    name: &'a str,
    cost: f64,
    stack: &mut Vec<&'a str>,
    out: &mut BTreeMap<String, u64>,
) {
    let Some(f) = profile.functions.get(name) else {
        *out.entry(stack.join(";")).or_default() += cost.round() as u64;
        return;
    };
    let inclusive = f.inclusive(index) as f64;
    let scale = if inclusive > 0.0 {
        cost / inclusive
    } else {
        0.0
    };
    let mut children = 0.0;
    for (callee, costs) in &f.calls {
        let c = at(costs, index) as f64 * scale;
        if c <= 0.0 {
            continue;
        }
        children += c;
        if stack.contains(&callee.as_str()) || stack.len() > 256 {
            stack.push(callee);
            *out.entry(stack.join(";")).or_default() += c.round() as u64;
            stack.pop();
        } else {
            stack.push(callee);
            walk(profile, index, callee, c, stack, out);
            stack.pop();
        }
    }
    let own = (cost - children).max(0.0).round() as u64;
    *out.entry(stack.join(";")).or_default() += own;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::callgrind::parse_str;

    #[test]
    fn a_counted_window_starts_below_the_frames_that_only_enclose_it() {
        // Two functions named `(below main)` (the loader's and libc's) read
        // as one that calls itself; `main` reaches `iter`, the loop (2 of
        // its own), which calls `work` (8). All 10 are the window's.
        let p = parse_str(
            "events: Ir
fn=(1) (below main)
cfn=(2) __libc_start_main
calls=1 1
1 10
fn=(2)
cfn=(1)
calls=1 1
1 10
fn=(3) (below main)
cfn=(4) main
calls=1 1
1 10
fn=(4)
cfn=(5) iter
calls=1 1
1 10
fn=(5)
1 2
cfn=(6) work
calls=5 1
1 8
fn=(6)
1 8
totals: 10
",
        )
        .unwrap();
        assert_eq!(counted_stacks(&p, 0), vec!["iter 2", "iter;work 8"]);
    }

    const PROFILE: &str = "events: Ir
fn=measure
1 10
cfn=fib
calls=1 1
1 90
fn=fib
1 50
cfn=helper
calls=3 1
1 40
fn=helper
1 40
";

    #[test]
    fn stacks_add_up_to_the_measured_count() {
        let p = parse_str(PROFILE).unwrap();
        let stacks = folded_stacks(&p, 0, "measure");
        assert_eq!(
            stacks,
            vec!["measure 10", "measure;fib 50", "measure;fib;helper 40"]
        );
    }

    #[test]
    fn a_closure_inside_the_root_is_no_root_of_its_own() {
        let p = parse_str(
            "events: Ir
fn=b::measured
1 10
cfn=b::measured::{{closure}}
calls=2 1
1 6
fn=b::measured::{{closure}}
1 6
",
        )
        .unwrap();
        // 10 + 6 = 16 in all, as the benchmark's total: the closure counted once.
        assert_eq!(
            folded_stacks(&p, 0, "measured"),
            vec!["b::measured 10", "b::measured;b::measured::{{closure}} 6"]
        );
    }
}

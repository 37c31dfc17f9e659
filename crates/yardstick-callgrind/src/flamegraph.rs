//! Flamegraphs of callgrind output: folded stacks from the call graph, drawn
//! by `inferno`.
//!
//! Callgrind records callers and callees, not whole stacks. The stacks are
//! rebuilt from the measured function down: a function reached with cost `c`
//! on a path passes each callee `c × (call cost / function's inclusive cost)`
//! and keeps the rest as its own. Recursion stops at a function already on
//! the path. The root's total is the measured count exactly; deeper frames
//! are exact unless a function is called from several places with different
//! costs per call.

use std::collections::BTreeMap;

use crate::parser::{at, CallgrindProfile};

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
    let mut out = BTreeMap::new();
    for r in roots {
        let total = profile.functions[r].inclusive(index) as f64;
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

/// Draws `stacks` as an SVG.
///
/// # Errors
///
/// When inferno fails (it reports why).
#[cfg(feature = "flamegraph")]
pub fn draw(
    stacks: &[String],
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> Result<Vec<u8>, String> {
    let mut opts = options(style, title, count_name);
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, stacks.iter().map(String::as_str), &mut svg)
        .map_err(|e| format!("flamegraph: {e}"))?;
    Ok(svg)
}

/// Draws the differential flamegraph of `old` → `new` (red: grew, blue:
/// shrank; reversed on the old shape with `negate_differential`).
///
/// # Errors
///
/// When inferno fails (it reports why).
#[cfg(feature = "flamegraph")]
pub fn draw_diff(
    old: &[String],
    new: &[String],
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> Result<Vec<u8>, String> {
    let before = old.join("\n");
    let after = new.join("\n");
    let diff_opts = inferno::differential::Options {
        normalize: style.normalize_differential,
        ..Default::default()
    };
    let mut folded = Vec::new();
    inferno::differential::from_readers(
        diff_opts,
        before.as_bytes(),
        after.as_bytes(),
        &mut folded,
    )
    .map_err(|e| format!("differential flamegraph: {e}"))?;
    let folded = String::from_utf8_lossy(&folded).into_owned();
    let mut opts = options(style, title, count_name);
    opts.negate_differentials = style.negate_differential;
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, folded.lines(), &mut svg)
        .map_err(|e| format!("differential flamegraph: {e}"))?;
    Ok(svg)
}

/// inferno's options for `style`.
#[cfg(feature = "flamegraph")]
fn options<'a>(
    style: &crate::config::FlamegraphConfig,
    title: &str,
    count_name: &str,
) -> inferno::flamegraph::Options<'a> {
    let mut opts = inferno::flamegraph::Options::default();
    opts.title = title.to_owned();
    opts.count_name = count_name.to_owned();
    opts.subtitle = style.subtitle.clone();
    if style.direction == crate::config::Direction::TopToBottom {
        opts.direction = inferno::flamegraph::Direction::Inverted;
    }
    if let Some(w) = style.min_width {
        opts.min_width = w;
    }
    opts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_str;

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

    #[cfg(feature = "flamegraph")]
    #[test]
    fn draws_svg() {
        let p = parse_str(PROFILE).unwrap();
        let stacks = folded_stacks(&p, 0, "measure");
        let plain = crate::config::FlamegraphConfig::default();
        let svg = draw(&stacks, &plain, "t", "Ir").unwrap();
        let text = String::from_utf8_lossy(&svg);
        assert!(text.contains("<svg"));
        assert!(!text.contains("under the title"));
        let diff = draw_diff(&stacks, &stacks, &plain, "t", "Ir").unwrap();
        assert!(String::from_utf8_lossy(&diff).contains("<svg"));
        // The options reach inferno: the subtitle is drawn, the inverted
        // graph differs from the plain one.
        let mut styled = crate::config::FlamegraphConfig::default();
        styled
            .subtitle("under the title")
            .direction(crate::config::Direction::TopToBottom)
            .min_width(0.0)
            .negate_differential(true)
            .normalize_differential(true);
        let svg = draw(&stacks, &styled, "t", "Ir").unwrap();
        assert!(String::from_utf8_lossy(&svg).contains("under the title"));
        let mut inverted = crate::config::FlamegraphConfig::default();
        inverted.direction(crate::config::Direction::TopToBottom);
        assert_ne!(
            draw(&stacks, &inverted, "t", "Ir").unwrap(),
            draw(&stacks, &plain, "t", "Ir").unwrap()
        );
        assert!(draw_diff(&stacks, &stacks, &styled, "t", "Ir").is_ok());
    }
}

//! The differential flame graph of `--explain`: the current side's call
//! stacks (folded, from its Callgrind profile), each frame as wide as its
//! instructions, coloured by how much its own instructions changed from
//! the baseline's: red grew, blue shrank, grey unchanged (Brendan Gregg's
//! differential flame graphs, as `inferno` draws them; drawn here with the
//! report's own SVG writer, so the harness gains no dependency).

use std::collections::BTreeMap;
use std::fmt::Write;

use yardstick_format::units::{short, signed_short};

use crate::escape;
use crate::svg::Svg;

/// Width of the graph.
const WIDTH: f64 = 960.0;
/// Height of a frame.
const ROW: f64 = 17.0;
/// Frames deeper than this are left out (the stacks are rebuilt from
/// Callgrind's call graph, and a recursion is cut there anyway).
const DEPTH: usize = 48;
/// Frames narrower than this (in pixels) are left out, as flame graphs do.
const MIN_WIDTH: f64 = 0.1;
/// Room for the title above the frames.
const TOP: f64 = 30.0;

/// One frame: instructions on each side (the frame with what it calls),
/// its own on each side, and the frames it calls, by name.
#[derive(Default)]
struct Frame {
    total: [f64; 2],
    own: [f64; 2],
    children: BTreeMap<String, Frame>,
}

impl Frame {
    fn add(&mut self, stack: &[&str], side: usize, cost: f64) {
        self.total[side] += cost;
        match stack.split_first() {
            None => self.own[side] += cost,
            Some((name, rest)) => self
                .children
                .entry((*name).to_owned())
                .or_default()
                .add(rest, side, cost),
        }
    }
}

/// Reads folded stacks (`a;b;c 123`) into `root` as side `side`; lines
/// that are not stacks are skipped.
fn fold_into(root: &mut Frame, stacks: &[String], side: usize, per: f64) {
    for line in stacks {
        let Some((stack, cost)) = line.rsplit_once(' ') else {
            continue;
        };
        let Ok(cost) = cost.parse::<f64>() else {
            continue;
        };
        let names: Vec<&str> = stack.split(';').collect();
        root.add(&names, side, cost / per);
    }
}

/// The differential flame graph of `baseline` → `current` (folded stacks
/// of `iterations` iterations each; the tooltips say per iteration).
/// Frames that only enclose the counted loop (no instruction of their own
/// and a single callee, on both sides) are folded into the first frame
/// that does something, so the graph starts at the loop. `None` when the
/// current side counted nothing.
pub(crate) fn differential(
    baseline: &[String],
    current: &[String],
    iterations: u64,
) -> Option<String> {
    let per = iterations.max(1) as f64;
    let mut root = Frame::default();
    fold_into(&mut root, baseline, 0, per);
    fold_into(&mut root, current, 1, per);
    let mut top = &root;
    let mut name = "all".to_owned();
    while top.own == [0.0, 0.0] && top.children.len() == 1 {
        let (n, only) = top.children.iter().next()?;
        name.clone_from(n);
        top = only;
    }
    if top.total[1] <= 0.0 {
        return None;
    }
    let depth = depth_of(top, 0).min(DEPTH);
    let height = TOP + (depth as f64 + 1.0) * ROW + 22.0;
    let mut svg = Svg::new(
        WIDTH,
        height,
        "Differential flame graph: red grew, blue shrank",
    );
    svg.text(
        WIDTH / 2.0,
        18.0,
        "middle",
        "title",
        "Instructions per iteration: width this run's, colour the change of each frame's own (red grew, blue shrank)",
    );
    let scale = WIDTH / top.total[1];
    let most = largest_own_change(top).max(f64::MIN_POSITIVE);
    let mut draw = Draw {
        svg: &mut svg,
        scale,
        most,
        bottom: height - 22.0,
    };
    draw.frame(&name, top, 0.0, 0);
    let _ = write!(
        svg.buf_mut(),
        "<text x=\"4\" y=\"{}\" class=\"note\">hover a frame for its instructions per iteration on both sides</text>",
        height - 6.0
    );
    Some(svg.finish())
}

fn depth_of(f: &Frame, d: usize) -> usize {
    if d >= DEPTH {
        return d;
    }
    f.children
        .values()
        .map(|c| depth_of(c, d + 1))
        .max()
        .unwrap_or(d)
}

fn largest_own_change(f: &Frame) -> f64 {
    f.children
        .values()
        .map(largest_own_change)
        .fold((f.own[1] - f.own[0]).abs(), f64::max)
}

struct Draw<'a> {
    svg: &'a mut Svg,
    scale: f64,
    most: f64,
    /// The bottom edge of the root's row (flames grow upwards).
    bottom: f64,
}

impl Draw<'_> {
    fn frame(&mut self, name: &str, f: &Frame, x: f64, depth: usize) {
        let w = f.total[1] * self.scale;
        if w < MIN_WIDTH || depth >= DEPTH {
            return;
        }
        let y = self.bottom - (depth as f64 + 1.0) * ROW;
        let tip = tooltip(name, f);
        let _ = write!(
            self.svg.buf_mut(),
            "<g><title>{}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"2\" fill=\"{}\" stroke=\"#fff\" stroke-width=\".5\"/>",
            escape::html(&tip),
            x,
            y,
            w,
            ROW - 1.0,
            colour(f.own[1] - f.own[0], self.most)
        );
        // About 7 pixels a character at 11 px.
        let fits = ((w - 6.0) / 6.6).floor();
        if fits >= 3.0 {
            let shown = clip(name, fits as usize);
            let _ = write!(
                self.svg.buf_mut(),
                "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\">{}</text>",
                x + 3.0,
                y + ROW - 5.0,
                escape::html(&shown)
            );
        }
        self.svg.raw("</g>");
        let mut at = x;
        for (child, c) in &f.children {
            self.frame(child, c, at, depth + 1);
            at += c.total[1] * self.scale;
        }
    }
}

/// `name` cut to `n` characters, with `..` when cut.
fn clip(name: &str, n: usize) -> String {
    if name.chars().count() <= n {
        return name.to_owned();
    }
    let kept: String = name.chars().take(n.saturating_sub(2)).collect();
    format!("{kept}..")
}

/// The frame's instructions per iteration on both sides, with and without
/// what it calls.
fn tooltip(name: &str, f: &Frame) -> String {
    let [a, b] = f.total;
    let [sa, sb] = f.own;
    format!(
        "{name}\nwith what it calls: {} → {} ({})\nits own: {} → {} ({})",
        short(a),
        short(b),
        signed_short(b - a),
        short(sa),
        short(sb),
        signed_short(sb - sa)
    )
}

/// Red for growth, blue for shrinking, in proportion to the largest change
/// of the graph; a light grey when unchanged.
fn colour(change: f64, most: f64) -> String {
    let t = (change.abs() / most).clamp(0.0, 1.0);
    // From grey (220, 220, 220) to red (220, 38, 38) or blue (37, 99, 235).
    let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    let (r, g, b) = if change > 0.0 {
        (mix(220.0, 220.0), mix(220.0, 38.0), mix(220.0, 38.0))
    } else if change < 0.0 {
        (mix(220.0, 37.0), mix(220.0, 99.0), mix(220.0, 235.0))
    } else {
        (220, 220, 220)
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stacks(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn frames_are_as_wide_as_this_run_and_coloured_by_their_own_change() {
        // 10 iterations. `main` only encloses `loop`; `loop` keeps 100 of
        // its own and calls `work` (300 -> 900) and `old` (200, gone).
        let base = stacks(&["main;loop 100", "main;loop;work 300", "main;loop;old 200"]);
        let cur = stacks(&["main;loop 100", "main;loop;work 900"]);
        let svg = differential(&base, &cur, 10).unwrap();
        // `main` is folded away: the graph starts at `loop`, 100 per
        // iteration now, the whole width.
        assert!(!svg.contains(">main<"), "{svg}");
        assert!(svg.contains("<title>loop\nwith what it calls: 60.000 → 100.00 (+40.000)\nits own: 10.000 → 10.000 (+0.0000)</title><rect x=\"0.0\" y=\""), "{svg}");
        // `work` grew by the most: full red; 90 of 100 per iteration is
        // 0.9 × 960 = 864 px wide.
        assert!(
            svg.contains("width=\"864.0\" height=\"16.0\" rx=\"2\" fill=\"#dc2626\""),
            "{svg}"
        );
        assert!(svg.contains("its own: 30.000 → 90.000 (+60.000)"), "{svg}");
        // `old` ran no instruction in this run: no width, not drawn.
        assert!(!svg.contains("old"), "{svg}");
        // Unchanged `loop`: grey.
        assert!(svg.contains("fill=\"#dcdcdc\""), "{svg}");
    }

    #[test]
    fn shrinking_is_blue_and_nothing_counted_is_no_graph() {
        let svg = differential(&stacks(&["a;b 400"]), &stacks(&["a;b 200"]), 1).unwrap();
        assert!(svg.contains("fill=\"#2563eb\""), "{svg}");
        assert!(differential(&stacks(&["a 10"]), &[], 1).is_none());
        assert!(differential(&[], &stacks(&["not a stack"]), 1).is_none());
    }

    #[test]
    fn names_are_escaped_and_clipped_to_their_frame() {
        assert_eq!(clip("core::ptr::drop_in_place", 8), "core::..");
        assert_eq!(clip("main", 8), "main");
        let svg = differential(&[], &stacks(&["<T as Trait>::f 5", "x 5"]), 1).unwrap();
        assert!(svg.contains("&lt;T as Trait&gt;::f"), "{svg}");
        assert!(!svg.contains("<T as"), "{svg}");
    }
}

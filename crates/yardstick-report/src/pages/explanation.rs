//! The benchmark page's section on what `--explain` found, right after the
//! change and its verdict: the instructions per iteration of both sides,
//! the differential flame graph (`explain.svg`) and the functions whose
//! own instructions moved most.

use std::fmt::Write;

use yardstick_format::explain::{ExplainFile, FunctionChange};

use super::{Files, Page};
use crate::escape;
use crate::plots::flame;
use crate::units::short;
use crate::Explanation;
use yardstick_format::units::signed_short;

/// Functions listed, as the terminal lists them.
const LISTED: usize = 8;

/// The file the flame graph is written to, beside the page.
pub(crate) const FLAME_GRAPH: &str = "explain.svg";

/// Writes the section.
pub(crate) fn section(page: &mut Page, files: &mut Files, x: &Explanation) {
    let e = &x.file;
    page.section(
        "What changed in the code it runs",
        &format!(
            "--explain: {} iteration{} under Callgrind on each side",
            e.iterations,
            if e.iterations == 1 { "" } else { "s" }
        ),
    );
    let (a, b) = (e.baseline_instructions, e.current_instructions);
    if e.same {
        page.raw(&format!(
            "<p>Both sides execute the same instructions ({} per iteration, within 0.1%): the measured change comes from how they run (code layout, memory placement, the machine), not from what they run.</p>",
            short(b)
        ));
    } else {
        page.raw(&format!(
            "<p><b>Instructions per iteration</b>: {} → {} ({}, {})</p>",
            short(a),
            short(b),
            signed_short(b - a),
            percent(b - a, a)
        ));
        let svg = flame::differential(&x.baseline, &x.current, e.iterations);
        let file = svg.map(|svg| {
            files.push((FLAME_GRAPH.to_owned(), svg));
            FLAME_GRAPH
        });
        page.figure(
            file,
            "differential flame graph",
            "<b>Differential flame graph</b> of this run's binary against the baseline's: each frame as wide as its instructions in this run, red where its own instructions grew, blue where they shrank (hover a frame for both sides' counts). Functions that ran only in the baseline have no width here; the table lists them.",
            "The Callgrind profiles of the explanation are gone: the table alone remains.",
        );
        page.raw(&table(e));
    }
    notes(page, e);
    page.end_section();
}

/// The functions whose own instructions moved most, with the share of the
/// total change each explains.
fn table(e: &ExplainFile) -> String {
    let rows = e.ranked_by(FunctionChange::self_change);
    let mut t = String::from("<div class=\"tw\"><table><tr><th class=\"l\">Function (own instructions)</th><th>Change per iteration</th><th>Share of the change</th><th>With what it calls</th><th class=\"l\">Where</th></tr>");
    let total = e.change();
    for f in rows.into_iter().take(LISTED) {
        let share = if total == 0.0 {
            String::new()
        } else {
            format!("{:.1}%", 100.0 * f.self_change() / total)
        };
        let mut name = escape::html(&f.name);
        if f.presence != "both" {
            let _ = write!(
                name,
                " <span class=\"dim\">({})</span>",
                escape::html(&f.presence)
            );
        }
        let place = match (&f.file, f.line) {
            (Some(file), Some(l)) => format!("<code>{}:{l}</code>", escape::html(file)),
            _ => String::new(),
        };
        let _ = write!(
            t,
            "<tr><td class=\"l\"><code>{name}</code></td><td class=\"{}\">{}</td><td>{share}</td><td>{}</td><td class=\"l\">{place}</td></tr>",
            if f.self_change() > 0.0 { "up" } else { "down" },
            signed_short(f.self_change()),
            signed_short(f.inclusive_change()),
        );
    }
    t.push_str("</table></div>");
    t
}

fn notes(page: &mut Page, e: &ExplainFile) {
    if !e.separated {
        page.raw("<p class=\"legend\">The routine times itself (<code>iter_custom</code>): what it does around its own timing is counted too, the loop cannot be told apart.</p>");
    }
    if let Some(f) = e.change_in_timed_loop().filter(|_| !e.same) {
        page.raw(&format!(
            "<p class=\"legend\"><code>{}</code> is the harness's timed loop: the routine was inlined into it, so the change is in code inlined there (its file:line points into that code).</p>",
            escape::html(&f.name)
        ));
    }
    if !e.same && e.functions.is_empty() {
        page.raw("<p class=\"legend\">No function names (a binary without symbols): only the totals are compared.</p>");
    }
    if !e.debug_info && !e.functions.is_empty() {
        page.raw("<p class=\"legend\">No file:line, the binaries have no debug info: add <code>[profile.bench] debug = \"line-tables-only\"</code> to Cargo.toml.</p>");
    }
}

fn percent(change: f64, of: f64) -> String {
    if of == 0.0 {
        "n/a".to_owned()
    } else {
        format!("{:+.1}%", 100.0 * change / of)
    }
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

    fn explanation(same: bool) -> Explanation {
        Explanation {
            file: ExplainFile {
                version: VERSION,
                id: "g/b".to_owned(),
                iterations: 10,
                baseline_instructions: 60.0,
                current_instructions: 100.0,
                same,
                separated: true,
                debug_info: true,
                functions: vec![
                    function("b::old", [20.0, 0.0], [20.0, 0.0], "removed"),
                    function("b::work<&T>", [30.0, 90.0], [30.0, 90.0], "both"),
                ],
            },
            baseline: vec![
                "loop 100".into(),
                "loop;work 300".into(),
                "loop;old 200".into(),
            ],
            current: vec!["loop 100".into(), "loop;work 900".into()],
        }
    }

    fn render(x: &Explanation) -> (String, Files) {
        let mut page = Page::new("g/b", "", &[]);
        let mut files = Files::new();
        section(&mut page, &mut files, x);
        (page.finish(), files)
    }

    #[test]
    fn the_totals_the_flame_graph_and_the_functions_that_moved() {
        let (html, files) = render(&explanation(false));
        // 60 -> 100 is +40, +66.7%.
        assert!(
            html.contains("<b>Instructions per iteration</b>: 60.000 → 100.00 (+40.000, +66.7%)"),
            "{html}"
        );
        assert!(html.contains("<img src=\"explain.svg\""), "{html}");
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].0, FLAME_GRAPH);
        // Largest own change first: work +60 is 150% of +40, old −20 is
        // −50%; names escaped.
        let work = html.find("b::work&lt;&amp;T&gt;").unwrap();
        let old = html.find("b::old").unwrap();
        assert!(work < old, "{html}");
        assert!(
            html.contains("<td class=\"up\">+60.000</td><td>150.0%</td>"),
            "{html}"
        );
        assert!(
            html.contains(
                "(removed)</span></code></td><td class=\"down\">-20.000</td><td>-50.0%</td>"
            ),
            "{html}"
        );
        assert!(html.contains("<code>benches/b.rs:12</code>"), "{html}");
    }

    #[test]
    fn the_same_instructions_are_one_sentence() {
        let (html, files) = render(&explanation(true));
        assert!(
            html.contains(
                "Both sides execute the same instructions (100.00 per iteration, within 0.1%)"
            ),
            "{html}"
        );
        assert!(files.is_empty());
        assert!(!html.contains("<table"), "{html}");
    }
}

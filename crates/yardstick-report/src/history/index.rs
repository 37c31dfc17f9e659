//! `index.html`: every series with its sparkline, latest value, change
//! since the previous run and since the reference, and its last shift.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::chart::scale_of;
use super::{
    change_class, page_name, pct, reference_point, search_box, short_commit, utc, HistorySite,
    Series, FILTER_SCRIPT,
};
use crate::escape;
use crate::pages::{card, Page};
use crate::svg::sparkline;

/// Runs a sparkline shows, at most.
const SPARK_RUNS: usize = 80;

/// Renders the index.
pub(crate) fn render(site: &HistorySite) -> String {
    let benchmarks: BTreeSet<&str> = site.series.iter().map(|s| s.benchmark.as_str()).collect();
    let machines: BTreeSet<&str> = site.series.iter().map(|s| s.machine.as_str()).collect();
    let mut page = Page::new(
        &site.title,
        &format!("{} runs", site.runs.len()),
        &[
            ("index.html".to_owned(), "History".to_owned()),
            ("regressions.html".to_owned(), "Level shifts".to_owned()),
        ],
    );
    page.raw("<section><div class=\"cards\">");
    let newest = site.runs.iter().max_by_key(|r| (r.time, r.id));
    page.raw(&card(
        "Benchmarks",
        &benchmarks.len().to_string(),
        &format!(
            "on {} machine{}: {}",
            machines.len(),
            if machines.len() == 1 { "" } else { "s" },
            machines.iter().copied().collect::<Vec<_>>().join(", ")
        ),
    ));
    page.raw(&card(
        "Runs",
        &site.runs.len().to_string(),
        &newest.map_or_else(String::new, |r| {
            format!("latest {} at {}", utc(r.time), short_commit(r))
        }),
    ));
    let (up, down) = shift_counts(site);
    page.raw(&format!(
        "<a class=\"cardlink\" href=\"regressions.html\">{}</a>",
        card(
            "Level shifts",
            &(up + down).to_string(),
            &format!("{up} slower, {down} faster — see all")
        )
    ));
    page.raw("</div></section>");
    let reference = site.reference.as_deref().unwrap_or("");
    page.section(
        "Benchmarks",
        &if reference.is_empty() {
            "changes are coloured when the two runs' intervals do not overlap".to_owned()
        } else {
            format!("reference: the newest run on branch or label '{reference}'; changes are coloured when the intervals do not overlap")
        },
    );
    page.raw(&search_box("Filter by benchmark or machine…"));
    page.raw(&table(site));
    page.end_section();
    page.raw(FILTER_SCRIPT);
    page.finish()
}

fn shift_counts(site: &HistorySite) -> (usize, usize) {
    let all = site.series.iter().flat_map(|s| &s.shifts);
    let up = all.clone().filter(|s| s.size > 0.0).count();
    (up, all.count() - up)
}

fn table(site: &HistorySite) -> String {
    let reference = site
        .reference
        .as_deref()
        .map_or_else(|| "reference".to_owned(), |r| format!("vs {r}"));
    let mut t = format!(
        "<div class=\"tw\"><table class=\"hist\"><tr><th class=\"l\">Benchmark</th><th class=\"l\">Machine</th><th class=\"l\">Trend</th><th>Runs</th><th>Latest</th><th>vs previous</th><th>{}</th><th class=\"l\">Last shift</th></tr>",
        escape::html(&reference)
    );
    for s in &site.series {
        row(&mut t, site, s);
    }
    t.push_str("</table></div>");
    t
}

fn row(t: &mut String, site: &HistorySite, s: &Series) {
    let Some(last) = s.points.last() else {
        return;
    };
    let scale = scale_of(s);
    let n = s.points.len();
    let from = n.saturating_sub(SPARK_RUNS);
    let values: Vec<f64> = s.points[from..].iter().map(|p| p.point).collect();
    let marks: Vec<usize> = s
        .shifts
        .iter()
        .filter(|x| x.index >= from)
        .map(|x| x.index - from)
        .collect();
    let previous = if n >= 2 {
        change(&s.points[n - 2], last)
    } else {
        String::new()
    };
    let vs_ref = match reference_point(site, s) {
        Some(i) if i + 1 < n => change(&s.points[i], last),
        Some(_) => "<span class=\"dim\">is the reference</span>".to_owned(),
        None if site.reference.is_some() => "<span class=\"dim\">no run</span>".to_owned(),
        None => String::new(),
    };
    let shift = s.shifts.last().map_or_else(String::new, |x| {
        let run = &site.runs[s.points[x.index].run];
        format!(
            "<span class=\"{}\">{}</span> at {}",
            if x.size > 0.0 { "up" } else { "down" },
            escape::html(&pct(x.size)),
            escape::html(&short_commit(run))
        )
    });
    // Page names and anchors are plain letters, digits, `-`, `_` and `.`.
    let href = format!("b/{}#m-{}", page_name(&s.benchmark), anchor(&s.machine));
    let _ = write!(
        t,
        "<tr data-q=\"{q}\"><td class=\"l\"><a href=\"{}\">{}</a></td><td class=\"l dim\">{}</td><td class=\"l spark\">{}</td><td>{n}</td><td class=\"est\">{}</td><td>{previous}</td><td>{vs_ref}</td><td class=\"l\">{shift}</td></tr>",
        escape::html(&href),
        escape::html(&s.benchmark),
        escape::html(&s.machine),
        sparkline(&values, &marks, 140.0, 26.0),
        escape::html(&scale.format(last.point)),
        q = escape::html(&format!("{} {}", s.benchmark, s.machine).to_lowercase()),
    );
}

/// The change from `old` to `new`, coloured when the intervals are apart.
pub(crate) fn change(old: &super::SeriesPoint, new: &super::SeriesPoint) -> String {
    format!(
        "<span class=\"{}\">{}</span>",
        change_class(old, new),
        escape::html(&pct(new.point / old.point - 1.0))
    )
}

/// An HTML id for a machine's section: its name with anything but letters
/// and digits turned into `-`.
pub(crate) fn anchor(machine: &str) -> String {
    machine
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

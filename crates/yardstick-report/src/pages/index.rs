//! The index of every benchmark and group, and the summary table it shares
//! with the group pages.

use std::fmt::Write;

use super::{card, Page};
use crate::disk::StoredBenchmark;
use crate::escape;
use crate::units::{format_change, format_throughput, Scale};

/// Noise threshold used to colour changes read back from disk (the
/// verdict itself is not saved): Criterion.rs's default, 1 %.
const NOISE: f64 = 0.01;

/// Renders `<home>/report/index.html`.
pub(crate) fn render(benchmarks: &[StoredBenchmark], problems: &[String]) -> String {
    let mut page = Page::new(
        "Benchmark report",
        &format!(
            "{} benchmark{}",
            benchmarks.len(),
            if benchmarks.len() == 1 { "" } else { "s" }
        ),
        &[("index.html".to_owned(), "All benchmarks".to_owned())],
    );
    let groups = group_names(benchmarks);
    let regressed = benchmarks
        .iter()
        .filter(|b| change_class(b) == Some("up"))
        .count();
    let improved = benchmarks
        .iter()
        .filter(|b| change_class(b) == Some("down"))
        .count();
    page.raw("<section><div class=\"cards\">");
    page.raw(&card(
        "Benchmarks",
        &benchmarks.len().to_string(),
        &format!("in {} groups", groups.len()),
    ));
    page.raw(&card(
        "Slower than their baseline",
        &regressed.to_string(),
        "change interval above +1%",
    ));
    page.raw(&card(
        "Faster than their baseline",
        &improved.to_string(),
        "change interval below -1%",
    ));
    page.raw("</div></section>");
    if !problems.is_empty() {
        page.section("Unreadable results", "");
        let mut t = String::from("<ul>");
        for p in problems {
            let _ = write!(t, "<li>{}</li>", escape::html(p));
        }
        t.push_str("</ul>");
        page.raw(&t);
        page.end_section();
    }
    page.section("Benchmarks", "");
    if benchmarks.is_empty() {
        page.raw(
            "<p class=\"dim\">No saved results were found. Run <code>cargo bench</code> first.</p>",
        );
    } else {
        page.raw(&table(benchmarks, "../", true));
    }
    page.end_section();
    page.finish()
}

/// The groups, in order of first appearance, with their members.
pub(crate) fn group_names(benchmarks: &[StoredBenchmark]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for b in benchmarks {
        if !names.contains(&b.record.group_id.as_str()) {
            names.push(&b.record.group_id);
        }
    }
    names
}

/// A table of benchmarks with their typical time, throughput and change;
/// `to_home` is the relative path from the page to the home directory.
/// With `by_group`, a header row per group links to its page.
pub(crate) fn table(benchmarks: &[StoredBenchmark], to_home: &str, by_group: bool) -> String {
    let mut t = String::from(
        "<div class=\"tw\"><table><tr><th class=\"l\">Benchmark</th><th>Lower bound</th><th>Estimate</th><th>Upper bound</th><th>Throughput</th><th>Change</th></tr>",
    );
    let groups = group_names(benchmarks);
    for g in groups {
        let members: Vec<&StoredBenchmark> = benchmarks
            .iter()
            .filter(|b| b.record.group_id == g)
            .collect();
        let group_dir = members.iter().find_map(|b| b.group_dir());
        let shown_in_group = by_group && members.len() > 1;
        if shown_in_group {
            let head = match group_dir {
                Some(d) => format!(
                    "<a href=\"{to_home}{}/report/{}\">{}</a>",
                    escape::href(d),
                    crate::GROUP_PAGE,
                    escape::html(g)
                ),
                None => escape::html(g),
            };
            let _ = write!(t, "<tr class=\"group\"><td colspan=\"6\">{head}</td></tr>");
        }
        for b in members {
            row(&mut t, b, to_home, shown_in_group || !by_group);
        }
    }
    t.push_str("</table></div>");
    t
}

fn row(t: &mut String, b: &StoredBenchmark, to_home: &str, short_name: bool) {
    let e = &b.estimates;
    let typical = e.slope.as_ref().unwrap_or(&e.mean);
    let scale = Scale::for_value(&b.unit, typical.point_estimate);
    let name = if short_name {
        let prefix = format!("{}/", b.record.group_id);
        b.record
            .full_id
            .strip_prefix(&prefix)
            .unwrap_or(&b.record.full_id)
            .to_owned()
    } else {
        b.record.full_id.clone()
    };
    let indent = if short_name {
        " style=\"padding-left:28px\""
    } else {
        ""
    };
    let thrpt = match (&b.record.throughput, b.unit.as_str()) {
        (Some(tp), "ns") => format_throughput(tp, typical.point_estimate).join(" · "),
        _ => String::new(),
    };
    let change = match &b.change {
        Some(c) => {
            let class = change_class(b).unwrap_or("dim");
            format!(
                "<span class=\"{class}\">{}</span>",
                escape::html(&format_change(c.mean.point_estimate))
            )
        }
        None => String::new(),
    };
    let _ = write!(
        t,
        "<tr><td class=\"l\"{indent}><a href=\"{to_home}{}/report/index.html\">{}</a></td><td class=\"dim\">{}</td><td class=\"est\">{}</td><td class=\"dim\">{}</td><td>{}</td><td>{change}</td></tr>",
        escape::href(&b.record.directory_name),
        escape::html(&name),
        escape::html(&scale.format(typical.confidence_interval.lower_bound)),
        escape::html(&scale.format(typical.point_estimate)),
        escape::html(&scale.format(typical.confidence_interval.upper_bound)),
        escape::html(&thrpt),
    );
}

/// `up` when the saved change's interval lies wholly above the noise
/// threshold, `down` when wholly below, `None` otherwise.
fn change_class(b: &StoredBenchmark) -> Option<&'static str> {
    let ci = b.change.as_ref()?.mean.confidence_interval;
    if ci.lower_bound > NOISE {
        Some("up")
    } else if ci.upper_bound < -NOISE {
        Some("down")
    } else {
        None
    }
}

//! The page of a benchmark group: a violin per benchmark, line charts over
//! numeric inputs, each benchmark's small plots and a table. The same page
//! summarises part of a group, as Criterion.rs does: one function across
//! its inputs (`<group>/<function>/report/`) and one input across the
//! functions (`<group>/<input>/report/`).

use std::fmt::Write;

use super::{index, Files, Page};
use crate::disk::StoredBenchmark;
use crate::escape;
use crate::plots::group::{lines, throughput, violin, Member};
use crate::plots::WIDE;
use crate::results::EstimateValue;
use crate::units::throughput_parts;

/// What a summary page covers and where it sits.
pub(crate) struct Summary<'a> {
    /// The page's title: the group id, or `group/function`, `group/input`.
    pub title: &'a str,
    /// The group id, stripped from the members' ids for their labels.
    pub group_id: &'a str,
    /// The relative path from the page's folder to the home directory.
    pub to_home: &'a str,
    /// Pages of the parts of this group (href from this page, title).
    pub parts: Vec<(String, String)>,
}

/// Renders a summary page and its plots (relative to its `report/` folder).
pub(crate) fn render(summary: &Summary<'_>, members: &[StoredBenchmark], log_scale: bool) -> Files {
    let mut files: Files = Vec::new();
    let group_id = summary.group_id;
    let prefix = format!("{group_id}/");
    let plot_members = plot_members(members, group_id);
    let unit = members.first().map_or("ns", |b| b.unit.as_str());
    let to_home = summary.to_home;
    let mut crumbs = vec![(
        format!("{to_home}report/index.html"),
        "All benchmarks".to_owned(),
    )];
    if summary.title != group_id {
        crumbs.push((
            format!("../../report/{}", crate::GROUP_PAGE),
            group_id.to_owned(),
        ));
    }
    let mut page = Page::new(
        summary.title,
        &format!(
            "{} benchmark{}",
            members.len(),
            if members.len() == 1 { "" } else { "s" }
        ),
        &crumbs,
    );
    if !summary.parts.is_empty() {
        page.section(
            "Summaries",
            "one function across its inputs, one input across the functions",
        );
        let mut list = String::from("<ul class=\"parts\">");
        for (href, title) in &summary.parts {
            let _ = write!(
                list,
                "<li><a href=\"{}\">{}</a></li>",
                escape::href(href),
                escape::html(title)
            );
        }
        list.push_str("</ul>");
        page.raw(&list);
        page.end_section();
    }
    page.section(
        "Violin plot",
        if log_scale {
            "logarithmic axis; the dot is the median"
        } else {
            "the dot is the median"
        },
    );
    files.push((
        "violin.svg".to_owned(),
        violin(&plot_members, unit, log_scale, 980.0),
    ));
    page.figure(
        Some("violin.svg"),
        "violin plot",
        "<b>Distribution of the time per iteration</b> of every benchmark in the group.",
        "",
    );
    page.end_section();
    over_inputs(&mut page, &mut files, &plot_members, unit, log_scale);
    page.section("Benchmarks", "");
    page.raw(&index::table(members, to_home, false));
    page.end_section();
    page.section(
        "Small plots",
        "each benchmark's density and regression (or iteration times)",
    );
    page.raw(&thumbnails(members, to_home, &prefix));
    page.end_section();
    files.push(("index.html".to_owned(), page.finish()));
    files
}

/// The members as the plots take them: label within the group, series
/// (the function), numeric input, samples, typical estimate, throughput.
fn plot_members(members: &[StoredBenchmark], group_id: &str) -> Vec<Member> {
    let prefix = format!("{group_id}/");
    members
        .iter()
        .map(|b| {
            let e = &b.estimates;
            let typical = e.slope.as_ref().unwrap_or(&e.mean);
            Member {
                label: b
                    .record
                    .full_id
                    .strip_prefix(&prefix)
                    .unwrap_or(&b.record.full_id)
                    .to_owned(),
                series: b
                    .record
                    .function_id
                    .clone()
                    .unwrap_or_else(|| group_id.to_owned()),
                input: b
                    .record
                    .value_str
                    .as_deref()
                    .and_then(|v| v.trim().parse::<f64>().ok())
                    .filter(|v| v.is_finite()),
                averages: b.sample.averages(),
                typical: EstimateValue::from(typical).to_estimate(),
                throughput: b
                    .record
                    .throughput
                    .as_ref()
                    .and_then(|t| throughput_parts(t).into_iter().next()),
            }
        })
        .collect()
}

/// Line charts of time and throughput over the inputs, when they vary.
fn over_inputs(
    page: &mut Page,
    files: &mut Files,
    plot_members: &[Member],
    unit: &str,
    log_scale: bool,
) {
    // Lines over the inputs only when the inputs vary (as Criterion.rs):
    // an input across the functions is one point per function.
    let first_input = plot_members.iter().find_map(|m| m.input);
    let varied = plot_members
        .iter()
        .any(|m| m.input.is_some() && m.input != first_input);
    let line = varied
        .then(|| lines(plot_members, unit, log_scale, WIDE))
        .flatten();
    let thrpt = if unit == "ns" && varied {
        throughput(plot_members, log_scale, WIDE)
    } else {
        None
    };
    if line.is_some() || thrpt.is_some() {
        page.section(
            "Over the inputs",
            if log_scale {
                "logarithmic axes"
            } else {
                "linear axes"
            },
        );
        page.raw("<div class=\"plots\">");
        if let Some(svg) = line {
            files.push(("lines.svg".to_owned(), svg));
            page.figure(
                Some("lines.svg"),
                "line chart",
                "<b>Time per iteration</b> against the input, with confidence intervals.",
                "",
            );
        }
        if let Some(svg) = thrpt {
            files.push(("throughput.svg".to_owned(), svg));
            page.figure(
                Some("throughput.svg"),
                "throughput chart",
                "<b>Throughput</b> against the input.",
                "",
            );
        }
        page.raw("</div>");
        page.end_section();
    }
}

/// Each member's small plots (`pdf_small.svg`, and `regression_small.svg` or
/// `iteration_times_small.svg`) linking to its page; only the files its
/// benchmark page wrote, so no image is ever broken.
fn thumbnails(members: &[StoredBenchmark], to_home: &str, prefix: &str) -> String {
    let mut out = String::from("<div class=\"thumbs\">");
    for b in members {
        let report = b.dir.join("report");
        let page = format!(
            "{to_home}{}/report/",
            escape::href(&b.record.directory_name)
        );
        let label = b
            .record
            .full_id
            .strip_prefix(prefix)
            .unwrap_or(&b.record.full_id);
        let _ = write!(out, "<figure><a href=\"{page}index.html\">");
        for file in [
            "pdf_small.svg",
            "regression_small.svg",
            "iteration_times_small.svg",
        ] {
            if report.join(file).is_file() {
                let _ = write!(
                    out,
                    "<img src=\"{page}{file}\" alt=\"{} {}\">",
                    escape::html(label),
                    &file[..file.len() - "_small.svg".len()].replace('_', " ")
                );
            }
        }
        let _ = write!(
            out,
            "</a><figcaption>{}</figcaption></figure>",
            escape::html(label)
        );
    }
    out.push_str("</div>");
    out
}

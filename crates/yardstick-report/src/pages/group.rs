//! The page of a benchmark group: a violin per benchmark, line charts over
//! numeric inputs and a table.

use super::{index, Files, Page};
use crate::disk::StoredBenchmark;
use crate::plots::group::{lines, throughput, violin, Member};
use crate::plots::WIDE;
use crate::results::EstimateValue;
use crate::units::throughput_parts;

/// Renders a group's page and plots (relative to `<home>/<group dir>/report/`).
pub(crate) fn render(group_id: &str, members: &[StoredBenchmark], log_scale: bool) -> Files {
    let mut files: Files = Vec::new();
    let prefix = format!("{group_id}/");
    let plot_members: Vec<Member> = members
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
        .collect();
    let unit = members.first().map_or("ns", |b| b.unit.as_str());
    let mut page = Page::new(
        group_id,
        &format!(
            "{} benchmark{}",
            members.len(),
            if members.len() == 1 { "" } else { "s" }
        ),
        &[(
            "../../report/index.html".to_owned(),
            "All benchmarks".to_owned(),
        )],
    );
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
    let line = lines(&plot_members, unit, log_scale, WIDE);
    let thrpt = if unit == "ns" {
        throughput(&plot_members, log_scale, WIDE)
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
    page.section("Benchmarks", "");
    page.raw(&index::table(members, "../../", false));
    page.end_section();
    files.push(("index.html".to_owned(), page.finish()));
    files
}

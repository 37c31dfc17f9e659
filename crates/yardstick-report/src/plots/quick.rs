//! tasty-bench's `--svg` plot: one bar per benchmark with its mean and the
//! mean's confidence interval as an error bar.

use super::group::ellipsis;
use crate::results::RunResults;
use crate::svg::{Axis, Chart, SERIES_COLOURS};
use crate::units::{format_value, Scale};

const ROW: f64 = 26.0;

/// One SVG with a bar per benchmark of `results` (its mean) and an error
/// bar (the mean's confidence interval), on a shared linear axis from 0.
/// Bars are coloured by group.
#[must_use]
pub fn quick_svg(results: &RunResults) -> String {
    let b = &results.benchmarks;
    let hi = b
        .iter()
        .map(|r| r.mean.upper_bound.max(r.mean.estimate))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let unit = b.first().map_or("ns", |r| r.unit.as_str());
    let scale = Scale::for_value(unit, hi);
    let f = scale.factor;
    let longest = b.iter().map(|r| r.id.chars().count()).max().unwrap_or(4);
    let left = (longest.min(40) as f64 * 6.8 + 20.0).clamp(80.0, 290.0);
    let height = 34.0 + 44.0 + ROW * b.len().max(1) as f64;
    let mut c = Chart::with_margins(
        860.0,
        height,
        &results.title,
        Axis::from_zero(
            hi * f,
            0.12,
            format!("Mean time per iteration ({})", scale.unit),
        ),
        Axis::linear(0.0, b.len().max(1) as f64, 0.0, "").without_ticks(),
        left,
    );
    let mut groups: Vec<&str> = Vec::new();
    for (i, r) in b.iter().enumerate() {
        if !groups.contains(&r.group.as_str()) {
            groups.push(&r.group);
        }
        let colour = groups.iter().position(|g| *g == r.group).unwrap_or(0) % SERIES_COLOURS;
        let top = c.top + ROW * i as f64;
        let mid = top + ROW / 2.0;
        let (x0, x1) = (c.px(0.0), c.px(r.mean.estimate * f));
        c.svg.begin_group(&format!(
            "{}: {} [{} {}]",
            r.id,
            format_value(r.mean.estimate, &r.unit),
            format_value(r.mean.lower_bound, &r.unit),
            format_value(r.mean.upper_bound, &r.unit)
        ));
        c.svg.rect(
            x0,
            top + 5.0,
            x1 - x0,
            ROW - 10.0,
            &format!("f{colour} bar"),
        );
        let (lo, hi) = (c.px(r.mean.lower_bound * f), c.px(r.mean.upper_bound * f));
        c.svg.line(lo, mid, hi, mid, "err");
        c.svg.line(lo, mid - 5.0, lo, mid + 5.0, "err");
        c.svg.line(hi, mid - 5.0, hi, mid + 5.0, "err");
        c.svg.end_group();
        c.svg.text(
            hi.max(x1) + 6.0,
            mid + 4.0,
            "start",
            "note",
            &format_value(r.mean.estimate, &r.unit),
        );
        let lx = c.left - 8.0;
        c.svg
            .text(lx, mid + 4.0, "end", "lab", &ellipsis(&r.id, 40));
    }
    c.finish()
}

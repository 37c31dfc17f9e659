//! The trend chart of one series: the runs in order along x, labelled by
//! short commit and date; the typical value as a line with its interval as
//! a band; each run a point whose tooltip (an SVG `<title>`) gives its
//! commit, branch, dirty flag, date, machine, host and rustc, and which
//! links to the run's row in the table; each level shift a dashed red line
//! at the commit where it happened, labelled with its size and confidence,
//! and the segment levels as dotted lines.

use std::fmt::Write;

use super::{pct, short_commit, utc, HistorySite, Series};
use crate::escape;
use crate::svg::{Axis, Chart};
use crate::units::Scale;

/// Width and height of a trend chart.
const SIZE: (f64, f64) = (1100.0, 380.0);

/// The chart of `s`, as an inline SVG document.
pub(crate) fn trend(site: &HistorySite, s: &Series) -> String {
    let n = s.points.len();
    let scale = scale_of(s);
    let lo = s
        .points
        .iter()
        .map(|p| p.lower.min(p.point))
        .fold(f64::INFINITY, f64::min);
    let hi = s
        .points
        .iter()
        .map(|p| p.upper.max(p.point))
        .fold(f64::NEG_INFINITY, f64::max);
    let what = if s.unit == "ns" {
        "time per iteration"
    } else {
        "value"
    };
    let x = Axis::linear(-0.5, n as f64 - 0.5, 0.0, "").without_ticks();
    let y = Axis::linear(
        scale.apply(lo),
        scale.apply(hi),
        0.08,
        format!("{what} ({})", scale.unit),
    );
    let title = format!("{} on {}", s.benchmark, s.machine);
    let mut c = Chart::with_margins(SIZE.0, SIZE.1, "", x, y, 76.0);
    c.svg.raw(&format!("<desc>{}</desc>", escape::html(&title)));
    commit_labels(&mut c, site, s);
    let band: Vec<(f64, f64)> = s
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| (c.px(i as f64), c.py(scale.apply(p.upper))))
        .chain(
            s.points
                .iter()
                .enumerate()
                .rev()
                .map(|(i, p)| (c.px(i as f64), c.py(scale.apply(p.lower)))),
        )
        .collect();
    c.svg.path(&band, "ci", true);
    levels(&mut c, s, &scale);
    let line: Vec<(f64, f64)> = s
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| (c.px(i as f64), c.py(scale.apply(p.point))))
        .collect();
    c.svg.path(&line, "cur", false);
    shifts(&mut c, site, s);
    let rebuilt = build_changes(&mut c, site, s);
    points(&mut c, site, s, &scale);
    let mut legend = vec![
        ("cur", "typical value"),
        ("ci", "interval"),
        ("mean", "level"),
        ("fs", "level shift"),
    ];
    if rebuilt {
        legend.push(("bc", "build changed"));
    }
    c.legend(&legend);
    c.finish()
}

/// The display scale of a series: picked from its median value.
pub(crate) fn scale_of(s: &Series) -> Scale {
    let mut v: Vec<f64> = s
        .points
        .iter()
        .map(|p| p.point)
        .filter(|v| v.is_finite())
        .collect();
    v.sort_by(f64::total_cmp);
    Scale::for_value(&s.unit, v.get(v.len() / 2).copied().unwrap_or(1.0))
}

/// Short commit and date under about one run in every 110 pixels, with a
/// grid line at each.
fn commit_labels(c: &mut Chart, site: &HistorySite, s: &Series) {
    let n = s.points.len();
    let k = (((c.right - c.left) / 110.0).floor() as usize).clamp(1, n.max(1));
    let mut last = usize::MAX;
    for j in 0..k {
        let i = if k == 1 {
            n - 1
        } else {
            (j * (n - 1) + (k - 1) / 2) / (k - 1)
        };
        if i == last {
            continue;
        }
        last = i;
        let run = &site.runs[s.points[i].run];
        let x = c.px(i as f64);
        let (t, b) = (c.top, c.bottom);
        c.svg.line(x, t, x, b, "grid");
        let commit: String = short_commit(run).chars().take(7).collect();
        // The outermost labels are aligned inwards so they stay whole.
        let anchor = if x + 36.0 > c.right + 16.0 {
            "end"
        } else if x - 36.0 < c.left - 60.0 {
            "start"
        } else {
            "middle"
        };
        c.svg.text(x, b + 16.0, anchor, "tick", &commit);
        c.svg
            .text(x, b + 30.0, anchor, "tick", &utc(run.time)[..10]);
    }
}

/// A dotted line at each segment's mean level.
fn levels(c: &mut Chart, s: &Series, scale: &Scale) {
    let n = s.points.len();
    for (k, sh) in s.shifts.iter().enumerate() {
        let start = if k == 0 { 0 } else { s.shifts[k - 1].index };
        let end = s.shifts.get(k + 1).map_or(n, |x| x.index);
        for (from, to, level) in [(start, sh.index, sh.before), (sh.index, end, sh.after)] {
            let y = c.py(scale.apply(level));
            let (x0, x1) = (c.px(from as f64 - 0.5), c.px(to as f64 - 0.5));
            c.svg.line(x0, y, x1, y, "mean");
        }
    }
}

/// Each level shift at its commit: a group carrying the commit and the
/// index (for tests and scripts), a tooltip, the line and a label.
fn shifts(c: &mut Chart, site: &HistorySite, s: &Series) {
    for (k, sh) in s.shifts.iter().enumerate() {
        let Some(p) = s.points.get(sh.index) else {
            continue;
        };
        let run = &site.runs[p.run];
        let commit = run.commit.as_deref().unwrap_or("");
        let label = format!(
            "{} at {} ({:.1}% confidence)",
            pct(sh.size),
            short_commit(run).chars().take(7).collect::<String>(),
            (1.0 - sh.p_value) * 100.0
        );
        let tip = format!(
            "level shift {} at {} ({}), run {}",
            pct(sh.size),
            run.commit.as_deref().unwrap_or("no commit"),
            utc(run.time),
            run.id
        );
        let _ = write!(
            c.svg.buf_mut(),
            "<g class=\"shift\" data-commit=\"{}\" data-index=\"{}\"><title>{}</title>",
            escape::html(commit),
            sh.index,
            escape::html(&tip)
        );
        let x = c.px(sh.index as f64);
        let (t, b) = (c.top, c.bottom);
        c.svg.line(x, t, x, b, "fs");
        let right = x > c.left + (c.right - c.left) * 0.8;
        let (tx, anchor) = if right {
            (x - 5.0, "end")
        } else {
            (x + 5.0, "start")
        };
        // Labels of neighbouring shifts take turns on three rows.
        c.svg
            .text(tx, t + 13.0 + 15.0 * (k % 3) as f64, anchor, "lab", &label);
        c.svg.raw("</g>");
    }
}

/// A marker at each run built differently from the run before it in the
/// series (another toolchain, flags, features, profile), its tooltip the
/// line every comparison prints (`yardstick_format::build::compare_line`).
/// Runs without a record mark nothing. Whether any was drawn.
fn build_changes(c: &mut Chart, site: &HistorySite, s: &Series) -> bool {
    let mut drawn = false;
    for i in 1..s.points.len() {
        let (before, after) = (&site.runs[s.points[i - 1].run], &site.runs[s.points[i].run]);
        let (Some(a), Some(b)) = (&before.build, &after.build) else {
            continue;
        };
        let (old, new) = (format!("run {}", before.id), format!("run {}", after.id));
        let sides = yardstick_format::build::Sides {
            old: &old,
            new: &new,
        };
        let Some(line) = yardstick_format::build::compare_line(Some(a), Some(b), sides) else {
            continue;
        };
        let _ = write!(
            c.svg.buf_mut(),
            "<g class=\"build\" data-index=\"{i}\"><title>{}</title>",
            escape::html(&line)
        );
        let x = c.px(i as f64 - 0.5);
        let (t, b) = (c.top, c.bottom);
        c.svg.line(x, t, x, b, "bc");
        c.svg.text(x, b - 4.0, "middle", "lab", "build");
        c.svg.raw("</g>");
        drawn = true;
    }
    drawn
}

/// Each run as a point linking to its row, with its tooltip.
fn points(c: &mut Chart, site: &HistorySite, s: &Series, scale: &Scale) {
    let r = if s.points.len() > 300 { 2.0 } else { 3.2 };
    for (i, p) in s.points.iter().enumerate() {
        let run = &site.runs[p.run];
        let tip = point_tip(site, s, i, scale);
        let (x, y) = (c.px(i as f64), c.py(scale.apply(p.point)));
        let _ = write!(c.svg.buf_mut(), "<a href=\"#run{}\"><circle cx=\"", run.id);
        c.svg.num(x);
        c.svg.raw("\" cy=\"");
        c.svg.num(y);
        let look = if run.dirty {
            "\" class=\"cpt dirty\""
        } else {
            "\" class=\"cpt\""
        };
        let _ = write!(
            c.svg.buf_mut(),
            "\" r=\"{r}{look} data-commit=\"{}\"><title>{}</title></circle></a>",
            escape::html(run.commit.as_deref().unwrap_or("")),
            escape::html(&tip)
        );
    }
}

/// What hovering a point shows.
fn point_tip(site: &HistorySite, s: &Series, i: usize, scale: &Scale) -> String {
    let p = &s.points[i];
    let run = &site.runs[p.run];
    let mut t = run.commit.clone().unwrap_or_else(|| "no commit".into());
    if let Some(b) = &run.branch {
        let _ = write!(t, " on {b}");
    }
    if run.dirty {
        t.push_str(" (dirty work tree)");
    }
    let _ = write!(
        t,
        "\n{} UTC · run {}{}\n{} [{} – {}]\nmachine {} · {}\n{}",
        utc(run.time),
        run.id,
        run.label
            .as_deref()
            .map(|l| format!(" · label {l}"))
            .unwrap_or_default(),
        scale.format(p.point),
        scale.format(p.lower),
        scale.format(p.upper),
        run.machine,
        run.host,
        run.rustc
    );
    t
}

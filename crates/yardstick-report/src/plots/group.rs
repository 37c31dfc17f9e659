//! Plots of a benchmark group: a violin per benchmark, and line charts of
//! time and throughput over numeric inputs.

use yardstick_stats::Estimate;

use super::CURVE_POINTS;
use crate::density::density;
use crate::svg::{Axis, Chart, SERIES_COLOURS};
use crate::units::Scale;

/// One benchmark of a group, as the group plots need it.
pub(crate) struct Member {
    /// The name shown on the plot (the id without the group).
    pub label: String,
    /// The line it belongs to in the line charts (its function, or the
    /// group when it has none).
    pub series: String,
    /// Its numeric input, if its value parses as a number.
    pub input: Option<f64>,
    /// Measured value per iteration of each sample.
    pub averages: Vec<f64>,
    /// The typical estimate (slope, else mean).
    pub typical: Estimate,
    /// Work per iteration and the rate's unit word, if it has a throughput.
    pub throughput: Option<(u64, &'static str)>,
}

const ROW: f64 = 46.0;

/// A violin per member: the density of its per-iteration values, mirrored,
/// with its median as a dot. Rows in the members' order.
pub(crate) fn violin(members: &[Member], unit: &str, log: bool, width: f64) -> String {
    let curves: Vec<Option<crate::density::Curve>> = members
        .iter()
        .map(|m| density(&m.averages, CURVE_POINTS / 2))
        .collect();
    let all: Vec<f64> = members
        .iter()
        .flat_map(|m| m.averages.iter().copied())
        .collect();
    let (mut lo, mut hi) = super::sample::min_max(&all);
    let data_lo = lo;
    // On a linear axis the tails of the densities are shown whole.
    if !log {
        for c in curves.iter().flatten() {
            lo = lo.min(c.xs[0]);
            hi = hi.max(c.xs[c.xs.len() - 1]);
        }
    }
    let typical = yardstick_stats::univariate::median(&all).unwrap_or(hi);
    let scale = Scale::for_value(unit, typical);
    let f = scale.factor;
    let longest = members
        .iter()
        .map(|m| m.label.chars().count())
        .max()
        .unwrap_or(4);
    let left = (longest.min(32) as f64 * 7.0 + 24.0).clamp(80.0, 250.0);
    let height = 34.0 + 44.0 + ROW * members.len() as f64;
    let x_label = format!("Average time per iteration ({})", scale.unit);
    let x = if log && data_lo > 0.0 {
        Axis::log(lo * f, hi * f, x_label)
    } else {
        Axis::linear(lo * f, hi * f, 0.02, x_label)
    };
    let y = Axis::linear(0.0, members.len() as f64, 0.0, "").without_ticks();
    let mut c = Chart::with_margins(width, height, "", x, y, left);
    for (i, (m, curve)) in members.iter().zip(&curves).enumerate() {
        let row_mid = c.top + ROW * (i as f64 + 0.5);
        let class = i % SERIES_COLOURS;
        let median = yardstick_stats::univariate::median(&m.averages).unwrap_or(m.typical.point);
        c.svg
            .begin_group(&format!("{}: median {}", m.label, scale.format(median)));
        match curve {
            Some(curve) => {
                let peak = curve.peak();
                let half = ROW * 0.42;
                let (l, r) = (c.left, c.right);
                let at = |x: f64| c.px(x * f).clamp(l, r);
                let mut pts: Vec<(f64, f64)> = curve
                    .xs
                    .iter()
                    .zip(&curve.ys)
                    .map(|(&x, &y)| (at(x), row_mid - y / peak * half))
                    .collect();
                let lower: Vec<(f64, f64)> = curve
                    .xs
                    .iter()
                    .zip(&curve.ys)
                    .rev()
                    .map(|(&x, &y)| (at(x), row_mid + y / peak * half))
                    .collect();
                pts.extend(lower);
                c.svg.path(&pts, &format!("vio f{class} s{class}"), true);
            }
            None => {
                let x = c.px(median * f);
                c.svg.line(
                    x,
                    row_mid - ROW * 0.3,
                    x,
                    row_mid + ROW * 0.3,
                    &format!("ln s{class}"),
                );
            }
        }
        let (px, py) = (c.px(median * f), row_mid);
        c.svg.circle(px, py, 3.5, "err", None);
        c.svg.end_group();
        let label = ellipsis(&m.label, 32);
        let lx = c.left - 8.0;
        c.svg.text(lx, row_mid + 4.0, "end", "lab", &label);
    }
    c.finish()
}

/// The typical time of each series over the numeric inputs, with the
/// confidence intervals as error bars; both axes logarithmic when `log`.
pub(crate) fn lines(members: &[Member], unit: &str, log: bool, size: (f64, f64)) -> Option<String> {
    let pts: Vec<(&Member, f64)> = members
        .iter()
        .filter_map(|m| m.input.map(|x| (m, x)))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let typical = pts.iter().map(|(m, _)| m.typical.point).fold(0.0, f64::max);
    let scale = Scale::for_value(unit, typical);
    let values: Vec<(f64, f64, f64, f64, &str)> = pts
        .iter()
        .map(|(m, x)| {
            (
                *x,
                m.typical.point * scale.factor,
                m.typical.lower * scale.factor,
                m.typical.upper * scale.factor,
                m.series.as_str(),
            )
        })
        .collect();
    Some(series_chart(
        &values,
        "Input",
        &format!("Average time per iteration ({})", scale.unit),
        log,
        size,
    ))
}

/// The throughput of each series over the numeric inputs.
pub(crate) fn throughput(members: &[Member], log: bool, size: (f64, f64)) -> Option<String> {
    let pts: Vec<(f64, f64, f64, f64, &str, &str)> = members
        .iter()
        .filter_map(|m| {
            let x = m.input?;
            let (amount, kind) = m.throughput?;
            let rate = |t: f64| amount as f64 * 1e9 / t;
            Some((
                x,
                rate(m.typical.point),
                rate(m.typical.upper),
                rate(m.typical.lower),
                m.series.as_str(),
                kind,
            ))
        })
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let kind = pts[0].5;
    let max = pts.iter().map(|p| p.1).fold(0.0, f64::max);
    let (div, unit) = rate_unit(kind, max);
    let values: Vec<(f64, f64, f64, f64, &str)> = pts
        .iter()
        .filter(|p| p.5 == kind)
        .map(|p| (p.0, p.1 / div, p.2 / div, p.3 / div, p.4))
        .collect();
    Some(series_chart(
        &values,
        "Input",
        &format!("Throughput ({unit})"),
        log,
        size,
    ))
}

fn rate_unit(kind: &str, max: f64) -> (f64, String) {
    let (steps, units): ([f64; 3], [&str; 4]) = match kind {
        "bytes" => (
            [1024.0, 1024.0 * 1024.0, 1024.0 * 1024.0 * 1024.0],
            ["B/s", "KiB/s", "MiB/s", "GiB/s"],
        ),
        "bits" => ([1e3, 1e6, 1e9], ["b/s", "Kb/s", "Mb/s", "Gb/s"]),
        _ => ([1e3, 1e6, 1e9], ["elem/s", "Kelem/s", "Melem/s", "Gelem/s"]),
    };
    let mut pick = (1.0, units[0].to_owned());
    for (i, &s) in steps.iter().enumerate() {
        if max >= s {
            pick = (s, units[i + 1].to_owned());
        }
    }
    pick
}

/// A line per series through `(x, y)` points with error bars `[lo, hi]`.
fn series_chart(
    values: &[(f64, f64, f64, f64, &str)],
    x_label: &str,
    y_label: &str,
    log: bool,
    size: (f64, f64),
) -> String {
    let (x_lo, x_hi) = super::sample::min_max(&values.iter().map(|v| v.0).collect::<Vec<_>>());
    let ys: Vec<f64> = values.iter().flat_map(|v| [v.2, v.3]).collect();
    let (y_lo, y_hi) = super::sample::min_max(&ys);
    let (x, y) = if log && x_lo > 0.0 && y_lo > 0.0 {
        (
            Axis::log(x_lo, x_hi, x_label),
            Axis::log(y_lo, y_hi, y_label),
        )
    } else {
        (
            Axis::linear(x_lo, x_hi, 0.04, x_label),
            Axis::from_zero(y_hi, 0.08, y_label),
        )
    };
    let mut c = Chart::new(size.0, size.1, "", x, y);
    let mut names: Vec<&str> = Vec::new();
    for v in values {
        if !names.contains(&v.4) {
            names.push(v.4);
        }
    }
    for (i, name) in names.iter().enumerate() {
        let class = i % SERIES_COLOURS;
        let mut pts: Vec<&(f64, f64, f64, f64, &str)> =
            values.iter().filter(|v| v.4 == *name).collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let line: Vec<(f64, f64)> = pts.iter().map(|v| (c.px(v.0), c.py(v.1))).collect();
        c.svg.path(&line, &format!("ln s{class}"), false);
        for v in pts {
            let (px, lo, hi, py) = (c.px(v.0), c.py(v.2), c.py(v.3), c.py(v.1));
            c.svg.begin_group(&format!("{name} @ {}: {:.4}", v.0, v.1));
            c.svg.line(px, lo, px, hi, &format!("ln s{class}"));
            c.svg.circle(px, py, 3.5, &format!("f{class}"), None);
            c.svg.end_group();
        }
    }
    if names.len() > 1 || !names.first().is_some_and(|n| n.is_empty()) {
        let entries: Vec<(String, String)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("ln s{}", i % SERIES_COLOURS), ellipsis(n, 28)))
            .collect();
        let refs: Vec<(&str, &str)> = entries
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        c.legend(&refs);
    }
    c.finish()
}

/// `s` cut to `max` characters with an ellipsis.
pub(crate) fn ellipsis(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

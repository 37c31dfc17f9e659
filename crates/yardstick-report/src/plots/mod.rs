//! Every plot of the report, each a function from numbers to an SVG
//! document.

pub(crate) mod bootstrap;
pub(crate) mod compare;
pub(crate) mod flame;
pub(crate) mod group;
pub(crate) mod quick;
pub(crate) mod sample;

use crate::density::Curve;
use crate::svg::Chart;

/// Width and height of a full-size plot.
pub(crate) const WIDE: (f64, f64) = (640.0, 400.0);
/// Width and height of a small plot (the bootstrap distributions).
pub(crate) const SMALL: (f64, f64) = (420.0, 280.0);
/// Points of every density curve.
pub(crate) const CURVE_POINTS: usize = 160;

/// The curve's points in pixels, `x` scaled by `factor` first.
fn curve_points(chart: &Chart, curve: &Curve, factor: f64) -> Vec<(f64, f64)> {
    curve
        .xs
        .iter()
        .zip(&curve.ys)
        .map(|(&x, &y)| (chart.px(x * factor), chart.py(y)))
        .collect()
}

/// The area under `curve` between data values `x0` and `x1` (unscaled),
/// as a closed pixel polygon.
fn area_between(chart: &Chart, curve: &Curve, factor: f64, x0: f64, x1: f64) -> Vec<(f64, f64)> {
    let mut pts = vec![(chart.px(x0 * factor), chart.py(0.0))];
    pts.push((chart.px(x0 * factor), chart.py(curve.at(x0))));
    for (&x, &y) in curve.xs.iter().zip(&curve.ys) {
        if x > x0 && x < x1 {
            pts.push((chart.px(x * factor), chart.py(y)));
        }
    }
    pts.push((chart.px(x1 * factor), chart.py(curve.at(x1))));
    pts.push((chart.px(x1 * factor), chart.py(0.0)));
    pts
}

/// The whole area under `curve`, closed along the x axis.
fn area_under(chart: &Chart, curve: &Curve, factor: f64) -> Vec<(f64, f64)> {
    let mut pts = curve_points(chart, curve, factor);
    if let (Some(&(x0, _)), Some(&(x1, _))) = (pts.first(), pts.last()) {
        let base = chart.py(0.0);
        pts.push((x1, base));
        pts.push((x0, base));
    }
    pts
}

/// A deterministic jitter in `[0, 1)` for point `i`, so that points on a
/// strip do not hide each other and the files do not change between
/// renders.
fn jitter(i: usize) -> f64 {
    let h = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 11) as f64 / (1u64 << 53) as f64
}

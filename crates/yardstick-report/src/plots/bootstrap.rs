//! The bootstrap distribution of one statistic, with its confidence
//! interval shaded and its point estimate marked.

use yardstick_stats::Estimate;

use super::{area_between, curve_points, CURVE_POINTS};
use crate::density::density;
use crate::svg::{Axis, Chart};
use crate::units::Scale;

/// The density of `distribution` (resampled values of the statistic named
/// by `x_label`), the interval `[est.lower, est.upper]` shaded under it
/// and a line at `est.point`. `None` when the distribution has no spread
/// (then the page shows the numbers only).
pub(crate) fn distribution(
    distribution: &[f64],
    est: &Estimate,
    scale: &Scale,
    x_label: &str,
    size: (f64, f64),
) -> Option<String> {
    let curve = density(distribution, CURVE_POINTS)?;
    let f = scale.factor;
    let (lo, hi) = (curve.xs[0], curve.xs[curve.xs.len() - 1]);
    let mut c = Chart::new(
        size.0,
        size.1,
        "",
        Axis::linear(lo * f, hi * f, 0.0, format!("{x_label} ({})", scale.unit)),
        Axis::from_zero(curve.peak(), 0.08, "Density").without_tick_labels(),
    );
    let band = area_between(&c, &curve, f, est.lower.max(lo), est.upper.min(hi));
    c.svg.path(&band, "ci", true);
    let line = curve_points(&c, &curve, f);
    c.svg.path(&line, "cur", false);
    if c.x_contains(est.point * f) {
        let (x, y0, y1) = (c.px(est.point * f), c.py(0.0), c.py(curve.at(est.point)));
        c.svg.line(x, y0, x, y1, "est");
    }
    c.legend(&[
        ("cur", "Bootstrap"),
        ("ci", "Interval"),
        ("est", "Estimate"),
    ]);
    Some(c.finish())
}

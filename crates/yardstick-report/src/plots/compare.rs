//! Plots of a comparison: the two runs overlaid and the distribution of
//! the t statistic under the null hypothesis.

use yardstick_stats::regression::through_origin;

use super::sample::{density_chart, min_max, per_sample_chart, sample_time_chart};
use super::{area_under, curve_points, CURVE_POINTS};
use crate::density::density;
use crate::svg::{Axis, Chart};
use crate::units::Scale;

/// The densities of the baseline's and this run's per-iteration values,
/// with both means. `None` when neither has any spread.
pub(crate) fn both_pdf(
    base: &[f64],
    new: &[f64],
    scale: &Scale,
    size: (f64, f64),
) -> Option<String> {
    let b = density(base, CURVE_POINTS);
    let n = density(new, CURVE_POINTS);
    if b.is_none() && n.is_none() {
        return None;
    }
    let curves = [b.as_ref(), n.as_ref()];
    let lo = curves
        .iter()
        .flatten()
        .map(|c| c.xs[0])
        .fold(f64::INFINITY, f64::min);
    let hi = curves
        .iter()
        .flatten()
        .map(|c| c.xs[c.xs.len() - 1])
        .fold(f64::NEG_INFINITY, f64::max);
    let peak = curves
        .iter()
        .flatten()
        .map(|c| c.peak())
        .fold(0.0, f64::max);
    let f = scale.factor;
    let mut c = density_chart((lo, hi), peak, scale, size);
    for (curve, line, fill) in [(&b, "base", "basef"), (&n, "cur", "curf")] {
        if let Some(curve) = curve {
            let area = area_under(&c, curve, f);
            c.svg.path(&area, fill, true);
            let pts = curve_points(&c, curve, f);
            c.svg.path(&pts, line, false);
        }
    }
    for (values, class) in [(base, "base"), (new, "cur")] {
        if let Some(m) = yardstick_stats::univariate::mean(values) {
            let x = c.px(m * f);
            let (t, bottom) = (c.top, c.bottom);
            c.svg.begin_group(&format!("mean {}", scale.format(m)));
            c.svg.line(x, t, x, bottom, &format!("{class} dash"));
            c.svg.end_group();
        }
    }
    c.legend(&[("base", "Base PDF"), ("cur", "New PDF")]);
    Some(c.finish())
}

/// The samples of both runs with their lines through the origin (linear
/// sampling).
pub(crate) fn both_regression(
    base: (&[f64], &[f64]),
    new: (&[f64], &[f64]),
    unit: &str,
    size: (f64, f64),
) -> String {
    let max_x = base.0.iter().chain(new.0).copied().fold(0.0, f64::max);
    let max_y = base.1.iter().chain(new.1).copied().fold(0.0, f64::max);
    let (mut c, scale) = sample_time_chart(max_x, max_y, unit, size);
    let f = scale.factor;
    for ((iters, times), line, dot) in [(base, "base", "bpt"), (new, "cur", "cpt")] {
        for (&n, &t) in iters.iter().zip(times) {
            let (px, py) = (c.px(n), c.py(t * f));
            c.svg.circle(px, py, 2.2, dot, None);
        }
        if let Ok(fit) = through_origin(iters, times) {
            let end = iters.iter().copied().fold(0.0, f64::max);
            let (x0, y0, x1, y1) = (c.px(0.0), c.py(0.0), c.px(end), c.py(fit.slope * end * f));
            c.svg.line(x0, y0, x1, y1, line);
        }
    }
    c.legend(&[("base", "Base sample"), ("cur", "New sample")]);
    c.finish()
}

/// The per-iteration values of both runs in sample order (flat sampling).
pub(crate) fn both_iteration_times(
    base: &[f64],
    new: &[f64],
    scale: &Scale,
    size: (f64, f64),
) -> String {
    let (lo, hi) = min_max(&[
        min_max(base).0,
        min_max(base).1,
        min_max(new).0,
        min_max(new).1,
    ]);
    let n = base.len().max(new.len()) as f64;
    let f = scale.factor;
    let mut c = per_sample_chart(n, (lo, hi), scale, size);
    for (values, dot) in [(base, "bpt"), (new, "cpt")] {
        for (i, &v) in values.iter().enumerate() {
            let (px, py) = (c.px(i as f64 + 1.0), c.py(v * f));
            c.svg.circle(px, py, 2.4, dot, None);
        }
    }
    c.legend(&[("bpt", "Base sample"), ("cpt", "New sample")]);
    c.finish()
}

/// The bootstrapped distribution of the t statistic when both runs come
/// from one population, and the t of the two runs.
pub(crate) fn t_test(t_distribution: &[f64], t: f64, size: (f64, f64)) -> Option<String> {
    let finite: Vec<f64> = t_distribution
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let curve = density(&finite, CURVE_POINTS)?;
    let (mut lo, mut hi) = (curve.xs[0], curve.xs[curve.xs.len() - 1]);
    if t.is_finite() {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    let mut c = Chart::new(
        size.0,
        size.1,
        "",
        Axis::linear(lo, hi, 0.04, "t score"),
        Axis::from_zero(curve.peak(), 0.08, "Density").without_tick_labels(),
    );
    let area = area_under(&c, &curve, 1.0);
    c.svg.path(&area, "curf", true);
    let pts = curve_points(&c, &curve, 1.0);
    c.svg.path(&pts, "cur", false);
    c.vline(t, "est");
    c.legend(&[("cur", "t distribution"), ("est", "t statistic")]);
    Some(c.finish())
}

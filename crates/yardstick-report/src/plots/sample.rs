//! Plots of one run's samples: the probability density with the outlier
//! fences, the regression of total time on iterations (linear sampling) and
//! the iteration times (flat sampling).

use yardstick_stats::{Estimate, OutlierClass, TukeyFences};

use super::{area_under, curve_points, jitter, CURVE_POINTS};
use crate::density::density;
use crate::svg::{Axis, Chart};
use crate::units::Scale;

/// One run's samples as the plots need them.
pub(crate) struct Samples<'a> {
    /// Iterations of each sample.
    pub iters: &'a [f64],
    /// Total measured value of each sample.
    pub times: &'a [f64],
    /// Measured value per iteration of each sample.
    pub averages: &'a [f64],
    /// Outlier class of each sample (may be empty: then none is marked).
    pub labels: &'a [OutlierClass],
    /// Tukey's fences of the averages.
    pub fences: TukeyFences,
    /// The unit of the averages.
    pub scale: &'a Scale,
}

impl Samples<'_> {
    fn class(&self, i: usize) -> &'static str {
        match self.labels.get(i) {
            Some(OutlierClass::LowSevere | OutlierClass::HighSevere) => "severe",
            Some(OutlierClass::LowMild | OutlierClass::HighMild) => "mild",
            _ => "cpt",
        }
    }
}

/// The probability density of the per-iteration values, with every sample
/// on a strip under the curve (coloured by outlier class), the mean and the
/// mild and severe fences. `None` when the samples have no spread.
pub(crate) fn pdf(s: &Samples<'_>, mean: f64, size: (f64, f64)) -> Option<String> {
    let curve = density(s.averages, CURVE_POINTS)?;
    let f = s.scale.factor;
    let (mut lo, mut hi) = (curve.xs[0], curve.xs[curve.xs.len() - 1]);
    // Show the mild fences when they are near the data, so the outliers
    // can be seen against them.
    let span = hi - lo;
    if s.fences.low_mild > lo - span * 0.5 {
        lo = lo.min(s.fences.low_mild);
    }
    if s.fences.high_mild < hi + span * 0.5 {
        hi = hi.max(s.fences.high_mild);
    }
    let peak = curve.peak();
    let mut c = density_chart((lo, hi), peak, s.scale, size);
    let area = area_under(&c, &curve, f);
    c.svg.path(&area, "curf", true);
    let line = curve_points(&c, &curve, f);
    c.svg.path(&line, "cur", false);
    for (x, class) in [
        (s.fences.low_severe, "fs"),
        (s.fences.low_mild, "fm"),
        (s.fences.high_mild, "fm"),
        (s.fences.high_severe, "fs"),
    ] {
        c.vline(x * f, class);
    }
    c.vline(mean * f, "mean");
    for (i, (&avg, &n)) in s.averages.iter().zip(s.iters).enumerate() {
        let y = peak * (0.015 + 0.07 * jitter(i));
        let tip = format!(
            "sample {}: {} per iteration × {} iterations",
            i + 1,
            s.scale.format(avg),
            n
        );
        let (px, py) = (c.px(avg * f), c.py(y));
        c.svg.circle(px, py, 2.6, s.class(i), Some(&tip));
    }
    c.legend(&[
        ("cur", "PDF"),
        ("mean", "Mean"),
        ("fm", "Mild outlier fence"),
        ("fs", "Severe outlier fence"),
    ]);
    Some(c.finish())
}

/// Total time of each sample against its iteration count, with the fitted
/// line through the origin and its confidence band (linear sampling).
pub(crate) fn regression(s: &Samples<'_>, slope: &Estimate, size: (f64, f64)) -> String {
    let max_x = s.iters.iter().copied().fold(0.0, f64::max);
    let max_y = s
        .times
        .iter()
        .copied()
        .fold(0.0, f64::max)
        .max(slope.upper * max_x);
    let (mut c, scale) = sample_time_chart(max_x, max_y, &s.scale.source_unit, size);
    let f = scale.factor;
    let band = [
        (c.px(0.0), c.py(0.0)),
        (c.px(max_x), c.py(slope.upper * max_x * f)),
        (c.px(max_x), c.py(slope.lower * max_x * f)),
    ];
    c.svg.path(&band, "ci", true);
    for (i, (&n, &t)) in s.iters.iter().zip(s.times).enumerate() {
        let tip = format!("sample {}: {} iterations in {}", i + 1, n, scale.format(t));
        let (px, py) = (c.px(n), c.py(t * f));
        c.svg.circle(px, py, 2.6, s.class(i), Some(&tip));
    }
    let (x0, y0, x1, y1) = (
        c.px(0.0),
        c.py(0.0),
        c.px(max_x),
        c.py(slope.point * max_x * f),
    );
    c.svg.line(x0, y0, x1, y1, "cur");
    c.legend(&[("cur", "Linear regression"), ("ci", "Confidence interval")]);
    c.finish()
}

/// The per-iteration value of every sample in order, with the mean (flat
/// sampling, where there is no regression).
pub(crate) fn iteration_times(s: &Samples<'_>, mean: f64, size: (f64, f64)) -> String {
    let f = s.scale.factor;
    let (lo, hi) = min_max(s.averages);
    let n = s.averages.len() as f64;
    let mut c = per_sample_chart(n, (lo, hi), s.scale, size);
    let (l, r, y) = (c.left, c.right, c.py(mean * f));
    c.svg.line(l, y, r, y, "mean");
    for (i, &avg) in s.averages.iter().enumerate() {
        let tip = format!("sample {}: {} per iteration", i + 1, s.scale.format(avg));
        let (px, py) = (c.px(i as f64 + 1.0), c.py(avg * f));
        c.svg.circle(px, py, 2.6, s.class(i), Some(&tip));
    }
    c.legend(&[("mean", "Mean")]);
    c.finish()
}

/// An empty chart of probability density (from zero to `peak`) over the
/// average time per iteration (from `lo` to `hi`, in the unit `scale`
/// scales to).
pub(crate) fn density_chart(
    range: (f64, f64),
    peak: f64,
    scale: &Scale,
    size: (f64, f64),
) -> Chart {
    let density = Axis::from_zero(peak, 0.08, "Density").without_tick_labels();
    Chart::new(
        size.0,
        size.1,
        "",
        per_iteration_axis(range, 0.02, scale),
        density,
    )
}

/// An empty chart of the average time per iteration (from `lo` to `hi`,
/// in the unit `scale` scales to) against the sample's number (1 to `n`).
pub(crate) fn per_sample_chart(
    n: f64,
    range: (f64, f64),
    scale: &Scale,
    size: (f64, f64),
) -> Chart {
    let samples = Axis::linear(1.0, n.max(2.0), 0.03, "Sample");
    Chart::new(
        size.0,
        size.1,
        "",
        samples,
        per_iteration_axis(range, 0.08, scale),
    )
}

/// The axis of average time per iteration, from `lo` to `hi` (in the unit
/// `scale` scales to) with `margin` on either side.
fn per_iteration_axis((lo, hi): (f64, f64), margin: f64, scale: &Scale) -> Axis {
    let f = scale.factor;
    Axis::linear(
        lo * f,
        hi * f,
        margin,
        format!("Average time per iteration ({})", scale.unit),
    )
}

/// An empty chart of total sample time (from zero to `max_y`, in `unit`,
/// scaled to a readable unit) against iterations (from zero to `max_x`),
/// with the scale of its time axis.
pub(crate) fn sample_time_chart(
    max_x: f64,
    max_y: f64,
    unit: &str,
    size: (f64, f64),
) -> (Chart, Scale) {
    let scale = Scale::for_value(unit, max_y);
    let chart = Chart::new(
        size.0,
        size.1,
        "",
        Axis::from_zero(max_x, 0.04, "Iterations"),
        Axis::from_zero(
            max_y * scale.factor,
            0.06,
            format!("Total sample time ({})", scale.unit),
        ),
    );
    (chart, scale)
}

pub(crate) fn min_max(xs: &[f64]) -> (f64, f64) {
    xs.iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        })
}

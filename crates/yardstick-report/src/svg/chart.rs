//! A chart: an SVG document with a plot area, two axes with grid lines,
//! ticks and labels, and a mapping from data to pixels.

use super::{ticks, Svg};

/// Linear or logarithmic axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AxisKind {
    /// Equal distances for equal differences.
    Linear,
    /// Equal distances for equal ratios (positive data only).
    Log,
}

/// One axis: its data range, kind and label.
#[derive(Debug, Clone)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub kind: AxisKind,
    pub label: String,
    /// Whether to draw tick labels (density axes have meaningless numbers).
    pub tick_labels: bool,
    /// Whether to draw grid lines and ticks at all (not for category
    /// axes).
    pub ticks: bool,
}

impl Axis {
    /// A linear axis over the data range `[lo, hi]`, padded by `pad` of the
    /// span on both sides (a degenerate range is widened).
    pub(crate) fn linear(lo: f64, hi: f64, pad: f64, label: impl Into<String>) -> Axis {
        let (mut lo, mut hi) = finite_range(lo, hi);
        if hi <= lo {
            let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.05 };
            lo -= d;
            hi += d;
        }
        let span = hi - lo;
        Axis {
            lo: lo - span * pad,
            hi: hi + span * pad,
            kind: AxisKind::Linear,
            label: label.into(),
            tick_labels: true,
            ticks: true,
        }
    }

    /// A linear axis from 0 to `hi` plus `pad` of it.
    pub(crate) fn from_zero(hi: f64, pad: f64, label: impl Into<String>) -> Axis {
        let hi = if hi > 0.0 && hi.is_finite() { hi } else { 1.0 };
        Axis {
            lo: 0.0,
            hi: hi * (1.0 + pad),
            kind: AxisKind::Linear,
            label: label.into(),
            tick_labels: true,
            ticks: true,
        }
    }

    /// A logarithmic axis over `[lo, hi]` (positive), padded by a fraction
    /// of a decade. Falls back to linear when the data are not positive.
    pub(crate) fn log(lo: f64, hi: f64, label: impl Into<String>) -> Axis {
        let (lo, hi) = finite_range(lo, hi);
        if lo.is_nan() || lo <= 0.0 {
            return Axis::linear(lo, hi, 0.05, label);
        }
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo / 2.0, hi * 2.0)
        };
        let pad = ((hi / lo).log10() * 0.05).max(0.02);
        Axis {
            lo: lo / 10f64.powf(pad),
            hi: hi * 10f64.powf(pad),
            kind: AxisKind::Log,
            label: label.into(),
            tick_labels: true,
            ticks: true,
        }
    }

    /// Hides the tick labels.
    pub(crate) fn without_tick_labels(mut self) -> Axis {
        self.tick_labels = false;
        self
    }

    /// Hides the ticks and grid lines (a category axis).
    pub(crate) fn without_ticks(mut self) -> Axis {
        self.tick_labels = false;
        self.ticks = false;
        self
    }

    /// Where `v` falls, from 0 (at `lo`) to 1 (at `hi`).
    fn frac(&self, v: f64) -> f64 {
        match self.kind {
            AxisKind::Linear => (v - self.lo) / (self.hi - self.lo),
            AxisKind::Log => {
                let v = v.max(self.lo * 1e-3);
                (v / self.lo).ln() / (self.hi / self.lo).ln()
            }
        }
    }

    fn ticks(&self, target: usize) -> Vec<(f64, String)> {
        match self.kind {
            AxisKind::Linear => {
                let (t, step) = ticks::linear(self.lo, self.hi, target);
                t.into_iter().map(|v| (v, ticks::label(v, step))).collect()
            }
            AxisKind::Log => ticks::log(self.lo, self.hi)
                .into_iter()
                .map(|v| (v, ticks::label(v, v / 10.0)))
                .collect(),
        }
    }
}

fn finite_range(lo: f64, hi: f64) -> (f64, f64) {
    match (lo.is_finite(), hi.is_finite()) {
        (true, true) => (lo.min(hi), lo.max(hi)),
        (true, false) => (lo, lo),
        (false, true) => (hi, hi),
        (false, false) => (0.0, 1.0),
    }
}

/// A chart being drawn: data coordinates in, pixels out.
pub(crate) struct Chart {
    pub svg: Svg,
    /// Plot area: left, top, right, bottom, in pixels.
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    x: Axis,
    y: Axis,
}

impl Chart {
    /// A `width`×`height` chart with a title above the plot area. `title`
    /// is also the document's accessible name.
    pub(crate) fn new(width: f64, height: f64, title: &str, x: Axis, y: Axis) -> Chart {
        Chart::with_margins(width, height, title, x, y, 64.0)
    }

    /// As [`Chart::new`] with a left margin of `left` pixels (for long
    /// category labels).
    pub(crate) fn with_margins(
        width: f64,
        height: f64,
        title: &str,
        x: Axis,
        y: Axis,
        left: f64,
    ) -> Chart {
        let mut svg = Svg::new(width, height, title);
        let top = 34.0;
        if !title.is_empty() {
            svg.text(left, 21.0, "start", "title", title);
        }
        let (right, bottom) = (width - 18.0, height - 44.0);
        let mut chart = Chart {
            svg,
            left,
            top,
            right,
            bottom,
            x,
            y,
        };
        chart.draw_axes();
        chart
    }

    /// The pixel column of data value `v`.
    pub(crate) fn px(&self, v: f64) -> f64 {
        self.left + self.x.frac(v) * (self.right - self.left)
    }

    /// The pixel row of data value `v`.
    pub(crate) fn py(&self, v: f64) -> f64 {
        self.bottom - self.y.frac(v) * (self.bottom - self.top)
    }

    /// Whether `v` lies within the x axis.
    pub(crate) fn x_contains(&self, v: f64) -> bool {
        v >= self.x.lo && v <= self.x.hi
    }

    fn draw_axes(&mut self) {
        let (l, t, r, b) = (self.left, self.top, self.right, self.bottom);
        let xt = if self.x.ticks {
            self.x.ticks(((r - l) / 90.0).round().max(2.0) as usize)
        } else {
            Vec::new()
        };
        let yt = if self.y.ticks {
            self.y.ticks(((b - t) / 60.0).round().max(2.0) as usize)
        } else {
            Vec::new()
        };
        for (v, lab) in &xt {
            let x = self.px(*v);
            self.svg.line(x, t, x, b, "grid");
            if self.x.tick_labels {
                self.svg.text(x, b + 16.0, "middle", "tick", lab);
            }
        }
        for (v, lab) in &yt {
            let y = self.py(*v);
            self.svg.line(l, y, r, y, "grid");
            if self.y.tick_labels {
                self.svg.text(l - 6.0, y + 4.0, "end", "tick", lab);
            }
        }
        self.svg.line(l, b, r, b, "axis");
        self.svg.line(l, t, l, b, "axis");
        let xl = self.x.label.clone();
        self.svg.text((l + r) / 2.0, b + 36.0, "middle", "lab", &xl);
        let yl = self.y.label.clone();
        let ylx = if self.y.tick_labels { 16.0 } else { l - 12.0 };
        self.svg.vtext(ylx, (t + b) / 2.0, "lab", &yl);
    }

    /// A vertical line across the plot area at data value `x`, if it lies
    /// within the x axis.
    pub(crate) fn vline(&mut self, x: f64, class: &str) {
        if self.x_contains(x) {
            let px = self.px(x);
            let (t, b) = (self.top, self.bottom);
            self.svg.line(px, t, px, b, class);
        }
    }

    /// A legend in one row above the plot area, right-aligned: a sample
    /// of the style (`class`) and a label per entry. Classes whose style
    /// fills (`ci`, `curf`, `basef`, …) get a box, point classes a dot, and
    /// the others a line.
    pub(crate) fn legend(&mut self, entries: &[(&str, &str)]) {
        let widths: Vec<f64> = entries
            .iter()
            .map(|(_, l)| 26.0 + l.chars().count() as f64 * 6.4 + 14.0)
            .collect();
        let total: f64 = widths.iter().sum();
        let mut x = (self.right - total + 14.0).max(self.left);
        let y = self.top - 24.0;
        for ((class, label), w) in entries.iter().zip(widths) {
            match swatch(class) {
                Swatch::Area => self.svg.rect(x, y + 1.0, 20.0, 12.0, class),
                Swatch::Dot => self.svg.circle(x + 10.0, y + 7.0, 3.5, class, None),
                Swatch::Line => self.svg.line(x, y + 7.0, x + 20.0, y + 7.0, class),
            }
            self.svg.text(x + 26.0, y + 11.0, "start", "lab", label);
            x += w;
        }
    }

    /// The finished SVG document.
    pub(crate) fn finish(self) -> String {
        self.svg.finish()
    }
}

enum Swatch {
    Line,
    Area,
    Dot,
}

fn swatch(class: &str) -> Swatch {
    let first = class.split(' ').next().unwrap_or("");
    match first {
        "ci" | "curf" | "basef" | "noise" | "bar" => Swatch::Area,
        "cpt" | "bpt" | "mild" | "severe" => Swatch::Dot,
        c if c.len() == 2 && c.starts_with('f') && c.as_bytes()[1].is_ascii_digit() => Swatch::Dot,
        _ => Swatch::Line,
    }
}

//! A small SVG writer: just the shapes the plots use, written straight into
//! a string with coordinates rounded to a tenth of a pixel (which keeps the
//! files small), and one style sheet per file so every plot also looks right
//! when opened on its own.

mod chart;
mod ticks;

pub(crate) use chart::{Axis, Chart};

use std::fmt::Write;

use crate::escape;

/// The colours and strokes of every plot, shared by all SVG files.
const STYLE: &str = "\
text{font:12px system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;fill:#374151}\
.bg{fill:#fff}.title{font-size:14px;font-weight:600;fill:#111827}.lab{font-size:12px;fill:#4b5563}\
.tick{font-size:11px;fill:#6b7280}.grid{stroke:#eef0f3;stroke-width:1}.axis{stroke:#9ca3af;stroke-width:1}\
.cur{stroke:#2563eb;stroke-width:2;fill:none}.curf{fill:#2563eb;fill-opacity:.14;stroke:none}\
.cpt{fill:#2563eb;fill-opacity:.75}.base{stroke:#ea580c;stroke-width:2;fill:none}\
.basef{fill:#ea580c;fill-opacity:.12;stroke:none}.bpt{fill:#ea580c;fill-opacity:.6}\
.ci{fill:#2563eb;fill-opacity:.22;stroke:none}.est{stroke:#1e3a8a;stroke-width:2}\
.mild{fill:#f59e0b}.severe{fill:#dc2626}.fm{stroke:#f59e0b;stroke-width:1.5;stroke-dasharray:5 4}\
.fs{stroke:#dc2626;stroke-width:1.5;stroke-dasharray:5 4}.bc{stroke:#7c3aed;stroke-width:1.5;stroke-dasharray:1 3}.mean{stroke:#1e3a8a;stroke-width:1.5;stroke-dasharray:2 3}\
.err{stroke:#1f2937;stroke-width:1.5}.bar{fill:#2563eb;fill-opacity:.8}.note{font-size:11px;fill:#6b7280}\
.noise{fill:#9ca3af;fill-opacity:.18}\
.s0{stroke:#2563eb}.s1{stroke:#ea580c}.s2{stroke:#16a34a}.s3{stroke:#9333ea}.s4{stroke:#dc2626}\
.s5{stroke:#0891b2}.s6{stroke:#ca8a04}.s7{stroke:#db2777}.s8{stroke:#4b5563}.s9{stroke:#65a30d}\
.f0{fill:#2563eb}.f1{fill:#ea580c}.f2{fill:#16a34a}.f3{fill:#9333ea}.f4{fill:#dc2626}\
.f5{fill:#0891b2}.f6{fill:#ca8a04}.f7{fill:#db2777}.f8{fill:#4b5563}.f9{fill:#65a30d}\
.dirty{fill-opacity:.2;stroke:#2563eb;stroke-width:1}\
.dash{stroke-dasharray:6 4;stroke-width:1.5}.ln{stroke-width:2;fill:none}.vio{fill-opacity:.35;stroke-width:1.2}";

/// Number of distinct series colours (`s0`…`s9`, `f0`…`f9`).
pub(crate) const SERIES_COLOURS: usize = 10;

/// An SVG document being written.
pub(crate) struct Svg {
    buf: String,
}

impl Svg {
    /// A `width`×`height` document with `title` as its accessible name.
    pub(crate) fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut buf = String::with_capacity(8 * 1024);
        let _ = write!(
            buf,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">\
             <title>{t}</title><style>{STYLE}</style><rect class=\"bg\" width=\"{w}\" height=\"{h}\"/>",
            w = width,
            h = height,
            t = escape::html(title),
        );
        Svg { buf }
    }

    /// A straight line.
    pub(crate) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        self.buf.push_str("<line x1=\"");
        num(&mut self.buf, x1);
        self.buf.push_str("\" y1=\"");
        num(&mut self.buf, y1);
        self.buf.push_str("\" x2=\"");
        num(&mut self.buf, x2);
        self.buf.push_str("\" y2=\"");
        num(&mut self.buf, y2);
        let _ = write!(self.buf, "\" class=\"{class}\"/>");
    }

    /// A path through `points`; `close` fills it as a polygon.
    pub(crate) fn path(&mut self, points: &[(f64, f64)], class: &str, close: bool) {
        if points.is_empty() {
            return;
        }
        self.buf.push_str("<path d=\"");
        for (i, &(x, y)) in points.iter().enumerate() {
            self.buf.push(if i == 0 { 'M' } else { 'L' });
            num(&mut self.buf, x);
            self.buf.push(' ');
            num(&mut self.buf, y);
        }
        if close {
            self.buf.push('Z');
        }
        let _ = write!(self.buf, "\" class=\"{class}\"/>");
    }

    /// A circle, with an optional tooltip.
    pub(crate) fn circle(&mut self, x: f64, y: f64, r: f64, class: &str, tip: Option<&str>) {
        self.buf.push_str("<circle cx=\"");
        num(&mut self.buf, x);
        self.buf.push_str("\" cy=\"");
        num(&mut self.buf, y);
        self.buf.push_str("\" r=\"");
        num(&mut self.buf, r);
        let _ = write!(self.buf, "\" class=\"{class}\"");
        match tip {
            Some(t) => {
                let _ = write!(self.buf, "><title>{}</title></circle>", escape::html(t));
            }
            None => self.buf.push_str("/>"),
        }
    }

    /// A rectangle from `(x, y)` of size `w`×`h`.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str) {
        self.buf.push_str("<rect x=\"");
        num(&mut self.buf, x);
        self.buf.push_str("\" y=\"");
        num(&mut self.buf, y);
        self.buf.push_str("\" width=\"");
        num(&mut self.buf, w.max(0.0));
        self.buf.push_str("\" height=\"");
        num(&mut self.buf, h.max(0.0));
        let _ = write!(self.buf, "\" class=\"{class}\"/>");
    }

    /// Text anchored at `(x, y)`; `anchor` is `start`, `middle` or `end`.
    /// The text is escaped here.
    pub(crate) fn text(&mut self, x: f64, y: f64, anchor: &str, class: &str, text: &str) {
        self.buf.push_str("<text x=\"");
        num(&mut self.buf, x);
        self.buf.push_str("\" y=\"");
        num(&mut self.buf, y);
        let _ = write!(
            self.buf,
            "\" text-anchor=\"{anchor}\" class=\"{class}\">{}</text>",
            escape::html(text)
        );
    }

    /// Text rotated a quarter turn counter-clockwise about `(x, y)`, for
    /// vertical axis labels.
    pub(crate) fn vtext(&mut self, x: f64, y: f64, class: &str, text: &str) {
        self.buf.push_str("<text transform=\"translate(");
        num(&mut self.buf, x);
        self.buf.push(' ');
        num(&mut self.buf, y);
        let _ = write!(
            self.buf,
            ") rotate(-90)\" text-anchor=\"middle\" class=\"{class}\">{}</text>",
            escape::html(text)
        );
    }

    /// Opens a group carrying a tooltip (`<title>`) for what is drawn until
    /// [`Svg::end_group`].
    pub(crate) fn begin_group(&mut self, tip: &str) {
        let _ = write!(self.buf, "<g><title>{}</title>", escape::html(tip));
    }

    /// Closes the group opened by [`Svg::begin_group`].
    pub(crate) fn end_group(&mut self) {
        self.buf.push_str("</g>");
    }

    /// Appends trusted markup (built by this crate, with text escaped).
    pub(crate) fn raw(&mut self, markup: &str) {
        self.buf.push_str(markup);
    }

    /// The markup written so far, to append to.
    pub(crate) fn buf_mut(&mut self) -> &mut String {
        &mut self.buf
    }

    /// Appends a number as coordinates are written (a tenth of a pixel).
    pub(crate) fn num(&mut self, v: f64) {
        num(&mut self.buf, v);
    }

    /// The finished document.
    pub(crate) fn finish(mut self) -> String {
        self.buf.push_str("</svg>\n");
        self.buf
    }
}

/// A sparkline: `values` as a `width`×`height` line with no axes, and a
/// red dot at each index of `marks`. Inline attributes only (no style
/// sheet), so that a hundred of them stay small in one page.
pub(crate) fn sparkline(values: &[f64], marks: &[usize], width: f64, height: f64) -> String {
    let mut buf = String::with_capacity(values.len() * 10 + 200);
    let _ = write!(
        buf,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" aria-hidden=\"true\">"
    );
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let n = values.len().max(2) - 1;
    let at = |i: usize, v: f64| {
        let x = 2.0 + (width - 4.0) * i as f64 / n as f64;
        let y = if hi > lo {
            height - 3.0 - (height - 6.0) * (v - lo) / span
        } else {
            height / 2.0
        };
        (x, y)
    };
    buf.push_str("<path d=\"");
    for (i, &v) in values.iter().enumerate() {
        let (x, y) = at(i, v);
        buf.push(if i == 0 { 'M' } else { 'L' });
        num(&mut buf, x);
        buf.push(' ');
        num(&mut buf, y);
    }
    buf.push_str("\" fill=\"none\" stroke=\"#2563eb\" stroke-width=\"1.5\"/>");
    for &i in marks.iter().filter(|&&i| i < values.len()) {
        let (x, y) = at(i, values[i]);
        buf.push_str("<circle cx=\"");
        num(&mut buf, x);
        buf.push_str("\" cy=\"");
        num(&mut buf, y);
        buf.push_str("\" r=\"2.5\" fill=\"#dc2626\"/>");
    }
    buf.push_str("</svg>");
    buf
}

/// Writes `v` rounded to one decimal, without a trailing `.0` (`12`,
/// `12.5`, `-3.2`); non-finite values are written as 0 so that a document
/// stays valid whatever the data.
fn num(buf: &mut String, v: f64) {
    let v = if v.is_finite() {
        (v * 10.0).round() / 10.0
    } else {
        0.0
    };
    // Clamp far-off coordinates: browsers handle them, but they make files
    // large and can overflow some renderers.
    let v = v.clamp(-1e6, 1e6);
    let tenths = (v * 10.0).round() as i64;
    let (whole, frac) = (tenths / 10, (tenths % 10).abs());
    if tenths < 0 && whole == 0 {
        buf.push('-');
    }
    let _ = write!(buf, "{whole}");
    if frac != 0 {
        let _ = write!(buf, ".{frac}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        let mut s = String::new();
        for v in [12.0, 12.54, -3.21, -0.25, 0.04, f64::NAN, 1e12] {
            num(&mut s, v);
            s.push(' ');
        }
        assert_eq!(s, "12 12.5 -3.2 -0.3 0 0 1000000 ");
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "<t>");
        svg.text(1.0, 2.0, "start", "lab", "</text><script>");
        let out = svg.finish();
        assert!(out.contains("<title>&lt;t&gt;</title>"));
        assert!(out.contains("&lt;/text&gt;&lt;script&gt;"));
        assert!(!out.contains("<script>"));
    }
}

//! The trend plot of `cargo yardstick history`: one SVG per benchmark (the
//! typical value of each run with its interval, change points as vertical
//! lines), gathered in one HTML page.

use std::fmt::Write;

use crate::db::Trend;
use yardstick_stats::changepoint::ChangePoint;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG of one trend.
#[must_use]
pub fn trend_svg(t: &Trend, changes: &[ChangePoint]) -> String {
    let (w, h, pad) = (640.0, 200.0, 40.0);
    let n = t.points.len();
    let lo = t
        .points
        .iter()
        .map(|p| p.typical.lower.min(p.typical.point))
        .fold(f64::INFINITY, f64::min);
    let hi = t
        .points
        .iter()
        .map(|p| p.typical.upper.max(p.typical.point))
        .fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |i: usize| pad + (w - 2.0 * pad) * (i as f64) / ((n.max(2) - 1) as f64);
    let y = |v: f64| h - pad - (h - 2.0 * pad) * (v - lo) / span;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><title>{}</title><rect width="{w}" height="{h}" fill="white"/>"#,
        esc(&t.name)
    );
    let band: Vec<String> = (0..n)
        .map(|i| format!("{:.1},{:.1}", x(i), y(t.points[i].typical.upper)))
        .chain(
            (0..n)
                .rev()
                .map(|i| format!("{:.1},{:.1}", x(i), y(t.points[i].typical.lower))),
        )
        .collect();
    let _ = write!(
        s,
        r##"<polygon points="{}" fill="#1f77b4" fill-opacity="0.2"/>"##,
        band.join(" ")
    );
    let line: Vec<String> = (0..n)
        .map(|i| format!("{:.1},{:.1}", x(i), y(t.points[i].typical.point)))
        .collect();
    let _ = write!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>"##,
        line.join(" ")
    );
    for c in changes {
        let _ = write!(
            s,
            r##"<line x1="{0:.1}" x2="{0:.1}" y1="{pad}" y2="{1}" stroke="#d62728" stroke-dasharray="4 3"><title>{2:+.2}% at run {3}</title></line>"##,
            x(c.index),
            h - pad,
            c.size * 100.0,
            t.points[c.index].run_id
        );
    }
    let _ = write!(
        s,
        r##"<text x="4" y="14" font-size="11" font-family="sans-serif">{}</text><text x="4" y="{}" font-size="10" font-family="sans-serif">{:.4} {}</text><text x="4" y="{}" font-size="10" font-family="sans-serif">{:.4} {}</text></svg>"##,
        esc(&t.name),
        pad,
        hi,
        esc(&t.unit),
        h - pad + 12.0,
        lo,
        esc(&t.unit)
    );
    s
}

/// An HTML page with every trend.
#[must_use]
pub fn page(trends: &[(Trend, Vec<ChangePoint>)]) -> String {
    let mut s = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>yardstick history</title></head><body><h1>Benchmark history</h1>\n",
    );
    for (t, c) in trends {
        let _ = writeln!(
            s,
            "<section><h2>{}</h2>{}</section>",
            esc(&t.name),
            trend_svg(t, c)
        );
    }
    s.push_str("</body></html>\n");
    s
}

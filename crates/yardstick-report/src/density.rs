//! Density curves for the plots.
//!
//! Small samples (the measured samples, at most a few thousand values) use
//! the exact Gaussian KDE of `yardstick_stats::kde`. Bootstrap distributions
//! (100 000 values) use the same kernel and bandwidth on *linearly binned*
//! data: each value is split between its two neighbouring grid points, and
//! the grid is convolved with the kernel's weights. With the grid step well
//! under the bandwidth this draws the same curve at a thousandth of the
//! cost, which is what keeps a 100-benchmark report fast (Criterion.rs
//! evaluates the exact KDE of every distribution at 500 points).

use yardstick_stats::kde::{normal_reference_bandwidth, Kde};

/// Above this many values the binned estimate is used.
const EXACT_LIMIT: usize = 2_000;

/// A density curve: `ys[i]` is the density at `xs[i]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Curve {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
}

impl Curve {
    /// The largest density.
    pub(crate) fn peak(&self) -> f64 {
        self.ys.iter().copied().fold(0.0, f64::max)
    }

    /// The density at `x`, interpolated linearly (0 outside the curve).
    pub(crate) fn at(&self, x: f64) -> f64 {
        let i = self.xs.partition_point(|&v| v < x);
        if i == 0 || i >= self.xs.len() {
            return 0.0;
        }
        let (x0, x1) = (self.xs[i - 1], self.xs[i]);
        let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
        self.ys[i - 1] + t * (self.ys[i] - self.ys[i - 1])
    }
}

/// The Gaussian KDE of `values` at `points` evenly spaced points from
/// `min − 3h` to `max + 3h`; `None` for fewer than two values, non-finite
/// values or no spread.
pub(crate) fn density(values: &[f64], points: usize) -> Option<Curve> {
    if values.len() <= EXACT_LIMIT {
        let (xs, ys) = Kde::new(values)?.sweep(points);
        return Some(Curve { xs, ys });
    }
    binned(values, points)
}

fn binned(values: &[f64], points: usize) -> Option<Curve> {
    let h = normal_reference_bandwidth(values)?;
    let (min, max) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let points = points.max(2);
    // A fine grid for the binning (at least 8 steps per bandwidth), then
    // every few grid points drawn.
    let (lo, hi) = (min - 3.0 * h, max + 3.0 * h);
    let per_point = (((hi - lo) / (points - 1) as f64) / (h / 8.0))
        .ceil()
        .max(1.0) as usize;
    let grid = (points - 1) * per_point + 1;
    let step = (hi - lo) / (grid - 1) as f64;
    let mut counts = vec![0.0f64; grid];
    for &v in values {
        let pos = (v - lo) / step;
        let i = (pos.floor() as usize).min(grid - 2);
        let frac = pos - i as f64;
        counts[i] += 1.0 - frac;
        counts[i + 1] += frac;
    }
    let reach = ((4.0 * h) / step).ceil() as usize;
    let norm = 1.0 / ((2.0 * std::f64::consts::PI).sqrt() * h * values.len() as f64);
    let weights: Vec<f64> = (0..=reach)
        .map(|j| {
            let z = j as f64 * step / h;
            (-0.5 * z * z).exp() * norm
        })
        .collect();
    let mut xs = Vec::with_capacity(points);
    let mut ys = Vec::with_capacity(points);
    for p in 0..points {
        let g = p * per_point;
        let from = g.saturating_sub(reach);
        let to = (g + reach).min(grid - 1);
        let mut sum = 0.0;
        for (k, &c) in counts[from..=to].iter().enumerate() {
            if c != 0.0 {
                sum += c * weights[(from + k).abs_diff(g)];
            }
        }
        xs.push(lo + g as f64 * step);
        ys.push(sum);
    }
    Some(Curve { xs, ys })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binned_matches_exact() {
        // A skewed sample of 5000 values from a fixed sequence.
        let values: Vec<f64> = (0..5000u32)
            .map(|i| {
                let u = f64::from(i.wrapping_mul(2_654_435_761) % 10_007) / 10_007.0;
                -(1.0 - u).ln() * 3.0 + 10.0
            })
            .collect();
        let approx = binned(&values, 120).unwrap();
        let exact = Kde::new(&values).unwrap();
        let peak = approx.peak();
        for (&x, &y) in approx.xs.iter().zip(&approx.ys) {
            assert!(
                (exact.density(x) - y).abs() < 0.01 * peak,
                "{x}: {y} vs {}",
                exact.density(x)
            );
        }
    }

    #[test]
    fn no_spread_no_curve() {
        assert!(density(&[1.0; 10], 50).is_none());
        assert!(density(&vec![1.0; 5000], 50).is_none());
    }
}

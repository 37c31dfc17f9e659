//! Tick positions and labels: round numbers on linear axes, powers of ten
//! (and 2 and 5 times them when the range is short) on logarithmic ones.

/// About `target` round tick values covering `[lo, hi]` (those inside it).
pub(crate) fn linear(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    let span = hi - lo;
    if !(span > 0.0 && span.is_finite()) {
        return (vec![lo], 1.0);
    }
    let step = nice_step(span / target.max(1) as f64);
    let first = (lo / step).ceil() * step;
    let mut ticks = Vec::new();
    let mut i = 0.0;
    loop {
        let t = first + i * step;
        if t > hi + step * 1e-9 {
            break;
        }
        // Snap values that should be 0 but are 1e-17.
        ticks.push(if (t / step).abs() < 1e-9 { 0.0 } else { t });
        i += 1.0;
        if ticks.len() > 50 {
            break;
        }
    }
    (ticks, step)
}

/// Ticks of a logarithmic axis over `[lo, hi]` (both positive).
pub(crate) fn log(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo) {
        return vec![lo];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let decades: Vec<f64> = (a..=b)
        .map(|e| 10f64.powi(e))
        .filter(|&t| t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9))
        .collect();
    let mults: &[f64] = if decades.len() >= 3 {
        &[1.0]
    } else if decades.len() == 2 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0, 2.0, 3.0, 5.0]
    };
    let mut ticks: Vec<f64> = (a..=b)
        .flat_map(|e| mults.iter().map(move |m| m * 10f64.powi(e)))
        .filter(|&t| t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9))
        .collect();
    if ticks.len() < 2 {
        ticks = vec![lo, hi];
    }
    ticks
}

/// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 2.5 {
        2.5
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// A tick label: as many decimals as the step needs, thousands as `k`, `M`,
/// `G` from 10 000 up.
pub(crate) fn label(v: f64, step: f64) -> String {
    let a = v.abs();
    if a >= 1e4 {
        let (d, s) = if a >= 1e9 {
            (1e9, "G")
        } else if a >= 1e6 {
            (1e6, "M")
        } else {
            (1e3, "k")
        };
        return format!("{}{s}", trim(v / d, step / d));
    }
    trim(v, step)
}

fn trim(v: f64, step: f64) -> String {
    let decimals = if step > 0.0 && step < 1.0 {
        ((-step.log10()).ceil() as usize).min(9) + 1
    } else {
        1
    };
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" {
        "0".to_owned()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round() {
        let (t, step) = linear(0.13, 0.97, 5);
        assert_eq!(step, 0.2);
        assert_eq!(t.len(), 4);
        let labels: Vec<String> = t.iter().map(|&v| label(v, step)).collect();
        assert_eq!(labels, ["0.2", "0.4", "0.6", "0.8"]);
        let (t, step) = linear(-10.0, 10.0, 4);
        assert_eq!(step, 5.0);
        assert_eq!(t, [-10.0, -5.0, 0.0, 5.0, 10.0]);
        assert_eq!(label(25_000.0, 5000.0), "25k");
        assert_eq!(label(2_500_000.0, 500_000.0), "2.5M");
    }

    #[test]
    fn log_ticks_are_decades() {
        assert_eq!(log(1.0, 1e6).len(), 7);
        assert_eq!(log(3.0, 40.0), [3.0, 5.0, 10.0, 20.0, 30.0]);
    }
}

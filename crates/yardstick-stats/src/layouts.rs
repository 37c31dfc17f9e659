//! Code layout as a source of noise in comparisons of two builds.
//!
//! Two builds of a program differ in more than the edit: every function
//! after the edited one moves, and with it the alignment of hot loops and
//! branch targets (Mytkowicz et al., ASPLOS 2009; Curtsinger and Berger,
//! ASPLOS 2013). A comparison that measures one layout of each side takes
//! that layout's luck for the edit's effect. Linking each side several
//! times with a different function order gives several layouts of the same
//! code; worker pairs are spread over them, each layout running in more
//! than one pair.
//!
//! The layout is then the experimental unit: pairs of the same layouts
//! share its offset, so only layouts are independent. The interval is
//! Student's t over the layouts' mean log ratios ([`by_layout`] then
//! [`crate::paired::units_t_ratio`]), and [`spread`] splits the variance of
//! those means into what relinking moves and what the processes add, so a
//! verdict can say which noise limits it.

use crate::distributions::{f_sf, t_quantile};

/// The geometric mean of each layout's values (`layout[i]` names the layout
/// of `values[i]`), in the order the layouts first appear. Values that are
/// not positive and finite are left out.
#[must_use]
pub fn by_layout(values: &[f64], layout: &[usize]) -> Vec<f64> {
    groups(values, layout)
        .iter()
        .map(|g| (g.iter().sum::<f64>() / g.len() as f64).exp())
        .collect()
}

/// The log values grouped by layout, in order of first appearance; empty
/// groups are left out.
fn groups(values: &[f64], layout: &[usize]) -> Vec<Vec<f64>> {
    crate::paired::units_in_order(layout)
        .iter()
        .map(|&l| {
            values
                .iter()
                .zip(layout)
                .filter(|&(v, &w)| w == l && v.is_finite() && *v > 0.0)
                .map(|(v, _)| v.ln())
                .collect::<Vec<f64>>()
        })
        .filter(|g| !g.is_empty())
        .collect()
}

/// How much relinking moves a ratio, from pair-level ratios grouped by
/// layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Two standard deviations of the layout component, as a share
    /// (`exp(2σ) − 1`): what relinking the same code moves the ratio by.
    pub share: f64,
    /// Whether layout is what limits the interval: the layouts differ
    /// beyond what their pairs' spread explains (one-way analysis of
    /// variance, p < 0.05), and the layout component is more than half the
    /// variance of the layouts' means, the variance the interval is built
    /// on.
    pub limiting: bool,
    /// The analysis of variance's p-value for "no layout effect".
    pub p_value: f64,
}

/// The layout component of pair-level `ratios` (one per worker pair,
/// `layout[i]` its layout), by the one-way random-effects decomposition:
/// the variance between the layouts' mean logs minus what the spread
/// within a layout (between pairs of the same layouts: the processes)
/// contributes to it. `None` without at least two layouts and one layout
/// measured by two pairs or more.
#[must_use]
pub fn spread(ratios: &[f64], layout: &[usize]) -> Option<Spread> {
    let c = components(ratios, layout)?;
    // One-way ANOVA: the mean square between layouts over the one within.
    let f = if c.within > 0.0 {
        c.between / c.per_mean / c.within
    } else if c.between > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    let p_value = f_sf(f, (c.layouts - 1) as f64, (c.values - c.layouts) as f64);
    Some(Spread {
        share: (2.0 * c.component.sqrt()).exp() - 1.0,
        limiting: p_value < 0.05 && c.component > c.between / 2.0,
        p_value,
    })
}

/// How far relinking moves one benchmark between two builds: the 95 %
/// prediction bound of the change between two layouts,
/// `exp(t(0.975, layouts − 1) · √2 · σ) − 1`, where σ² is the layout
/// component of per-process `times` grouped by `layout` (the processes'
/// own spread taken out: a lock-step interval already counts it). `None`
/// without two layouts and a layout measured by two processes.
#[must_use]
pub fn prediction_bound(times: &[f64], layout: &[usize]) -> Option<f64> {
    let c = components(times, layout)?;
    let t = t_quantile(0.975, (c.layouts - 1) as f64);
    Some((t * std::f64::consts::SQRT_2 * c.component.sqrt()).exp() - 1.0)
}

/// The fewest earlier rebuilds [`rebuild_bound`] learns from: with fewer,
/// the bound says more about how few there were than about the benchmark.
pub const MIN_REBUILDS: usize = 3;

/// How far a rebuild moves one benchmark, learned from the changes earlier
/// comparisons between two different builds measured (`log_moves`, each
/// `ln(B/A)`, one layout of each side): the 95 % prediction bound of the
/// next one, `exp(t(0.975, n) · s) − 1` with `s = 1.4826 · median |ln|`.
/// The same quantity as [`prediction_bound`] (a rebuild draws a new layout
/// and its move is centred on 0, so the scale has `n` degrees of freedom),
/// but from the median absolute move, so that one earlier real change
/// among them barely widens it. `None` with fewer than [`MIN_REBUILDS`]
/// finite moves.
#[must_use]
pub fn rebuild_bound(log_moves: &[f64]) -> Option<f64> {
    let abs: Vec<f64> = log_moves
        .iter()
        .filter(|d| d.is_finite())
        .map(|d| d.abs())
        .collect();
    if abs.len() < MIN_REBUILDS {
        return None;
    }
    // 1.4826 = 1 / Φ⁻¹(0.75): the median absolute value of N(0, σ) is σ / 1.4826.
    let s = 1.4826 * crate::univariate::median(&abs)?;
    let t = t_quantile(0.975, abs.len() as f64);
    Some((t * s).exp() - 1.0)
}

/// The one-way random-effects split of log values grouped by layout.
struct Components {
    /// Variance of the layouts' mean logs.
    between: f64,
    /// Pooled variance within a layout.
    within: f64,
    /// The mean over layouts of 1 / (values in the layout).
    per_mean: f64,
    /// The layout component: `between − within · per_mean`, at least 0.
    component: f64,
    layouts: usize,
    values: usize,
}

fn components(values: &[f64], layout: &[usize]) -> Option<Components> {
    let g = groups(values, layout);
    let k = g.len();
    let n: usize = g.iter().map(Vec::len).sum();
    if k < 2 || n <= k {
        return None;
    }
    let means: Vec<f64> = g
        .iter()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .collect();
    let within = g
        .iter()
        .zip(&means)
        .map(|(v, m)| v.iter().map(|x| (x - m).powi(2)).sum::<f64>())
        .sum::<f64>()
        / (n - k) as f64;
    let grand = means.iter().sum::<f64>() / k as f64;
    let between = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / (k - 1) as f64;
    // A layout mean averages its values: the processes add `within / n_g`.
    let per_mean = g.iter().map(|v| 1.0 / v.len() as f64).sum::<f64>() / k as f64;
    Some(Components {
        between,
        within,
        per_mean,
        component: (between - within * per_mean).max(0.0),
        layouts: k,
        values: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rebuild_bound_is_the_robust_prediction_bound_of_the_next_move() {
        // Hand calculation, t quantiles from a published table:
        // t(0.975, 3) = 3.182446, t(0.975, 5) = 2.570582.
        // A benchmark every rebuild moved by about 6 %: median |ln| 0.06,
        // s = 1.4826 · 0.06, bound exp(3.182446 · s) − 1 = 0.327235.
        let b = rebuild_bound(&[0.06, -0.058, 0.061]).unwrap();
        assert!((b - 0.327235).abs() < 1e-4, "{b}");
        // Quiet rebuilds and one real change of 5 %: the median ignores
        // it; median |ln| 0.004, exp(2.570582 · 1.4826 · 0.004) − 1.
        let b = rebuild_bound(&[0.004, -0.006, 0.003, -0.002, 0.05]).unwrap();
        assert!((b - 0.015361).abs() < 1e-5, "{b}");
        // Too few to learn from; non-finite moves do not count.
        assert_eq!(rebuild_bound(&[0.06, 0.06]), None);
        assert_eq!(rebuild_bound(&[0.06, f64::NAN, 0.06]), None);
    }
    use crate::paired::units_t_ratio;

    // numpy/scipy, x = log(r), four layouts of two pairs each:
    //   r = [1.01, 1.03, 0.99, 1.00, 1.012, 1.028, 0.992, 1.003]
    //   g = [0, 1, 2, 3, 0, 1, 2, 3]
    //   m = [x[g == i].mean() for i in range(4)]
    //   exp(m) = [1.01099951, 1.02899951, 0.9909995, 1.00149888]
    //   t over m: exp(mean) = 1.0080277853017416,
    //     [0.9827342749473117, 1.0339722973382732], p = 0.3904535103824301
    //   within = 2.5921514973832804e-06, between = 0.000255049253975304,
    //   component = between - within / 2 = 0.00025375317822661235,
    //   exp(2 sqrt(component)) - 1 = 0.03237220331298829
    //   f_oneway(*[x[g == i] for i in range(4)]): F = 196.78576212290616,
    //     p = 8.473239480398002e-05
    const R: [f64; 8] = [1.01, 1.03, 0.99, 1.00, 1.012, 1.028, 0.992, 1.003];
    const G: [usize; 8] = [0, 1, 2, 3, 0, 1, 2, 3];

    #[test]
    fn layouts_are_the_units_of_students_t() {
        let m = by_layout(&R, &G);
        let want = [1.010_999_51, 1.028_999_51, 0.990_999_5, 1.001_498_88];
        for (got, want) in m.iter().zip(want) {
            assert!((got - want).abs() < 1e-8, "{got} vs {want}");
        }
        let (i, p) = units_t_ratio(&m, 0.95).unwrap();
        assert!((i.ratio - 1.008_027_785_301_741_6).abs() < 1e-12);
        assert!((i.lower - 0.982_734_274_947_311_7).abs() < 1e-9);
        assert!((i.upper - 1.033_972_297_338_273_2).abs() < 1e-9);
        assert!((p - 0.390_453_510_382_430_1).abs() < 1e-7);
        assert_eq!(i.rounds, 4);
    }

    #[test]
    fn the_layout_component_is_what_the_pairs_do_not_explain() {
        let s = spread(&R, &G).unwrap();
        assert!((s.share - 0.032_372_203_312_988_29).abs() < 1e-9, "{s:?}");
        assert!(
            (s.p_value - 8.473_239_480_398_002e-5).abs() < 1e-10,
            "{s:?}"
        );
        assert!(s.limiting);
    }

    #[test]
    fn processes_alone_are_no_layout_effect() {
        // The same layouts on both sides (an A/A comparison): the two
        // pairs of a layout disagree as much as the layouts do.
        let r = [1.01, 0.99, 1.0, 1.005, 0.99, 1.01, 1.0, 0.995];
        let s = spread(&r, &G).unwrap();
        assert_eq!(s.share, 0.0);
        assert!(!s.limiting);
    }

    #[test]
    fn layouts_that_differ_within_chance_are_not_called_limiting() {
        // Between-layout spread twice what the pairs' spread explains, but
        // with four layouts of two pairs that is chance (F = 2 on 3 and 4
        // degrees of freedom: scipy stats.f.sf(2, 3, 4) = 0.256387197528176).
        let d = 0.01_f64;
        let (a, b) = ((d).exp(), (-d).exp());
        // Within each layout the pairs differ by ±d; the layout means are
        // ±e with e chosen so that between / (within / 2) = 2.
        // within = 2·d²·4 / 4 = 2d²; between = var(±e, ±e) = 4e²/3.
        let e = (1.5 * d * d).sqrt();
        let (u, v) = (e.exp(), (-e).exp());
        let r = [a * u, b * v, a * u, b * v, b * u, a * v, b * u, a * v];
        let s = spread(&r, &G).unwrap();
        assert!((s.p_value - 0.256_387_197_528_176).abs() < 1e-9, "{s:?}");
        assert!(!s.limiting);
    }

    #[test]
    fn the_prediction_bound_leaves_the_processes_out() {
        // numpy/scipy: per-process medians, four layouts of two processes:
        //   v = [100, 103, 98, 101, 100.6, 102.4, 98.5, 100.4], x = log(v)
        //   within = 1.6414680946377114e-05, between = 0.00032974092674231394
        //   component = between - within / 2 = 0.00032153358626912535
        //   exp(t.ppf(0.975, 3) * sqrt(2) * sqrt(component)) - 1
        //     = 0.08404880077727261
        let v = [100.0, 103.0, 98.0, 101.0, 100.6, 102.4, 98.5, 100.4];
        let b = prediction_bound(&v, &G).unwrap();
        assert!((b - 0.084_048_800_777_272_61).abs() < 1e-9, "{b}");
        // Processes that disagree as much as the layouts: nothing is layout.
        let v = [100.0, 101.0, 100.0, 101.0, 101.0, 100.0, 101.0, 100.0];
        assert_eq!(prediction_bound(&v, &G), Some(0.0));
        assert_eq!(prediction_bound(&[1.0, 2.0], &[0, 1]), None);
    }

    #[test]
    fn too_few_layouts_or_pairs_say_nothing() {
        assert_eq!(spread(&[1.0, 1.1], &[0, 1]), None);
        assert_eq!(spread(&[1.0, 1.1, 1.2], &[0, 0, 0]), None);
        assert_eq!(by_layout(&[2.0, 8.0, 0.0], &[1, 1, 2]), vec![4.0]);
    }
}

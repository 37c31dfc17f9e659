//! Many comparisons at once: Benjamini–Hochberg control of the false
//! discovery rate.
//!
//! A run that compares 50 benchmarks at p < 0.05 flags about 2.5 of them by
//! chance alone. Benjamini–Hochberg keeps the expected share of false flags
//! among the flagged at most `q`.

/// Benjamini–Hochberg adjusted p-values (q-values), in the input's order:
/// `p_adj(i) = min over j ≥ rank(i) of (m / j) · p_(j)`, capped at 1.
/// A comparison is flagged at false discovery rate `q` when its adjusted
/// p-value is at most `q`.
///
/// NaN p-values are treated as 1 (nothing learnt).
///
/// ```
/// use yardstick_stats::multiple::benjamini_hochberg;
/// let adj = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
/// assert!((adj[3] - 0.02).abs() < 1e-12);
/// ```
#[must_use]
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean: Vec<f64> = p
        .iter()
        .map(|&x| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    // Ties in index order, as a stable sort would leave them.
    order.sort_unstable_by(|&a, &b| clean[a].total_cmp(&clean[b]).then(a.cmp(&b)));
    let mut adjusted = vec![1.0; m];
    let mut running = 1.0_f64;
    for (rank0, &i) in order.iter().enumerate().rev() {
        let q = clean[i] * m as f64 / (rank0 + 1) as f64;
        running = running.min(q).min(1.0);
        adjusted[i] = running;
    }
    adjusted
}

/// What controlling the false discovery rate at `q` leaves: the flags, and
/// how many of the flagged are expected to be false (at most `q` of them).
#[derive(Debug, Clone, PartialEq)]
pub struct FdrOutcome {
    /// Per comparison, in input order: still flagged after the correction.
    pub flagged: Vec<bool>,
    /// Upper bound of the expected number of false flags: `q · flagged`.
    pub expected_false: f64,
}

/// Flags the comparisons whose Benjamini–Hochberg adjusted p-value is at
/// most `q`.
#[must_use]
pub fn control_fdr(p: &[f64], q: f64) -> FdrOutcome {
    let flagged: Vec<bool> = benjamini_hochberg(p).iter().map(|&a| a <= q).collect();
    let n = flagged.iter().filter(|&&f| f).count();
    FdrOutcome {
        flagged,
        expected_false: q * n as f64,
    }
}

/// The words every summary of [`control_fdr`] ends with, so that the
/// harness and `cargo yardstick` say it alike: `with the false-discovery
/// rate across them held at 5%, 1 remains (about 0.05 of them expected to
/// be false): parse/json`, or, when none survives, `…, 0 remain (the others
/// are what chance alone flags among this many)`.
#[must_use]
pub fn survivors_clause(q: f64, kept: &[&str]) -> String {
    let head = format!(
        "with the false-discovery rate across them held at {:.0}%, {} remain{}",
        q * 100.0,
        kept.len(),
        if kept.len() == 1 { "s" } else { "" }
    );
    if kept.is_empty() {
        format!("{head} (the others are what chance alone flags among this many)")
    } else {
        format!(
            "{head} (about {:.2} of them expected to be false): {}",
            q * kept.len() as f64,
            kept.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjusted_p_values_match_scipy() {
        // scipy.stats.false_discovery_control(p, method='bh') on
        // p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.001, 0.049]:
        let p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.001, 0.049];
        let expected = [
            0.026_666_666_666_666_665,
            0.064,
            0.06,
            0.02,
            0.228_571_428_571_428_56,
            0.5,
            0.008,
            0.065_333_333_333_333_33,
        ];
        for (a, e) in benjamini_hochberg(&p).iter().zip(expected) {
            assert!((a - e).abs() < 1e-12 * e.max(1e-300), "{a} vs {e}");
        }
    }

    #[test]
    fn flags_and_the_expected_false_count() {
        let p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.001, 0.049];
        let out = control_fdr(&p, 0.05);
        // Adjusted below 0.05: 0.0267, 0.02, 0.008.
        assert_eq!(
            out.flagged,
            [true, false, false, true, false, false, true, false]
        );
        assert!((out.expected_false - 0.15).abs() < 1e-12);
        assert_eq!(control_fdr(&[], 0.05).flagged, Vec::<bool>::new());
        assert_eq!(benjamini_hochberg(&[f64::NAN]), [1.0]);
    }
}

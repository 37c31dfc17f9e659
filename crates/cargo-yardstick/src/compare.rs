//! Comparing two sets of results: per benchmark, the relative change of the
//! typical value with its interval and a verdict.
//!
//! With samples on both sides (two or more each) the change is Criterion.rs's:
//! the bootstrapped relative change of the mean, a bootstrapped t-test, and
//! a verdict against the noise threshold (`yardstick_stats::compare`).
//! Without samples (summaries, exact instruction counts) the change is
//! `new / old − 1` of the typical values and the verdict compares it with
//! the noise threshold alone; the p-value is then absent.

use yardstick_stats::{compare as stats_compare, ChangeConfig, Verdict};

use crate::record::{BenchResult, Interval};

/// One benchmark's change.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark id.
    pub name: String,
    /// Unit of `old` and `new`.
    pub unit: String,
    /// The typical value before.
    pub old: Interval,
    /// The typical value after.
    pub new: Interval,
    /// Relative change (0.05 = 5 % slower) with its interval.
    pub change: Interval,
    /// p-value of the test, when both sides had samples.
    pub p_value: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// Benchmarks in both, by id.
    pub rows: Vec<Row>,
    /// Ids only in the old run.
    pub only_old: Vec<String>,
    /// Ids only in the new run.
    pub only_new: Vec<String>,
    /// Benchmarks skipped, with why (units differ, bad samples).
    pub skipped: Vec<String>,
}

/// Compares `new` against `old`.
#[must_use]
pub fn compare(old: &[BenchResult], new: &[BenchResult], cfg: &ChangeConfig) -> Comparison {
    let mut out = Comparison::default();
    for n in new {
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            out.only_new.push(n.name.clone());
            continue;
        };
        if o.unit != n.unit {
            out.skipped.push(format!(
                "{}: unit {} before, {} now",
                n.name, o.unit, n.unit
            ));
            continue;
        }
        match row(o, n, cfg) {
            Ok(r) => out.rows.push(r),
            Err(e) => out.skipped.push(format!("{}: {e}", n.name)),
        }
    }
    for o in old {
        if !new.iter().any(|n| n.name == o.name) {
            out.only_old.push(o.name.clone());
        }
    }
    out.rows.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn row(o: &BenchResult, n: &BenchResult, cfg: &ChangeConfig) -> Result<Row, String> {
    let (change, p_value, verdict) = if o.iters.len() >= 2 && n.iters.len() >= 2 {
        let c = stats_compare(&o.averages(), &n.averages(), cfg).map_err(|e| e.to_string())?;
        (
            Interval {
                point: c.mean.point,
                lower: c.mean.lower,
                upper: c.mean.upper,
            },
            Some(c.p_value),
            c.verdict,
        )
    } else {
        if o.typical.point <= 0.0 {
            return Err("the old typical value is not positive".into());
        }
        // (new − old) / old: for whole counts the difference is exact, so a
        // count grown by exactly the threshold is not above it (new / old − 1
        // would round 1010 / 1000 − 1 above 0.01).
        let rel = (n.typical.point - o.typical.point) / o.typical.point;
        let verdict = if rel > cfg.noise_threshold {
            Verdict::Regressed
        } else if rel < -cfg.noise_threshold {
            Verdict::Improved
        } else {
            Verdict::NoChange
        };
        (Interval::exact(rel), None, verdict)
    };
    Ok(Row {
        name: n.name.clone(),
        unit: n.unit.clone(),
        old: o.typical,
        new: n.typical,
        change,
        p_value,
        verdict,
    })
}

/// The verdict's word in tables.
#[must_use]
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::NoChange => "no change",
        Verdict::WithinNoise => "within noise",
    }
}

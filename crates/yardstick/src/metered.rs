//! Extra metrics read around every sample, beside the primary measurement.
//!
//! The [`Bencher`](crate::Bencher)'s loops start and stop the active
//! [`MeterSet`] exactly where they start and stop the measurement, so the
//! metrics cover the same timed code. The set lives in a thread-local rather
//! than in the `Bencher`, whose type (and lifetime) is Criterion.rs's.

use std::cell::RefCell;

use yardstick_stats::{compare, estimates, BootstrapConfig, Change, ChangeConfig, Estimate};

use crate::meters::{MeterSet, Metric};

struct Active {
    set: MeterSet,
    /// One row of totals per sample since the last [`clear`].
    rows: Vec<Vec<f64>>,
}

thread_local! {
    static ACTIVE: RefCell<Option<Active>> = const { RefCell::new(None) };
}

/// Starts the active meters, if any (called next to `Measurement::start`).
#[inline]
pub(crate) fn start() {
    ACTIVE.with(|a| {
        if let Some(a) = a.borrow_mut().as_mut() {
            a.set.start();
        }
    });
}

/// Stops the active meters, adding to their totals.
#[inline]
pub(crate) fn stop() {
    ACTIVE.with(|a| {
        if let Some(a) = a.borrow_mut().as_mut() {
            a.set.stop();
        }
    });
}

/// Ends one sample: its totals become a row.
pub(crate) fn end_sample() {
    ACTIVE.with(|a| {
        if let Some(a) = a.borrow_mut().as_mut() {
            let mut row = Vec::with_capacity(a.set.metrics().len());
            a.set.take(&mut row);
            a.rows.push(row);
        }
    });
}

/// Opens `metrics` for this thread's next benchmark; returns the notes on
/// what cannot be measured. An empty list deactivates the meters.
pub(crate) fn activate(metrics: &[Metric]) -> Vec<String> {
    if metrics.is_empty() {
        deactivate();
        return Vec::new();
    }
    let (set, notes) = MeterSet::open(metrics);
    ACTIVE.with(|a| {
        *a.borrow_mut() = (!set.is_empty()).then(|| Active {
            set,
            rows: Vec::new(),
        });
    });
    notes
}

/// Closes the meters and returns the metrics measured with their rows.
pub(crate) fn deactivate() -> Option<(Vec<Metric>, Vec<Vec<f64>>)> {
    ACTIVE.with(|a| {
        a.borrow_mut()
            .take()
            .map(|a| (a.set.metrics().to_vec(), a.rows))
    })
}

/// One metric's result for one benchmark.
#[derive(Debug, Clone)]
pub(crate) struct MetricResult {
    pub metric: Metric,
    /// Per iteration (slope or mean) for additive metrics.
    pub estimate: Option<Estimate>,
    /// The largest sample value, for metrics that are maxima (peak bytes).
    pub peak: Option<f64>,
    /// Total of each sample, as measured.
    pub values: Vec<f64>,
    /// The change from the baseline's same metric, when it has one.
    pub change: Option<Change>,
    /// The baseline's values per iteration, when it has this metric
    /// (rebar3_bench's block compares them sample by sample).
    pub baseline_per_iteration: Option<Vec<f64>>,
}

/// Analyses each metric's samples like the primary measurement: the slope
/// per iteration for linear sampling, else the mean per iteration. Samples a
/// source could not read (NaN) leave that metric without an estimate.
pub(crate) fn analyse(
    metrics: &[Metric],
    rows: &[Vec<f64>],
    iters: &[f64],
    linear: bool,
    cfg: &BootstrapConfig,
) -> Vec<MetricResult> {
    metrics
        .iter()
        .enumerate()
        .map(|(k, &metric)| {
            let values: Vec<f64> = rows
                .iter()
                .map(|r| r.get(k).copied().unwrap_or(f64::NAN))
                .collect();
            let usable = values.len() == iters.len() && values.iter().all(|v| v.is_finite());
            if !metric.is_additive() {
                let peak = usable.then(|| values.iter().copied().fold(0.0, f64::max));
                return MetricResult {
                    metric,
                    estimate: None,
                    peak,
                    values,
                    change: None,
                    baseline_per_iteration: None,
                };
            }
            let estimate = usable
                .then(|| estimates(iters, &values, linear, cfg).ok())
                .flatten()
                .map(|e| e.slope.unwrap_or(e.mean));
            MetricResult {
                metric,
                estimate,
                peak: None,
                values,
                change: None,
                baseline_per_iteration: None,
            }
        })
        .collect()
}

/// A baseline's saved metric: its name and sample totals.
pub(crate) type SavedMetric = (String, Vec<f64>);

/// Compares each additive metric with the baseline's, on the values per
/// iteration, as the time is compared.
pub(crate) fn compare_with(
    results: &mut [MetricResult],
    old: &[SavedMetric],
    old_iters: &[f64],
    new_iters: &[f64],
    cfg: &ChangeConfig,
) {
    for r in results.iter_mut().filter(|r| r.metric.is_additive()) {
        let Some((_, old_values)) = old.iter().find(|(n, _)| n == r.metric.name()) else {
            continue;
        };
        let per_iter = |v: &[f64], n: &[f64]| -> Option<Vec<f64>> {
            (v.len() == n.len() && v.iter().all(|x| x.is_finite()))
                .then(|| v.iter().zip(n).map(|(v, n)| v / n).collect())
        };
        if let (Some(o), Some(n)) = (
            per_iter(old_values, old_iters),
            per_iter(&r.values, new_iters),
        ) {
            r.change = compare(&o, &n, cfg).ok();
            r.baseline_per_iteration = Some(o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_collected_per_sample() {
        let notes = activate(&[Metric::Wall]);
        assert!(notes.is_empty(), "{notes:?}");
        for _ in 0..3 {
            start();
            std::thread::sleep(std::time::Duration::from_millis(2));
            stop();
            end_sample();
        }
        let (metrics, rows) = deactivate().unwrap();
        assert_eq!(metrics, [Metric::Wall]);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r[0] >= 2e6), "{rows:?}");
        assert!(deactivate().is_none());
    }

    #[test]
    fn additive_metrics_get_a_per_iteration_estimate() {
        // 3 allocations per iteration exactly: slope 3.
        let iters = [1.0, 2.0, 3.0, 4.0, 5.0];
        let rows: Vec<Vec<f64>> = iters.iter().map(|n| vec![3.0 * n, 100.0 * n]).collect();
        let cfg = BootstrapConfig {
            nresamples: 500,
            confidence: 0.95,
            seed: 1,
        };
        let r = analyse(
            &[Metric::Allocations, Metric::PeakLiveBytes],
            &rows,
            &iters,
            true,
            &cfg,
        );
        assert_eq!(r[0].estimate.unwrap().point, 3.0);
        assert_eq!(r[1].peak, Some(500.0));
        assert!(r[1].estimate.is_none());
        let mut bad = rows.clone();
        bad[2][0] = f64::NAN;
        let r = analyse(&[Metric::Allocations], &bad, &iters, true, &cfg);
        assert!(
            r[0].estimate.is_none(),
            "a NaN sample is no estimate, never a made-up one"
        );
    }

    #[test]
    fn metrics_are_compared_with_the_baselines() {
        let iters = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let rows: Vec<Vec<f64>> = iters.iter().map(|n| vec![4.0 * n]).collect();
        let cfg = BootstrapConfig {
            nresamples: 500,
            confidence: 0.95,
            seed: 1,
        };
        let mut r = analyse(&[Metric::Allocations], &rows, &iters, true, &cfg);
        // The baseline allocated about 2 per iteration (with a little
        // spread); now 4: +100 %, a regression.
        let old = vec![(
            "allocations".to_owned(),
            vec![2.0, 4.1, 5.9, 8.0, 10.1, 11.9],
        )];
        let ch = ChangeConfig {
            nresamples: 500,
            ..ChangeConfig::default()
        };
        compare_with(&mut r, &old, &iters, &iters, &ch);
        let change = r[0].change.as_ref().unwrap();
        assert!((change.mean.point - 1.0).abs() < 0.02, "{change:?}");
        assert_eq!(change.verdict, yardstick_stats::Verdict::Regressed);
    }
}

//! Extra metrics read around every sample, beside the primary measurement.
//!
//! The [`Bencher`](crate::Bencher)'s loops start and stop the benchmark's
//! [`Meters`] exactly where they start and stop the measurement, so the
//! metrics cover the same timed code. The runner hands the meters to each
//! `Bencher` it makes for the benchmark and takes their rows back at the
//! end: no state outside the benchmark's own values.

use std::cell::RefCell;
use std::rc::Rc;

use yardstick_stats::{compare, estimates, BootstrapConfig, Change, ChangeConfig, Estimate};

use crate::meters::{MeterSet, Metric};

struct Active {
    set: MeterSet,
    /// One row of totals per sample.
    rows: Vec<Vec<f64>>,
}

/// The open meters of one benchmark, shared by every `Bencher` made for it
/// (one per sample, on the benchmark's thread).
#[derive(Clone)]
pub(crate) struct Meters(Rc<RefCell<Active>>);

impl Meters {
    /// Opens `metrics`; `None` when none can be measured here, with the
    /// notes on what cannot.
    pub(crate) fn open(metrics: &[Metric]) -> (Option<Meters>, Vec<String>) {
        if metrics.is_empty() {
            return (None, Vec::new());
        }
        let (set, notes) = MeterSet::open(metrics);
        let meters = (!set.is_empty()).then(|| {
            Meters(Rc::new(RefCell::new(Active {
                set,
                rows: Vec::new(),
            })))
        });
        (meters, notes)
    }

    /// Starts the meters (next to `Measurement::start`).
    #[inline]
    pub(crate) fn start(&self) {
        self.0.borrow_mut().set.start();
    }

    /// Stops the meters, adding to their totals.
    #[inline]
    pub(crate) fn stop(&self) {
        self.0.borrow_mut().set.stop();
    }

    /// Ends one sample: its totals become a row.
    pub(crate) fn end_sample(&self) {
        let mut a = self.0.borrow_mut();
        let mut row = Vec::with_capacity(a.set.metrics().len());
        a.set.take(&mut row);
        a.rows.push(row);
    }

    /// The metrics measured, with one row per sample (the warm-up's first).
    pub(crate) fn close(self) -> (Vec<Metric>, Vec<Vec<f64>>) {
        let a = self.0.borrow();
        (a.set.metrics().to_vec(), a.rows.clone())
    }
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
        let (meters, notes) = Meters::open(&[Metric::Wall]);
        assert!(notes.is_empty(), "{notes:?}");
        let meters = meters.expect("wall time can always be read");
        for _ in 0..3 {
            meters.start();
            std::thread::sleep(std::time::Duration::from_millis(2));
            meters.stop();
            meters.end_sample();
        }
        let (metrics, rows) = meters.close();
        assert_eq!(metrics, [Metric::Wall]);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r[0] >= 2e6), "{rows:?}");
        assert!(Meters::open(&[]).0.is_none(), "no metrics, no meters");
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

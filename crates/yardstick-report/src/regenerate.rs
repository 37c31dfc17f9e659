//! Rendering reports from the files alone (`cargo yardstick report`): read
//! `new/`, the baseline and `change/`, recompute what the files do not keep
//! (bootstrap distributions, outlier labels, the comparison's p-value) with
//! `yardstick-stats` and a fixed seed, and write every page.

use std::path::Path;

use yardstick_format::criterion::SamplingMode;
use yardstick_stats::{
    classify, compare_with_distributions, estimates_with_distributions, BootstrapConfig,
    ChangeConfig,
};

use crate::disk::{discover, StoredBenchmark};
use crate::results::{BenchmarkResult, ChangeValue, EstimateValue, Parts, RunResults};
use crate::{write_benchmark, write_group_members, write_index_of, BenchmarkReport, ReportError};

/// The harness's bootstrap seed, so that distributions recomputed from
/// saved samples are the ones the run drew (given the same number of
/// resamples).
pub const DEFAULT_SEED: u64 = yardstick_stats::DEFAULT_SEED;

/// How to regenerate reports from disk.
#[derive(Debug, Clone, PartialEq)]
pub struct RegenerateOptions {
    /// Resamples of the recomputed bootstrap distributions (100 000, as the
    /// run's default; fewer is faster and draws nearly the same curves).
    pub nresamples: usize,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// The baseline to compare `new/` with (`base`).
    pub baseline: String,
    /// Whether a benchmark is compared with the baseline its last run
    /// compared with, when `change/verdict.json` names one, instead of
    /// `baseline` (`cargo yardstick report` without `--baseline`, `cargo
    /// yardstick explain`): its page then shows the comparison the run
    /// showed.
    pub baseline_of_run: bool,
    /// Logarithmic axes on the group pages.
    pub log_scale: bool,
    /// Significance level of the recomputed comparison (0.05).
    pub significance: f64,
    /// Noise threshold of the recomputed comparison (0.01).
    pub noise_threshold: f64,
}

impl Default for RegenerateOptions {
    fn default() -> RegenerateOptions {
        RegenerateOptions {
            nresamples: 100_000,
            seed: DEFAULT_SEED,
            baseline: "base".to_owned(),
            baseline_of_run: false,
            log_scale: false,
            significance: 0.05,
            noise_threshold: 0.01,
        }
    }
}

impl RegenerateOptions {
    /// The baseline the page of `b` compares with.
    #[must_use]
    pub fn baseline_for<'a>(&'a self, b: &'a StoredBenchmark) -> &'a str {
        let of_run = b.verdict.as_ref().and_then(|v| v.baseline.as_deref());
        match of_run {
            Some(name) if self.baseline_of_run => name,
            _ => &self.baseline,
        }
    }
}

/// What [`write_all`] did.
#[derive(Debug, Default)]
pub struct Regenerated {
    /// Benchmark pages written.
    pub benchmarks: usize,
    /// Group pages written.
    pub groups: usize,
    /// Benchmarks or groups that could not be rendered, with the reason;
    /// the others were still written.
    pub problems: Vec<ReportError>,
}

/// Rewrites every report under `home` from the saved files: each
/// benchmark's page, each group's page and the index.
///
/// # Errors
///
/// [`ReportError::Io`] when `home` cannot be read or the index cannot be
/// written. Problems with single benchmarks are collected in
/// [`Regenerated::problems`] instead.
pub fn write_all(home: &Path, opts: &RegenerateOptions) -> Result<Regenerated, ReportError> {
    let (stored, mut problems) = discover(home)?;
    let mut done = Regenerated::default();
    for b in &stored {
        match write_stored_benchmark(home, b, opts) {
            Ok(()) => done.benchmarks += 1,
            Err(e) => problems.push(e),
        }
    }
    let mut groups: Vec<&str> = Vec::new();
    for b in &stored {
        if !groups.contains(&b.record.group_id.as_str()) {
            groups.push(&b.record.group_id);
        }
    }
    for g in groups {
        let members: Vec<StoredBenchmark> = stored
            .iter()
            .filter(|b| b.record.group_id == g)
            .cloned()
            .collect();
        match write_group_members(home, g, &members, opts.log_scale) {
            Ok(true) => done.groups += 1,
            Ok(false) => {}
            Err(e) => problems.push(e),
        }
    }
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    write_index_of(home, &stored, &messages)?;
    done.problems = problems;
    Ok(done)
}

/// Rewrites the page of the benchmark saved in `<home>/<directory_name>`.
///
/// # Errors
///
/// As [`write_benchmark`], and [`ReportError::Io`] / [`ReportError::Format`]
/// when its files cannot be read.
pub fn write_benchmark_from_disk(
    home: &Path,
    directory_name: &str,
    opts: &RegenerateOptions,
) -> Result<(), ReportError> {
    let dir = crate::write::inside(home, directory_name)?;
    let stored = StoredBenchmark::load(&dir)?;
    write_stored_benchmark(home, &stored, opts)
}

fn write_stored_benchmark(
    home: &Path,
    b: &StoredBenchmark,
    opts: &RegenerateOptions,
) -> Result<(), ReportError> {
    let a = Analysed::of(b, opts)?;
    let explanation = crate::load_explanation(home, &b.record.directory_name);
    let build_line = a
        .change
        .as_ref()
        .and(a.compared_with(b, opts))
        .and_then(|with| build_line(home, b, with));
    write_benchmark(
        home,
        &BenchmarkReport {
            explanation: explanation.as_ref(),
            build_line: build_line.as_deref(),
            ..a.report(b)
        },
    )
}

/// Which baseline the page's change compares with.
enum ComparedWith<'a> {
    /// The change the run saved: the baseline it compared with, named by
    /// `change/verdict.json` (`None`: a file of an earlier yardstick).
    Saved(Option<&'a str>),
    /// Recomputed against the samples of this baseline's folder.
    Folder(&'a str),
}

/// How the last run's build differs from its baseline's, the line the
/// bench binary put on the page (`yardstick_format::build::compare_line`),
/// from the build records the saved folders name. The saved change's
/// baseline is the binary `change/binary.json` names, since the
/// baseline's folder may since hold this very run (a default run saves
/// over `base`); a recomputed change's is its folder's. An unreadable
/// record names nothing here: the run that compared said why.
fn build_line(home: &Path, b: &StoredBenchmark, with: ComparedWith<'_>) -> Option<String> {
    use yardstick_format::build::{baseline_words, compare_line, of_folder, Sides};
    let (folder, name) = match with {
        ComparedWith::Saved(name) => ("change", name.unwrap_or("base")),
        ComparedWith::Folder(name) => (name, name),
    };
    let old = of_folder(home, &b.dir.join(folder)).ok()?;
    let new = of_folder(home, &b.dir.join("new")).ok()?;
    let side = baseline_words(name);
    let sides = Sides {
        old: &side,
        new: "this run",
    };
    compare_line(old.as_ref(), new.as_ref(), sides)
}

/// What the files do not keep, recomputed.
struct Analysed {
    estimates: yardstick_stats::Estimates,
    distributions: yardstick_stats::Distributions,
    tukey: yardstick_stats::Tukey,
    baseline: Option<yardstick_format::criterion::SavedSample>,
    change: Option<yardstick_stats::Change>,
    change_distributions: Option<yardstick_stats::ChangeDistributions>,
}

/// The change the run saved (`change/estimates.json`), with its p-value,
/// t and verdict when `change/verdict.json` goes with it; without them
/// the p-value is NaN, which the page shows as not saved.
fn saved_change(b: &StoredBenchmark) -> Option<yardstick_stats::Change> {
    let c = b.change.as_ref()?;
    let est = |e: &yardstick_format::criterion::EstimateFile| EstimateValue::from(e).to_estimate();
    let judged = b.verdict.as_ref().and_then(|v| {
        yardstick_stats::Verdict::from_name(&v.verdict).map(|verdict| (v.p_value, v.t, verdict))
    });
    let (p_value, t, verdict) =
        judged.unwrap_or((f64::NAN, f64::NAN, yardstick_stats::Verdict::NoChange));
    Some(yardstick_stats::Change {
        mean: est(&c.mean),
        median: est(&c.median),
        p_value,
        t,
        verdict,
    })
}

/// The distribution of a run's typical estimate over its worker processes.
fn process_draws(s: &yardstick_format::criterion::SavedSample) -> Option<Vec<f64>> {
    use yardstick_stats::processes::{interval_draws, per_process};
    let e = per_process(&s.iters, &s.times, s.processes.as_deref()?).ok()?;
    interval_draws(&e, yardstick_stats::processes::DRAWN_POINTS)
}

/// The harness's comparison of two saved runs: between their processes
/// when both were sampled in worker processes, else over their samples.
fn compare_saved(
    old: &yardstick_format::criterion::SavedSample,
    new: &yardstick_format::criterion::SavedSample,
    cfg: &ChangeConfig,
) -> Result<
    (
        yardstick_stats::Change,
        yardstick_stats::ChangeDistributions,
    ),
    yardstick_stats::StatsError,
> {
    use yardstick_stats::processes::{compare_runs_with_distributions, RunSamples};
    let runs = old.processes.as_deref().zip(new.processes.as_deref());
    let between = runs.and_then(|(op, np)| {
        let old = RunSamples {
            iters: &old.iters,
            values: &old.times,
            processes: op,
        };
        let new = RunSamples {
            iters: &new.iters,
            values: &new.times,
            processes: np,
        };
        compare_runs_with_distributions(old, new, cfg, yardstick_stats::processes::DRAWN_POINTS)
    });
    match between {
        Some(c) => c,
        None => compare_with_distributions(&old.averages(), &new.averages(), cfg),
    }
}

impl Analysed {
    fn of(b: &StoredBenchmark, opts: &RegenerateOptions) -> Result<Analysed, ReportError> {
        let s = &b.sample;
        let confidence = b.estimates.mean.confidence_interval.confidence_level;
        let cfg = BootstrapConfig {
            nresamples: opts.nresamples,
            confidence,
            seed: opts.seed,
        };
        let linear = s.sampling_mode == SamplingMode::Linear && b.estimates.slope.is_some();
        let (mut estimates, mut distributions) =
            estimates_with_distributions(&s.iters, &s.times, linear, &cfg)?;
        // A run sampled in worker processes reported the interval over its
        // processes: draw that one, as the harness does.
        if let Some(draws) = process_draws(s) {
            *if linear {
                &mut distributions.slope
            } else {
                &mut distributions.mean
            } = draws;
        }
        // The numbers the run reported win over the recomputed ones.
        let saved =
            |e: &yardstick_format::criterion::EstimateFile| EstimateValue::from(e).to_estimate();
        estimates.mean = saved(&b.estimates.mean);
        estimates.median = saved(&b.estimates.median);
        estimates.std_dev = saved(&b.estimates.std_dev);
        estimates.mad = saved(&b.estimates.median_abs_dev);
        if let (Some(slope), Some(file)) = (&mut estimates.slope, &b.estimates.slope) {
            *slope = saved(file);
        }
        let averages = s.averages();
        let tukey = classify(&averages);
        // After a default run `base/` holds this very run: nothing to
        // compare then.
        let baseline = b.baseline(opts.baseline_for(b)).filter(|base| base != s);
        let cfg = ChangeConfig {
            nresamples: opts.nresamples,
            confidence,
            significance: opts.significance,
            noise_threshold: opts.noise_threshold,
            seed: opts.seed,
        };
        let lockstep = b.verdict.as_ref().and_then(|v| v.lockstep);
        let (change, change_distributions) = match &baseline {
            // A lock-step change was measured against the baseline's
            // binary, not its samples: it cannot be recomputed from them.
            Some(base) if lockstep.is_none() => {
                let (c, d) = compare_saved(base, s, &cfg)?;
                (Some(c), Some(d))
            }
            // After a default run the baseline's samples are this run's:
            // the change the run saved is all there is of its comparison.
            _ => (saved_change(b), None),
        };
        Ok(Analysed {
            estimates,
            distributions,
            tukey,
            baseline,
            change,
            change_distributions,
        })
    }

    /// The baseline [`Analysed::change`] compares with: the folder the
    /// change was recomputed against, else the run's own comparison when
    /// yardstick saved it (`change/binary.json` is written with
    /// `change/verdict.json`; beside another tool's later change it is
    /// that of an older comparison): `None` then.
    fn compared_with<'a>(
        &self,
        b: &'a StoredBenchmark,
        opts: &'a RegenerateOptions,
    ) -> Option<ComparedWith<'a>> {
        if self.change_distributions.is_some() {
            Some(ComparedWith::Folder(opts.baseline_for(b)))
        } else {
            let v = b.verdict.as_ref()?;
            Some(ComparedWith::Saved(v.baseline.as_deref()))
        }
    }

    fn report<'a>(&'a self, b: &'a StoredBenchmark) -> BenchmarkReport<'a> {
        BenchmarkReport {
            record: &b.record,
            sample: &b.sample,
            unit: &b.unit,
            estimates: &self.estimates,
            distributions: Some(&self.distributions),
            tukey: &self.tukey,
            baseline: self.baseline.as_ref(),
            change: self.change.as_ref(),
            change_distributions: self.change_distributions.as_ref(),
            lockstep: b.verdict.as_ref().and_then(|v| v.lockstep),
            explanation: None,
            // Read from the build records by `write_stored_benchmark`.
            build_line: None,
        }
    }
}

/// The results saved under `home` as a [`RunResults`] (for templates, the
/// markdown summary or the quick plot), without recomputing anything: the
/// estimates are those saved, outliers are reclassified from the samples,
/// and changes carry their p-value and verdict when `change/verdict.json`
/// saved them (yardstick's runs; not Criterion.rs's).
///
/// # Errors
///
/// [`ReportError::Io`] when `home` cannot be read.
pub fn load_results(home: &Path, title: &str) -> Result<RunResults, ReportError> {
    let (stored, _) = discover(home)?;
    let benchmarks = stored
        .iter()
        .map(|b| {
            let e = &b.estimates;
            let est = |f: &yardstick_format::criterion::EstimateFile| {
                EstimateValue::from(f).to_estimate()
            };
            let estimates = yardstick_stats::Estimates {
                mean: est(&e.mean),
                median: est(&e.median),
                std_dev: est(&e.std_dev),
                mad: est(&e.median_abs_dev),
                slope: e.slope.as_ref().map(est),
                r2: None,
                intercept_fit: None,
            };
            let tukey = classify(&b.sample.averages());
            BenchmarkResult::from_parts(Parts {
                record: &b.record,
                sampling_mode: b.sample.sampling_mode,
                iters: &b.sample.iters,
                times: &b.sample.times,
                unit: &b.unit,
                estimates: &estimates,
                tukey: &tukey,
                change: saved_change(b).map(|c| {
                    if c.p_value.is_nan() {
                        ChangeValue {
                            mean: (&c.mean).into(),
                            median: (&c.median).into(),
                            p_value: None,
                            verdict: None,
                            message: None,
                        }
                    } else {
                        ChangeValue::from(&c)
                    }
                }),
            })
        })
        .collect();
    Ok(RunResults::new(title, benchmarks))
}

#[cfg(test)]
mod tests {
    use super::compare_saved;
    use yardstick_format::criterion::{SamplingMode, SavedSample};
    use yardstick_stats::ChangeConfig;

    fn run(per_process: &[f64], processes: bool) -> SavedSample {
        SavedSample {
            sampling_mode: SamplingMode::Flat,
            iters: vec![1.0; per_process.len()],
            times: per_process.to_vec(),
            processes: processes.then(|| (0..per_process.len() as u32).collect()),
            measurement: None,
        }
    }

    #[test]
    fn runs_sampled_in_processes_are_compared_as_the_harness_compares_them() {
        // yardstick-stats' hand calculation of these two runs (one sample a
        // process): +12.50 % in (3.87 %, 21.84 %).
        let old = [100.0, 102.0, 98.0, 101.0, 99.0];
        let new = [113.0, 111.0, 115.0, 112.0, 114.0, 110.0];
        let cfg = ChangeConfig::default();
        let (c, d) = compare_saved(&run(&old, true), &run(&new, true), &cfg).unwrap();
        assert!(
            (c.mean.lower - 0.038_740_749_431_533_064).abs() < 1e-6,
            "{c:?}"
        );
        assert!(
            (c.mean.upper - 0.218_385_284_729_067_82).abs() < 1e-6,
            "{c:?}"
        );
        assert_eq!(d.mean.len(), 2_000);
        // Without processes, the samples' bootstrap: a narrower interval.
        let (c, _) = compare_saved(&run(&old, false), &run(&new, false), &cfg).unwrap();
        assert!(c.mean.lower > 0.05, "{c:?}");
    }
}

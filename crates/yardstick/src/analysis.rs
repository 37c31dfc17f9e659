//! Turns a benchmark's samples into estimates and, given a baseline, a
//! change. A thin layer over `yardstick-stats`: it only chooses what to
//! compute from the configuration.

use yardstick_stats::processes::{compare_runs_with_distributions, RunSamples, DRAWN_POINTS};
use yardstick_stats::{
    classify, compare_with_resampled_new, estimates_with_distributions, BootstrapConfig, Change,
    ChangeConfig, ChangeDistributions, Distributions, Estimate, Estimates, StatsError, Tukey,
};

use crate::config::{ActualSamplingMode, BenchmarkConfig};
use crate::store::SavedSample;

/// The seed of every bootstrap: the analysis is a pure function of the
/// samples, so saved samples always give the same numbers.
pub(crate) const SEED: u64 = yardstick_stats::DEFAULT_SEED;

/// What sampling produced: the plain value the analysis starts from.
#[derive(Debug, Clone)]
pub(crate) struct Samples {
    pub mode: ActualSamplingMode,
    pub iters: Vec<f64>,
    pub values: Vec<f64>,
    /// The worker process of each sample, when several took them.
    pub processes: Option<Vec<u32>>,
}

impl Samples {
    pub(crate) fn in_one_process(
        mode: ActualSamplingMode,
        iters: Vec<f64>,
        values: Vec<f64>,
    ) -> Samples {
        Samples {
            mode,
            iters,
            values,
            processes: None,
        }
    }

    pub(crate) fn from_sampled(s: crate::adaptive::Sampled) -> Samples {
        Samples {
            mode: s.mode,
            iters: s.iters,
            values: s.values,
            processes: s.processes,
        }
    }

    pub(crate) fn from_saved(s: SavedSample) -> Samples {
        Samples {
            mode: s.sampling_mode,
            iters: s.iters,
            values: s.times,
            processes: s.processes,
        }
    }

    /// One estimate per worker process (its median time per iteration), when
    /// at least two processes took the samples.
    fn per_process(&self) -> Option<Vec<f64>> {
        per_process_estimates(&self.iters, &self.values, self.processes.as_deref())
    }
}

fn per_process_estimates(
    iters: &[f64],
    values: &[f64],
    processes: Option<&[u32]>,
) -> Option<Vec<f64>> {
    let e = yardstick_stats::processes::per_process(iters, values, processes?).ok()?;
    (e.len() >= 2).then_some(e)
}

/// What the analysis of one benchmark found.
#[derive(Debug, Clone)]
pub(crate) struct Analysis {
    pub mode: ActualSamplingMode,
    pub iters: Vec<f64>,
    pub values: Vec<f64>,
    /// Measured value per iteration of each sample.
    pub averages: Vec<f64>,
    pub estimates: Estimates,
    pub tukey: Tukey,
    /// R² of the slope line at the lower and upper bounds of its interval.
    pub r2_bounds: Option<(f64, f64)>,
    pub change: Option<Change>,
    /// The worker process of each sample, when several took them.
    pub processes: Option<Vec<u32>>,
    /// One estimate per worker process; the typical estimate's interval is
    /// Student's t over them.
    pub per_process: Option<Vec<f64>>,
    /// Whether the change was judged between processes on both sides (it
    /// carries run-to-run noise), rather than between samples.
    pub change_between_processes: bool,
    /// The change was measured in lock-step with the baseline's binary.
    pub lockstep: Option<Lockstep>,
    /// The noise threshold the change's verdict was judged at.
    pub judged_threshold: f64,
    /// When the verdict holds the suite's error rate: how it was judged,
    /// and what the comparison alone would have said.
    pub suite: Option<SuiteJudgement>,
    /// The bootstrap distributions, kept for the report's plots.
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub distributions: Option<Distributions>,
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub change_distributions: Option<ChangeDistributions>,
}

/// A verdict judged at its share of the suite's error rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SuiteJudgement {
    /// The suite's error rate (the significance level asked for).
    pub alpha: f64,
    /// The level this comparison was judged at.
    pub level: f64,
    /// The comparisons the run planned.
    pub planned: usize,
    /// The verdict of the comparison alone, at `alpha`.
    pub one_by_one: yardstick_stats::Verdict,
    /// Its code changed, so it was judged alone at `level`
    /// (`runner::code_changed`).
    pub alone: bool,
}

impl Analysis {
    /// The verdict the change gets at significance `alpha`, at the noise
    /// threshold it was judged at.
    pub(crate) fn verdict_at(&self, alpha: f64) -> Option<yardstick_stats::Verdict> {
        self.verdict_at_threshold(alpha, self.judged_threshold)
    }

    /// The verdict the change gets at significance `alpha` and noise
    /// threshold `threshold`.
    pub(crate) fn verdict_at_threshold(
        &self,
        alpha: f64,
        threshold: f64,
    ) -> Option<yardstick_stats::Verdict> {
        let ch = self.change.as_ref()?;
        let cfg = ChangeConfig {
            significance: alpha,
            noise_threshold: threshold,
            ..ChangeConfig::default()
        };
        Some(yardstick_stats::verdict_of(ch.p_value, &ch.mean, &cfg))
    }

    /// Judges the change alone, at `alpha` and the lock-step `threshold`
    /// with no layout allowance: what a comparison whose code changed gets
    /// (`runner::code_changed`). Its verdict alone and the suite's are then
    /// one.
    pub(crate) fn judge_alone(&mut self, alpha: f64, threshold: f64) {
        let Some(verdict) = self.verdict_at_threshold(alpha, threshold) else {
            return;
        };
        if let Some(ch) = self.change.as_mut() {
            ch.verdict = verdict;
        }
        self.judged_threshold = threshold;
        if let Some(s) = self.suite.as_mut() {
            s.one_by_one = verdict;
            s.level = alpha;
            s.alone = true;
        }
    }
}

/// A comparison measured in lock-step with the baseline's binary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lockstep {
    /// Worker pairs (each pair's median ratio is one observation).
    pub pairs: usize,
    /// Paired rounds.
    pub rounds: usize,
    /// What relinking the same code moves this benchmark by: as
    /// `cargo yardstick calibrate --layouts` measured it, else
    /// [`LAYOUT_ALLOWANCE`] between two different builds. When wider than
    /// the lock-step threshold it becomes the threshold, because each side
    /// ran one layout of its build; `None` between identical builds.
    pub layout_spread: Option<f64>,
    /// Whether `calibrate --layouts` measured this benchmark at all: a
    /// verdict without it says that code layout was not sampled.
    pub layouts_measured: bool,
    /// The earlier rebuilds `layout_spread` was learned from (their moves,
    /// `relinks.json`), when they moved the benchmark further than
    /// [`LAYOUT_ALLOWANCE`]; 0 otherwise.
    pub learned_from: usize,
    /// Instructions per iteration, when a verdict past the learned
    /// allowance was checked under Callgrind and both sides execute the
    /// same: the change is how the code runs, not what it runs, and it is
    /// no verdict.
    pub same_instructions: Option<f64>,
    /// Instructions per iteration of the baseline and of this build, when
    /// both were counted under Callgrind and they differ: what the code
    /// runs changed, so what earlier rebuilds moved the benchmark by does
    /// not excuse a change beyond the default allowance (and the move is
    /// not learned as a rebuild's), and a comparison over sampled layouts
    /// is judged alone (`runner::code_changed`).
    pub instructions_changed: Option<(f64, f64)>,
    /// Both sides ran the same binary (the same content hash): code layout
    /// cannot differ, and nothing is said about it.
    pub same_build: bool,
    /// What counting both binaries before measuring found (`None` when
    /// they were not counted): their instructions per iteration, whether
    /// the bytes of one it executed differ (`explain::code`), and whether
    /// its rounds therefore ran longer (`runner::lockstep`'s
    /// `CHANGED_CODE_BUDGET`). Kept as the verdict's file keeps it.
    pub counted_first: Option<yardstick_format::change::CountedFile>,
    /// Whether every function of the baseline's build is in this one with
    /// the same bytes (`explain::code`, from both binaries' relocations):
    /// `Some(true)` and no benchmark's instructions can have changed, so
    /// none was counted; `None` when not compared.
    pub same_code: Option<bool>,
    /// How many of the baseline's functions differ, when at least half do
    /// (`runner::lockstep`'s `REWRITTEN_SHARE`): the whole build changed,
    /// every benchmark's code with it, and nothing was counted.
    pub rewritten: Option<yardstick_format::change::RewrittenFile>,
    /// Code layouts of each build the pairs were spread over (two or more:
    /// the interval's units are the layouts, so what moving the code does
    /// is in it, and no allowance is added); 0 for the builds as linked.
    pub layouts: usize,
}

#[cfg(test)]
impl Lockstep {
    /// `pairs` worker pairs and `rounds` rounds between two different
    /// builds as linked, and nothing else known: the tests' starting point.
    pub(crate) fn of(pairs: usize, rounds: usize) -> Lockstep {
        Lockstep {
            pairs,
            rounds,
            layout_spread: None,
            layouts_measured: false,
            learned_from: 0,
            same_instructions: None,
            instructions_changed: None,
            same_build: false,
            counted_first: None,
            same_code: None,
            rewritten: None,
            layouts: 0,
        }
    }
}

/// What relinking alone may move a benchmark by, between two different
/// builds whose layouts were not sampled: a change within it is not
/// called a regression or an improvement. Measured: see the guide's
/// trust page (the layouts of the guide's and the trust suite's
/// benchmarks, `compare/trust/allowance.py`).
pub(crate) const LAYOUT_ALLOWANCE: f64 = 0.05;

impl Lockstep {
    /// How many times the usual rounds' time it got, when that was more:
    /// both binaries were counted before measuring and its code differs
    /// between them, so a change of code can be here. Files written before
    /// the factor was kept ran four times.
    pub(crate) fn longer_rounds(&self) -> Option<f64> {
        self.counted_first
            .filter(|c| c.longer_rounds)
            .map(|c| c.rounds_factor.unwrap_or(4.0))
    }

    /// The bytes of an instruction it executed differ between the two
    /// binaries, whether or not its instructions per iteration do, or most
    /// of the build's functions do: its code changed, known before
    /// measuring.
    pub(crate) fn ran_changed_code(&self) -> bool {
        self.rewritten.is_some() || self.counted_first.is_some_and(|c| c.code_changed)
    }

    /// What the saved files and the report keep of it.
    pub(crate) fn file(&self) -> yardstick_format::change::LockstepFile {
        yardstick_format::change::LockstepFile {
            pairs: self.pairs,
            rounds: self.rounds,
            layouts: self.layouts,
            counted: self.counted_first,
            same_code: self.same_code,
            rewritten: self.rewritten,
        }
    }
}

/// The share of the noise threshold a lock-step change must clear with its
/// whole interval. Criterion.rs's threshold (1 % by default) stands for
/// the machine's drift between two runs, which lock-step cancels rather
/// than assumes; what is left of it keeps tiny changes out of the
/// verdicts. A quarter: over the guide's 63 benchmarks run four times
/// unchanged under a compile load, no comparison's interval lay beyond
/// ±0.2 % (6 of 189 beyond 0), while at half, a +1 % change compiled into
/// one benchmark was called regressed in 4 of 10 tries (all 10 were
/// significant).
pub(crate) const LOCKSTEP_THRESHOLD_SHARE: f64 = 0.25;

/// The noise threshold a lock-step change is judged at before any layout
/// allowance: [`LOCKSTEP_THRESHOLD_SHARE`] of `config`'s.
pub(crate) fn lockstep_threshold(config: &BenchmarkConfig) -> f64 {
    change_config(config).noise_threshold * LOCKSTEP_THRESHOLD_SHARE
}

impl Analysis {
    /// Replaces the change by the lock-step interval of B/A (this run over
    /// the baseline's binary) and its p-value, judged by Criterion.rs's
    /// rule at [`LOCKSTEP_THRESHOLD_SHARE`] of the noise threshold, or at
    /// the measured layout spread when that is wider.
    pub(crate) fn judge_lockstep(
        &mut self,
        interval: &yardstick_stats::paired::RatioInterval,
        p_value: f64,
        how: Lockstep,
        config: &BenchmarkConfig,
    ) {
        let threshold = lockstep_threshold(config);
        let layout = if how.same_build || how.layouts >= 2 {
            None
        } else {
            Some(how.layout_spread.unwrap_or(LAYOUT_ALLOWANCE))
        };
        let how = Lockstep {
            layout_spread: layout.filter(|&s| s > threshold),
            ..how
        };
        let cfg = ChangeConfig {
            noise_threshold: how.layout_spread.unwrap_or(threshold),
            ..change_config(config)
        };
        self.change = Some(yardstick_stats::paired::ratio_change(
            interval, p_value, &cfg,
        ));
        self.judged_threshold = cfg.noise_threshold;
        // The report draws the comparison the verdict made.
        self.change_distributions = self
            .distributions
            .is_some()
            .then(|| yardstick_stats::paired::ratio_change_draws(interval, DRAWN_POINTS));
        self.change_between_processes = false;
        self.lockstep = Some(how);
    }
}

/// How many noise thresholds wide the half of a change's interval may be
/// before the verdict says the machine is too noisy. Each run counts at
/// least the threshold as its own shift, so a quiet machine's interval is
/// already about ±2.8 thresholds; past 4, changes a user cares about
/// (±4 % at the default 1 %) go unseen.
const TOO_NOISY: f64 = 4.0;

impl Analysis {
    /// The half-width of the change's interval when it was judged between
    /// processes and is too wide to say anything: more than [`TOO_NOISY`]
    /// noise thresholds, with no change found.
    pub(crate) fn too_noisy(&self, noise_threshold: f64) -> Option<f64> {
        let ch = self.change.as_ref()?;
        let half = (ch.mean.upper - ch.mean.lower) / 2.0;
        let quiet = matches!(
            ch.verdict,
            yardstick_stats::Verdict::NoChange | yardstick_stats::Verdict::WithinNoise
        );
        (self.change_between_processes && quiet && half > TOO_NOISY * noise_threshold)
            .then_some(half)
    }

    /// The estimate shown first: the slope for linear sampling, else the
    /// mean.
    pub(crate) fn typical(&self) -> &Estimate {
        self.estimates
            .slope
            .as_ref()
            .unwrap_or(&self.estimates.mean)
    }
}

/// Bootstrap resamples of the estimates that, for samples taken in worker
/// processes, only describe the samples (10,000 put a 95 % percentile
/// interval's ends within about 2 % of its width; Criterion.rs's 100,000 cost half a
/// second per benchmark here).
pub(crate) const SECONDARY_RESAMPLES: usize = 10_000;

/// Analyses samples (`values[i]` measured over `iters[i]` iterations),
/// comparing with a saved `baseline` if given.
///
/// When several worker processes took the samples, the typical estimate
/// (slope, or mean) is the mean of the processes' medians per iteration
/// with Student's t interval over the processes, and a baseline taken the
/// same way is compared by the processes' fast ends with the run's own
/// shift counted (`yardstick_stats::processes`). The other estimates and
/// the plots' distributions stay the bootstrap's over samples, with at
/// most [`SECONDARY_RESAMPLES`] resamples: they no longer decide anything.
pub(crate) fn analyse(
    samples: Samples,
    baseline: Option<&SavedSample>,
    config: &BenchmarkConfig,
    keep_distributions: bool,
) -> Result<Analysis, StatsError> {
    let per_process = samples.per_process();
    let Samples {
        mode,
        iters,
        values,
        processes,
    } = samples;
    let old_sample = baseline;
    let old_averages = baseline.map(SavedSample::averages);
    let baseline = old_averages.as_deref();
    let averages: Vec<f64> = values.iter().zip(&iters).map(|(v, n)| v / n).collect();
    let tukey = classify(&averages);
    let boot = BootstrapConfig {
        nresamples: if per_process.is_some() {
            config.nresamples.min(SECONDARY_RESAMPLES)
        } else {
            config.nresamples
        },
        confidence: config.confidence_level,
        seed: SEED,
    };
    let linear = mode == ActualSamplingMode::Linear;
    let (estimates, mut distributions) =
        estimates_with_distributions(&iters, &values, linear, &boot)?;
    let r2_bounds = estimates
        .slope
        .as_ref()
        .map(|s| (r2(&iters, &values, s.lower), r2(&iters, &values, s.upper)));
    let compared = baseline
        .map(|old| {
            // The estimates just resampled the new run's means and medians;
            // the comparison reuses them.
            let cfg = ChangeConfig {
                nresamples: boot.nresamples,
                ..change_config(config)
            };
            compare_with_resampled_new(old, &averages, &distributions, &cfg)
        })
        .transpose()?;
    let (mut change, mut change_distributions) = match compared {
        Some((c, d)) => (Some(c), Some(d)),
        None => (None, None),
    };
    let mut estimates = estimates;
    let mut change_between_processes = false;
    if let Some(e) = &per_process {
        let honest = yardstick_stats::processes::interval(e, config.confidence_level)?;
        if let Some(honest) = honest {
            let linear = estimates.slope.is_some();
            *estimates.slope.as_mut().unwrap_or(&mut estimates.mean) = honest;
            // The report draws the interval the run reported.
            if let Some(draws) = yardstick_stats::processes::interval_draws(e, DRAWN_POINTS) {
                *if linear {
                    &mut distributions.slope
                } else {
                    &mut distributions.mean
                } = draws;
            }
        }
        let new = processes.as_deref().map(|p| RunSamples {
            iters: &iters,
            values: &values,
            processes: p,
        });
        if let Some((c, d)) = compare_processes(old_sample, new, config)? {
            change = Some(c);
            // The report draws the comparison the verdict made.
            change_distributions = Some(d);
            change_between_processes = true;
        }
    }
    Ok(Analysis {
        mode,
        iters,
        values,
        averages,
        estimates,
        tukey,
        r2_bounds,
        change,
        processes,
        per_process,
        change_between_processes,
        lockstep: None,
        judged_threshold: change_config(config).noise_threshold,
        suite: None,
        distributions: keep_distributions.then_some(distributions),
        change_distributions: change_distributions.filter(|_| keep_distributions),
    })
}

/// Runs compared by their processes' fast ends, with the run's own shift
/// counted (`yardstick_stats::processes::compare`), with its
/// distributions to draw; `None` unless both runs recorded their processes.
fn compare_processes(
    old: Option<&SavedSample>,
    new: Option<RunSamples<'_>>,
    config: &BenchmarkConfig,
) -> Result<Option<(yardstick_stats::Change, ChangeDistributions)>, StatsError> {
    let (Some(o), Some(new)) = (old, new) else {
        return Ok(None);
    };
    let Some(old_processes) = o.processes.as_deref() else {
        return Ok(None);
    };
    let old = RunSamples {
        iters: &o.iters,
        values: &o.times,
        processes: old_processes,
    };
    // The run's shift is floored at the noise threshold; a measured drift
    // (a bound on a whole change, not one run's deviation) only moves the
    // verdict's line.
    let floor = ChangeConfig {
        noise_threshold: config.noise_threshold,
        ..change_config(config)
    };
    let Some(compared) = compare_runs_with_distributions(old, new, &floor, DRAWN_POINTS) else {
        return Ok(None);
    };
    let (mut c, d) = compared?;
    c.verdict = yardstick_stats::verdict_of(c.p_value, &c.mean, &change_config(config));
    Ok(Some((c, d)))
}

/// The comparison's settings; its noise threshold is the machine's
/// measured drift when there is one.
fn change_config(config: &BenchmarkConfig) -> ChangeConfig {
    ChangeConfig {
        nresamples: config.nresamples,
        confidence: config.confidence_level,
        significance: config.significance_level,
        noise_threshold: config.machine_drift.unwrap_or(config.noise_threshold),
        seed: SEED,
    }
}

/// Centred R² of the line `y = slope · x` through the origin.
fn r2(x: &[f64], y: &[f64], slope: f64) -> f64 {
    yardstick_stats::regression::centred_r2(x, y, 0.0, slope)
}

/// One alternative compared with the first.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedResult {
    /// The alternative's id (`name/alternative`).
    pub id: String,
    /// The first alternative's id, the reference.
    pub reference: String,
    /// Median of `time(this) / time(reference)` over the rounds, with its
    /// sign-test interval; `None` with too few rounds.
    pub ratio: Option<yardstick_stats::paired::RatioInterval>,
}

impl PairedResult {
    /// The verdict in words: `b is 1.031× a [1.018, 1.044]` or `no
    /// difference detected`.
    #[must_use]
    pub fn verdict(&self) -> String {
        match &self.ratio {
            None => format!(
                "{}: too few rounds to compare with {}",
                self.id, self.reference
            ),
            Some(r) if r.is_significant() => format!(
                "{} is {:.3}× {} [{:.3}, {:.3}]: {}",
                self.id,
                r.ratio,
                self.reference,
                r.lower,
                r.upper,
                if r.ratio > 1.0 { "slower" } else { "faster" }
            ),
            Some(r) => format!(
                "{}: no difference detected from {} ({:.3}× [{:.3}, {:.3}])",
                self.id, self.reference, r.ratio, r.lower, r.upper
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_samples_get_a_slope_and_flat_ones_do_not() {
        let iters: Vec<f64> = (1..=20).map(f64::from).collect();
        let values: Vec<f64> = iters
            .iter()
            .enumerate()
            .map(|(i, n)| n * 10.0 + if i % 2 == 0 { 0.5 } else { -0.5 })
            .collect();
        let config = BenchmarkConfig {
            nresamples: 1000,
            ..BenchmarkConfig::default()
        };
        let a = analyse(
            Samples::in_one_process(ActualSamplingMode::Linear, iters.clone(), values.clone()),
            None,
            &config,
            false,
        )
        .unwrap();
        let slope = a.estimates.slope.unwrap();
        assert!((slope.point - 10.0).abs() < 0.05, "{slope:?}");
        assert_eq!(a.typical().point, slope.point);
        let (lo, hi) = a.r2_bounds.unwrap();
        assert!(lo > 0.99 && hi > 0.99);
        let flat = Samples::in_one_process(ActualSamplingMode::Flat, iters, values);
        let flat = analyse(flat, None, &config, true).unwrap();
        assert!(flat.distributions.is_some());
        assert!(flat.estimates.slope.is_none());
        assert_eq!(flat.typical().point, flat.estimates.mean.point);
    }

    #[test]
    fn r2_of_a_perfect_line_is_one() {
        // Hand calculation: y = 3x exactly, so SS_res = 0.
        assert_eq!(r2(&[1.0, 2.0, 3.0], &[3.0, 6.0, 9.0], 3.0), 1.0);
        // y = [2, 4, 7], ȳ = 13/3, SS_tot = 12.667; slope 2: residuals 0, 0, 1.
        let v = r2(&[1.0, 2.0, 3.0], &[2.0, 4.0, 7.0], 2.0);
        assert!((v - (1.0 - 1.0 / (38.0 / 3.0))).abs() < 1e-12, "{v}");
    }

    #[test]
    fn a_slower_run_is_a_regression() {
        let iters = vec![1.0; 50];
        let old: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 5)).collect();
        let new: Vec<f64> = old.iter().map(|v| v * 1.2).collect();
        let config = BenchmarkConfig {
            nresamples: 2000,
            ..BenchmarkConfig::default()
        };
        let old = SavedSample {
            sampling_mode: ActualSamplingMode::Flat,
            iters: iters.clone(),
            times: old,
            processes: None,
            measurement: None,
        };
        let new = Samples::in_one_process(ActualSamplingMode::Flat, iters, new);
        let a = analyse(new, Some(&old), &config, false).unwrap();
        let change = a.change.unwrap();
        assert_eq!(change.verdict, yardstick_stats::Verdict::Regressed);
        assert!((change.mean.point - 0.2).abs() < 1e-9);
    }

    /// Flat samples in five processes: process `p` takes 100 + `offsets[p]`
    /// ns per iteration in each of its four samples, ±0.5.
    fn in_processes(offsets: [f64; 5], scale: f64) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for (p, off) in offsets.iter().enumerate() {
            for i in 0..4 {
                out.0.push(10.0);
                let wobble = if i % 2 == 0 { 0.5 } else { -0.5 };
                out.1.push(10.0 * scale * (100.0 + off + wobble));
                out.2.push(p as u32);
            }
        }
        out
    }

    #[test]
    fn samples_from_several_processes_get_the_interval_between_processes() {
        // Per-process means 102, 98, 105, 101, 99 (the ±0.5 cancels); the
        // interval is Student's t on their logarithms (scipy: l = log(e);
        // exp(l.mean()) = 100.97048049732197, exp(l.mean() ± t.ppf(0.975, 4)
        // · sem(l)) = (97.64246009807925, 104.41193228457612)).
        let (iters, values, procs) = in_processes([2.0, -2.0, 5.0, 1.0, -1.0], 1.0);
        let samples = Samples {
            mode: ActualSamplingMode::Flat,
            iters,
            values,
            processes: Some(procs),
        };
        let config = BenchmarkConfig {
            nresamples: 500,
            ..BenchmarkConfig::default()
        };
        let a = analyse(samples, None, &config, false).unwrap();
        let t = a.typical();
        assert!((t.point - 100.970_480_497_321_97).abs() < 1e-9, "{t:?}");
        assert!((t.lower - 97.642_460_098_079_25).abs() < 1e-9, "{t:?}");
        assert!((t.upper - 104.411_932_284_576_12).abs() < 1e-9, "{t:?}");
        assert_eq!(a.per_process.as_ref().map(Vec::len), Some(5));
    }

    #[test]
    fn runs_in_processes_are_compared_process_against_process() {
        let config = BenchmarkConfig {
            nresamples: 500,
            ..BenchmarkConfig::default()
        };
        let (iters, times, procs) = in_processes([2.0, -2.0, 5.0, 1.0, -1.0], 1.0);
        let old = SavedSample {
            sampling_mode: ActualSamplingMode::Flat,
            iters,
            times,
            processes: Some(procs),
            measurement: None,
        };
        // The same offsets in another order: the same processes' spread, so
        // no change; within each process the samples agree to ±0.5 %, so a
        // comparison of samples would call the shuffled run different.
        let (iters, values, procs) = in_processes([-2.0, 5.0, -1.0, 2.0, 1.0], 1.0);
        let same = Samples {
            mode: ActualSamplingMode::Flat,
            iters,
            values,
            processes: Some(procs),
        };
        let a = analyse(same, Some(&old), &config, false).unwrap();
        assert!(a.change_between_processes);
        let ch = a.change.unwrap();
        assert!(ch.mean.point.abs() < 1e-12, "{ch:?}");
        assert_eq!(ch.verdict, yardstick_stats::Verdict::NoChange);
        // 20 % slower in every process: a regression.
        let (iters, values, procs) = in_processes([2.0, -2.0, 5.0, 1.0, -1.0], 1.2);
        let slower = Samples {
            mode: ActualSamplingMode::Flat,
            iters,
            values,
            processes: Some(procs),
        };
        let a = analyse(slower, Some(&old), &config, false).unwrap();
        let ch = a.change.unwrap();
        assert!((ch.mean.point - 0.2).abs() < 1e-9, "{ch:?}");
        assert_eq!(ch.verdict, yardstick_stats::Verdict::Regressed);
    }

    #[test]
    fn a_measured_drift_moves_the_verdicts_line_not_the_runs_shift() {
        // Processes ±0.2 % apart, runs +10 % and +4 % apart, a calibrated
        // drift of 5 %: +10 % is still a regression (the run's shift stays
        // floored at the 1 % threshold), +4 % is within the drift.
        let offsets = [0.2, -0.2, 0.1, -0.1, 0.0];
        let (iters, times, procs) = in_processes(offsets, 1.0);
        let old = SavedSample {
            sampling_mode: ActualSamplingMode::Flat,
            iters,
            times,
            processes: Some(procs),
            measurement: None,
        };
        let config = BenchmarkConfig {
            nresamples: 500,
            machine_drift: Some(0.05),
            ..BenchmarkConfig::default()
        };
        let verdict = |scale: f64| {
            let (iters, values, procs) = in_processes(offsets, scale);
            let new = Samples {
                mode: ActualSamplingMode::Flat,
                iters,
                values,
                processes: Some(procs),
            };
            let a = analyse(new, Some(&old), &config, false).unwrap();
            assert!(a.change_between_processes);
            a.change.unwrap().verdict
        };
        assert_eq!(verdict(1.10), yardstick_stats::Verdict::Regressed);
        assert_eq!(verdict(1.04), yardstick_stats::Verdict::WithinNoise);
    }

    #[test]
    fn a_measured_layout_spread_floors_a_lockstep_verdict() {
        // A tight lock-step interval of +1.5 % (8 pairs): past a quarter of
        // the 1 % threshold it is a regression; with a measured layout
        // spread of ±3 % it is within what relinking moves, and a spread
        // under the quarter changes nothing.
        let offsets = [0.2, -0.2, 0.1, -0.1, 0.0];
        let (iters, times, procs) = in_processes(offsets, 1.0);
        let new = Samples {
            mode: ActualSamplingMode::Flat,
            iters,
            values: times,
            processes: Some(procs),
        };
        let config = BenchmarkConfig {
            nresamples: 500,
            ..BenchmarkConfig::default()
        };
        let units = [1.014, 1.016, 1.015, 1.013, 1.017, 1.015, 1.014, 1.016];
        let (i, p) = yardstick_stats::paired::units_t_ratio(&units, 0.95).unwrap();
        let judged_with = |spread: Option<f64>, same_build: bool, layouts: usize| {
            let mut a = analyse(new.clone(), None, &config, false).unwrap();
            let how = Lockstep {
                layout_spread: spread,
                layouts_measured: spread.is_some(),
                same_build,
                layouts,
                ..Lockstep::of(8, 144)
            };
            a.judge_lockstep(&i, p, how, &config);
            (a.change.unwrap().verdict, a.lockstep.unwrap().layout_spread)
        };
        let judged_as = |spread, same_build| judged_with(spread, same_build, 0);
        let judged = |spread| judged_as(spread, false);
        use yardstick_stats::Verdict::{Regressed, WithinNoise};
        // Two builds, nothing measured: the default allowance (±5 %).
        assert_eq!(judged(None), (WithinNoise, Some(LAYOUT_ALLOWANCE)));
        // The same binary on both sides: layout cannot differ.
        assert_eq!(judged_as(None, true), (Regressed, None));
        assert_eq!(judged(Some(0.03)), (WithinNoise, Some(0.03)));
        assert_eq!(judged(Some(0.001)), (Regressed, None));
        // Two builds whose code layouts the pairs were spread over: what
        // relinking moves is in the interval, and no allowance is added.
        assert_eq!(judged_with(None, false, 4), (Regressed, None));
    }
}

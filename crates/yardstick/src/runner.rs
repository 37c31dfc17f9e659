//! Runs one benchmark through the whole flow: filter, mode, sampling,
//! analysis, comparison, files and output.

use yardstick_format::binary::BinaryFile;
use yardstick_stats::sequential::TwoLooks;

use crate::analysis::{analyse, Analysis, Samples};
use crate::cli::{Baseline, Mode};
use crate::config::{ActualSamplingMode, BenchmarkConfig};
use crate::engine::{RunSettings, Session};
use crate::id::FullId;
use crate::measurement::Measurement;
use crate::output::sink::Outcome;
use crate::output::Terminal;
use crate::routine::{self, RoutineFn};
use crate::store::{BenchmarkDir, BenchmarkRecord, SavedSample};
use crate::{limits, metered, report, state, worker};

mod allowance;
mod code_changed;
pub(crate) mod held;
pub(crate) mod lockstep;
mod sampling;
use sampling::Sampler;

/// What [`run`] did with a benchmark.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Ran {
    /// Measured (the typical estimate, when it was measured and saved),
    /// failed, or not selected.
    Done(Option<f64>),
    /// Waits for the setup this process holds to be dropped: the
    /// front-end calls [`run_waited`] once its code has returned
    /// ([`held`]).
    Waits,
}

/// Runs `id` unless the filter or the partition excludes it (`unit`:
/// what `--partition` deals, [`crate::filter::partition_unit`]). Failures
/// are reported and recorded, never propagated: the other benchmarks still
/// run. `may_wait`: the front-end will call [`run_waited`] once the code
/// that called it has returned, so a benchmark compared in lock-step may
/// wait for this process's setup to be dropped.
pub(crate) fn run<M: Measurement>(
    c: &mut Session<'_, M>,
    id: FullId,
    unit: &str,
    config: &BenchmarkConfig,
    f: &mut RoutineFn<'_, M>,
    may_wait: bool,
) -> Ran {
    if !admitted(c, &id, unit, f) {
        return Ran::Done(None);
    }
    if crate::walk::walking() {
        // The parent measures it, in worker processes: this child only
        // says what it is.
        if let Err(why) = crate::walk::plannable::<M>(config) {
            crate::walk::refuse(&why);
        }
        crate::walk::queued();
        return Ran::Waits;
    }
    if may_wait && c.run.mode == Mode::Benchmark && held::waits(c, &id, config) {
        return Ran::Waits;
    }
    Ran::Done(measure(c, &id, config, f))
}

/// Runs a benchmark that [`run`] left waiting, now that the code that
/// held its setup has returned. Its routine is gone with that code: it is
/// measured by worker processes only.
pub(crate) fn run_waited<M: Measurement>(
    c: &mut Session<'_, M>,
    id: &FullId,
    config: &BenchmarkConfig,
) -> Option<f64> {
    let mut gone = |_: &mut crate::Bencher<'_, M>| panic!("{}", held::ROUTINE_GONE);
    measure(c, id, config, &mut gone)
}

/// Whether `id` is to be run by this process (a worker serves it here and
/// says no): selected by the filter and the shard, and its id not used
/// before (said as a failure).
fn admitted<M: Measurement>(
    c: &Session<'_, M>,
    id: &FullId,
    unit: &str,
    f: &mut RoutineFn<'_, M>,
) -> bool {
    // yardstick has no ignored benchmarks: `--ignored` selects none.
    if c.run.ignored || !c.run.filter.matches(&id.full_id) {
        return false;
    }
    // A worker serves whatever its parent asks for: the parent (or `ab`)
    // already chose the shard's benchmarks, and a baseline binary with
    // other benchmarks would count them differently.
    if !worker::active() && !state::in_shard(c.run, unit) {
        return false;
    }
    if !state::register_id(&id.full_id) {
        c.run.terminal().failure(
            &id.full_id,
            "this id was already used by another benchmark of this binary; ids must be unique",
        );
        state::record_failure(&id.full_id);
        return false;
    }
    if worker::active() {
        // A worker measures only what its parent asks for, and prints nothing.
        if c.run.mode == Mode::Benchmark {
            worker::serve(c.measurement, &id.full_id, f);
        }
        return false;
    }
    true
}

/// Lists, tests, profiles or measures an admitted benchmark, as the mode
/// says; returns the typical estimate when it was measured and saved.
fn measure<M: Measurement>(
    c: &mut Session<'_, M>,
    id: &FullId,
    config: &BenchmarkConfig,
    f: &mut RoutineFn<'_, M>,
) -> Option<f64> {
    let terminal = c.run.terminal();
    let measuring = c.run.mode == Mode::Benchmark;
    let outcome = match c.run.mode.clone() {
        Mode::List => {
            terminal.list(&id.title);
            Ok(None)
        }
        Mode::Test => test(c, &terminal, id, f).map(|()| None),
        Mode::Profile(time) => profile(c, &terminal, id, f, time).map(|()| None),
        Mode::Benchmark => {
            exit_unless_home_writable(c.run, &terminal);
            benchmark(c, &terminal, id, config, f).map(Some)
        }
    };
    match outcome {
        Ok(typical) => {
            if measuring {
                state::record_measured();
            }
            typical
        }
        Err(message) => {
            terminal.failure(&id.full_id, &message);
            state::record_failure(&id.full_id);
            None
        }
    }
}

/// Ends the run (status 1) when results are to be saved and the home
/// cannot take them: better before the first benchmark than after each.
fn exit_unless_home_writable(run: &RunSettings, terminal: &Terminal) {
    if run.baseline != Baseline::Discard {
        if let Err(line) = crate::store::lock::check_writable_once(&run.home) {
            crate::output::errln!("{} {line}", terminal.style.red("error:"));
            std::process::exit(1);
        }
    }
}

fn test<M: Measurement>(
    c: &Session<'_, M>,
    terminal: &Terminal,
    id: &FullId,
    f: &mut RoutineFn<'_, M>,
) -> Result<(), String> {
    terminal.test_start(&id.title);
    state::catch_panic(|| routine::run_once(c.measurement, f, 1))?.map_err(|e| e.to_string())?;
    terminal.test_success();
    Ok(())
}

fn profile<M: Measurement>(
    c: &mut Session<'_, M>,
    terminal: &Terminal,
    id: &FullId,
    f: &mut RoutineFn<'_, M>,
    time: std::time::Duration,
) -> Result<(), String> {
    let dir = BenchmarkDir::new(&c.run.home, &id.directory_name).sub("profile");
    terminal.profiling(&id.title, time.as_nanos() as f64);
    c.profiler.start_profiling(&id.full_id, &dir);
    let result = state::catch_panic(|| routine::profile(c.measurement, f, time));
    c.profiler.stop_profiling(&id.full_id, &dir);
    result?.map_err(|e| e.to_string())?;
    terminal.profile_complete(&id.title);
    Ok(())
}

/// Measures (or loads), analyses and judges one benchmark, then hands the
/// outcome to the run's sinks: the pipeline Samples → Analysis → Outcome →
/// files, report, messages, lines. Returns the typical estimate.
fn benchmark<M: Measurement>(
    c: &Session<'_, M>,
    terminal: &Terminal,
    id: &FullId,
    config: &BenchmarkConfig,
    f: &mut RoutineFn<'_, M>,
) -> Result<f64, String> {
    let started = std::time::Instant::now();
    let dir = BenchmarkDir::new(&c.run.home, &id.directory_name);
    dir.check_owner(&id.full_id).map_err(|e| e.to_string())?;
    let baseline_name = crate::baseline::compare_target(&c.run.baseline).map(|(n, _)| n);
    dir.check_nesting(&id.full_id, baseline_name)
        .map_err(|e| e.to_string())?;
    let foreign = foreign_folder(&dir, id, terminal);
    // Read the baseline first: a missing strict baseline fails before any
    // time is spent measuring.
    let kind = crate::measurement::kind::<M>(&config.metrics);
    let baseline = if foreign {
        crate::baseline::Loaded::default()
    } else {
        crate::baseline::load(&dir, &c.run.baseline, id, terminal, &kind)?
    };
    say_clock_resolution(terminal);
    terminal.benchmark_start(&id.title);
    let judging = Judging::new(c.run, config, baseline.sample.is_some());
    let compared = match baseline.sample {
        Some(_) => in_lockstep(c, terminal, id, config, &dir, &kind, &judging.looks)?,
        None => None,
    };
    // Kept only now: the baseline's binary is checked before this run
    // keeps its own (which makes the folder of kept binaries private).
    let this_binary = keeps_binary(c.run, foreign)
        .then(|| crate::store::binaries::this_record(&c.run.home, &kind))
        .flatten();
    let build_line =
        crate::baseline::say_build_difference(&dir, &baseline, this_binary.as_ref(), id, terminal);
    let (samples, metric_rows) = match &compared {
        Some((samples, _)) => (samples.clone(), None),
        None => obtain_samples(c, terminal, id, config, f, &dir)?,
    };
    terminal.analysing(&id.title);
    if samples.values.iter().all(|&v| v == 0.0) {
        return Err("every sample measured zero time; if it uses iter_custom, check that the routine returns the time it measured".into());
    }
    let drift = baseline
        .sample
        .as_ref()
        .and_then(|_| measured_drift(&dir, config, terminal));
    let config = &BenchmarkConfig {
        machine_drift: drift,
        significance_level: judging.level(compared.is_some()),
        ..config.clone()
    };
    let plots = report::ENABLED && c.run.plots;
    let cross_run = baseline.sample.as_ref().filter(|_| compared.is_none());
    let lockstep = compared.as_ref().map(|(_, cmp)| cmp);
    let mut analysis = analysed(samples, cross_run, lockstep, config, &judging, plots)?;
    let counting = allowance::Counting {
        id,
        dir: &dir,
        binaries: (baseline.binary.as_ref(), this_binary.as_ref()),
        terminal,
    };
    let config = &instructions_checked(&mut analysis, &judging, config, &counting);
    let unit = c
        .measurement
        .formatter()
        .scale_for_machines(&mut [analysis.typical().point]);
    let metrics = analyse_metrics(
        c.run,
        terminal,
        &dir,
        config,
        &analysis,
        metric_rows,
        baseline.sample.as_ref(),
    );
    let from_disk = c.run.load_baseline.is_some();
    let optimised_away = !from_disk && check_optimised_away(c.measurement, terminal, id, &analysis);
    let ratio = ratio_to_baseline(c.run, id, &analysis, unit);
    let (record, mut sample) = stored(id, &analysis);
    sample.measurement = Some(kind.clone());
    let outcome = Outcome {
        id,
        dir: &dir,
        config,
        analysis: &analysis,
        formatter: c.measurement.formatter(),
        unit,
        metrics: &metrics,
        // In lock-step, the baseline is its binary's side of the rounds.
        baseline: compared
            .as_ref()
            .map(|(_, c)| &c.baseline)
            .or(baseline.sample.as_ref()),
        corrupt_baseline: baseline.corrupt.as_deref(),
        drift,
        record,
        sample,
        loaded: from_disk,
        ratio,
        failure: ratio.and_then(|r| limit_breach(config, r)),
        optimised_away,
        elapsed: started.elapsed(),
        not_saved: foreign,
        binary: this_binary,
        baseline_binary: baseline.binary.clone(),
        build_line,
    };
    conclude(c.run, &outcome);
    Ok(analysis.typical().point)
}

/// How a benchmark's comparison is judged: at its share of the suite's
/// error rate (unless the level was set), and in lock-step in two looks.
struct Judging {
    /// The significance level as configured.
    alpha: f64,
    /// [`suite_share`]: the suite's share and the comparisons it plans.
    suite: Option<(f64, usize)>,
    looks: TwoLooks,
}

impl Judging {
    fn new(run: &RunSettings, config: &BenchmarkConfig, compares: bool) -> Judging {
        let alpha = config.significance_level;
        let suite = compares.then(|| suite_share(run, config)).flatten();
        Judging {
            alpha,
            suite,
            looks: TwoLooks {
                level: suite.map_or(alpha, |(level, _)| level),
                again_below: AGAIN_BELOW,
            },
        }
    }

    /// The level the comparison is judged at: in lock-step, each of the
    /// two looks at half of it.
    fn level(&self, lockstep: bool) -> f64 {
        if lockstep {
            self.looks.per_look()
        } else {
            self.looks.level
        }
    }
}

/// The analysis of `samples` against the baseline's saved ones
/// (`cross_run`) or the lock-step comparison, judged at `config`'s level
/// and recorded in the run's suite.
fn analysed(
    samples: Samples,
    cross_run: Option<&SavedSample>,
    lockstep: Option<&lockstep::Compared>,
    config: &BenchmarkConfig,
    judging: &Judging,
    plots: bool,
) -> Result<Analysis, String> {
    let mut analysis =
        analyse(samples, cross_run, config, plots).map_err(|e| format!("analysis failed: {e}"))?;
    if let Some(cmp) = lockstep {
        analysis.judge_lockstep(&cmp.interval, cmp.p_value, cmp.how, config);
    }
    let suite = judging.suite.map(|(_, n)| (config.significance_level, n));
    record_suite_judgement(&mut analysis, suite, judging.alpha);
    Ok(analysis)
}

/// The level this benchmark's comparison is judged at, its share of the
/// suite's error rate, and the comparisons the suite plans (counted in the
/// baseline once); `None` when the significance level was set, so that
/// each comparison is judged alone, as Criterion.rs judges it. The suite
/// is every benchmark of the home the filter selects, not this binary's
/// alone: `cargo bench` runs one binary per bench target (the guide's 63
/// benchmarks are 20 binaries of 1 to 13), and a user reads their lines as
/// one run.
fn suite_share(run: &RunSettings, config: &BenchmarkConfig) -> Option<(f64, usize)> {
    if config.significance_explicit {
        return None;
    }
    let (name, _) = crate::baseline::compare_target(&run.baseline)?;
    Some(state::suite_level(config.significance_level, || {
        crate::store::planned::planned(&run.home, name, &|id| run.filter.matches(id))
    }))
}

/// A lock-step comparison whose first look's p-value is at most this
/// (and not below half its level) looks again with as many fresh pairs
/// (`yardstick_stats::sequential`): under no change, 7.5 % of comparisons
/// at a level of 0.05, fewer at a suite's share of it, so the time a suite
/// takes barely moves.
const AGAIN_BELOW: f64 = 0.1;

/// Records the comparison judged at `suite`'s level in the run's tally,
/// and on the analysis how it was judged and what it would be alone.
fn record_suite_judgement(analysis: &mut Analysis, suite: Option<(f64, usize)>, alpha: f64) {
    let (Some((level, planned)), Some(ch)) = (suite, &analysis.change) else {
        return;
    };
    state::suite_tested(ch.p_value < level);
    analysis.suite = analysis
        .verdict_at(alpha)
        .map(|one_by_one| crate::analysis::SuiteJudgement {
            alpha,
            level,
            planned,
            one_by_one,
            alone: false,
        });
}

/// Whether `dir` holds another bench target's benchmark of the same id
/// (said as a warning): this one is then measured but neither compared
/// with it nor saved over it. Ids are the one key of every tool reading
/// the results (critcmp, reports, the history), so two targets sharing
/// one would mix two benchmarks under one name; separate folders would
/// only move the mix to those tools.
fn foreign_folder(dir: &BenchmarkDir, id: &FullId, terminal: &Terminal) -> bool {
    use crate::store::binaries::{describe, this_package, this_target};
    let Some(owner) = other_owner(dir) else {
        return false;
    };
    terminal.warning(&format!(
        "{}: {} has a benchmark of the same id, whose results are in {}; \
         this one ({}) is measured but neither compared with them nor saved: \
         give one of the two another id",
        id.full_id,
        describe(owner.package.as_deref(), &owner.target),
        dir.root.display(),
        describe(this_package(), this_target()),
    ));
    true
}

/// The record of the bench target that wrote `dir`, when it is not this
/// one (another name, or another package of a workspace).
fn other_owner(dir: &BenchmarkDir) -> Option<BinaryFile> {
    dir.owner_record()
        .filter(crate::store::binaries::is_other_target)
}

/// Whether this benchmark's folders are saved, and so keep this binary.
fn keeps_binary(run: &RunSettings, foreign: bool) -> bool {
    !foreign && run.load_baseline.is_none() && run.baseline != Baseline::Discard
}

/// The baseline whose binary a benchmark of `config` is compared with in
/// lock-step, when the run samples it in workers and compares it.
fn lockstep_baseline<'r>(run: &'r RunSettings, config: &BenchmarkConfig) -> Option<&'r str> {
    let (name, _) = crate::baseline::compare_target(&run.baseline)?;
    let asked = !run.ignore_baseline_binary && run.load_baseline.is_none();
    (config.in_workers_plainly() && asked).then_some(name)
}

/// The samples and the change measured in lock-step with the baseline's
/// binary, when the run samples in workers and the baseline kept its
/// binary; otherwise `None`, with the reason said once per run. `Err` when
/// this run's routine failed in its worker: the benchmark failed.
fn in_lockstep<M: Measurement>(
    c: &Session<'_, M>,
    terminal: &Terminal,
    id: &FullId,
    config: &BenchmarkConfig,
    dir: &BenchmarkDir,
    kind: &str,
    looks: &TwoLooks,
) -> Result<Option<(crate::analysis::Samples, lockstep::Compared)>, String> {
    let Some(name) = lockstep_baseline(c.run, config) else {
        return Ok(None);
    };
    let record = lockstep::baseline_binary(dir, name).and_then(|r| match lockstep::unusable(&r) {
        Some(why) => Err(why),
        None => Ok(r),
    });
    terminal.sampling_lockstep(&id.title);
    let home = &c.run.home;
    let measured = record.map_err(worker::Unavailable::Fallback).and_then(|r| {
        let first = lockstep::measure(home, &r, &id.full_id, kind, config)?;
        if !lockstep::wants_second_look(&first.1.how, first.1.p_value, looks) {
            return Ok(first);
        }
        // A second look that fails leaves the first, judged at its half.
        Ok(lockstep::look_again(home, &r, &id.full_id, kind, config, &first.1).unwrap_or(first))
    });
    match measured {
        Ok((samples, mut compared)) => {
            // Set up, but this comparison could not use the layouts: the
            // allowance applies, and the way to set up is not the news.
            let set_up = compared.layouts_note.is_some();
            if let Some(note) = compared.layouts_note.take() {
                crate::output::said::note(terminal, home, &note);
            }
            if let Some(note) = compared.counts_note.take() {
                crate::output::said::note(terminal, home, &note);
            }
            allowance::judge_with(&mut compared.how, dir, id, terminal, set_up);
            Ok(Some((samples, compared)))
        }
        Err(worker::Unavailable::Failed(e)) => Err(e),
        Err(worker::Unavailable::Fallback(why)) => {
            let note =
                format!("comparing with the baseline's saved numbers, not in lock-step: {why}");
            crate::output::said::note(terminal, home, &note);
            Ok(None)
        }
    }
}

/// What the instructions both binaries execute say of the change
/// (`runner::allowance`, `runner::code_changed`), and the configuration
/// its verdict was then judged at.
fn instructions_checked(
    analysis: &mut Analysis,
    judging: &Judging,
    config: &BenchmarkConfig,
    counting: &allowance::Counting<'_>,
) -> BenchmarkConfig {
    allowance::check_instructions(analysis, counting);
    let alone = code_changed::judge(analysis, judging, config, counting);
    BenchmarkConfig {
        significance_level: alone.unwrap_or(config.significance_level),
        ..config.clone()
    }
}

/// Records the verdict in the run's tally and feeds the sinks.
fn conclude(run: &RunSettings, outcome: &Outcome<'_>) {
    let a = outcome.analysis;
    state::record_samples(state::Measured {
        id: outcome.id.full_id.clone(),
        iters: a.iters.clone(),
        values: a.values.clone(),
        in_workers: a.processes.is_some(),
    });
    if let Some(ch) = &a.change {
        let mut c = comparison(outcome.id, ch);
        c.too_noisy = a.too_noisy(outcome.config.noise_threshold);
        c.between_processes = a.change_between_processes || a.lockstep.is_some();
        state::record_comparison(c);
    }
    state::benchmark_done(run, outcome);
    if outcome.failure.is_some() {
        state::record_failure(&outcome.id.full_id);
    }
}

/// How a comparison is kept for the suite-level correction.
fn comparison(id: &FullId, ch: &yardstick_stats::Change) -> crate::output::sink::Comparison {
    crate::output::sink::Comparison {
        id: id.full_id.clone(),
        p_value: ch.p_value,
        flagged: matches!(
            ch.verdict,
            yardstick_stats::Verdict::Regressed | yardstick_stats::Verdict::Improved
        ),
        mean: [ch.mean.point, ch.mean.lower, ch.mean.upper],
        too_noisy: None,
        between_processes: false,
    }
}

/// `benchmark.json` and `sample.json` of this run.
fn stored(id: &FullId, a: &Analysis) -> (BenchmarkRecord, SavedSample) {
    let sample = SavedSample {
        sampling_mode: a.mode,
        iters: a.iters.clone(),
        times: a.values.clone(),
        processes: a.processes.clone(),
        measurement: None,
    };
    (id.record().clone(), sample)
}

/// The clocks' resolution, once per run, in verbose output.
fn say_clock_resolution(terminal: &Terminal) {
    if terminal.verbosity == crate::cli::Verbosity::Verbose
        && crate::output::first_time("clock resolution")
    {
        let cpu = crate::meters::cpu_clock_resolution()
            .map_or_else(|| "not available".to_owned(), |d| format!("{d:?}"));
        crate::output::outln!(
            "Clock resolution: monotonic {:?}, CPU time {cpu} (measured)",
            crate::meters::clock_resolution()
        );
    }
}

/// Extra metrics' rows: the metrics and one row per sample.
type MetricRows = (Vec<crate::meters::Metric>, Vec<Vec<f64>>);

/// The samples: measured now, or loaded with `--load-baseline`; with the
/// extra metrics' rows when `--measure` asked for them.
fn obtain_samples<M: Measurement>(
    c: &Session<'_, M>,
    terminal: &Terminal,
    id: &FullId,
    config: &BenchmarkConfig,
    f: &mut RoutineFn<'_, M>,
    dir: &BenchmarkDir,
) -> Result<(Samples, Option<MetricRows>), String> {
    if let Some(name) = &c.run.load_baseline {
        let s = dir.load_sample(name).map_err(|e| {
            format!("cannot load baseline '{name}' ({e}) — run with --save-baseline {name} first")
        })?;
        return Ok((Samples::from_saved(s), None));
    }
    let (meters, notes) = metered::Meters::open(&config.metrics);
    for note in notes {
        if crate::output::first_time(&note) {
            terminal.warning(&note);
        }
    }
    let sampler = Sampler {
        m: c.measurement,
        terminal,
        id,
        config,
    };
    let sampled = match &meters {
        None => state::catch_panic(|| sampler.sample(f)),
        Some(meters) => {
            // Every Bencher made for this benchmark reads its meters.
            let mut metered = |b: &mut crate::Bencher<'_, M>| {
                b.meters = Some(meters.clone());
                f(b);
                meters.end_sample();
            };
            state::catch_panic(|| sampler.sample(&mut metered))
        }
    };
    let rows = meters.map(metered::Meters::close);
    let samples = sampled??;
    if let Some(w) = limits::capped_warning(&id.full_id, &samples.iters) {
        terminal.warning(&w);
    }
    // The last rows are the samples' (earlier ones are the warm-up's).
    let rows = rows.map(|(metrics, rows)| {
        let skip = rows.len().saturating_sub(samples.iters.len());
        (metrics, rows[skip..].to_vec())
    });
    Ok((samples, rows))
}

/// The drift `calibrate` measured, when it is wider than the noise
/// threshold; it then becomes the threshold: a change inside what this
/// machine does between identical runs is not a regression.
fn measured_drift(
    dir: &BenchmarkDir,
    config: &BenchmarkConfig,
    terminal: &Terminal,
) -> Option<f64> {
    match dir.load_drift() {
        Ok(d) => d.filter(|&d| d > config.noise_threshold),
        Err(e) => {
            terminal.warning(&format!("ignoring the measured drift: {e}"));
            None
        }
    }
}

/// The extra metrics' estimates, compared with the baseline's metrics when
/// it measured them too.
fn analyse_metrics(
    run: &RunSettings,
    terminal: &Terminal,
    dir: &BenchmarkDir,
    config: &BenchmarkConfig,
    analysis: &Analysis,
    rows: Option<MetricRows>,
    baseline: Option<&SavedSample>,
) -> Vec<metered::MetricResult> {
    let Some((metrics, rows)) = rows else {
        return Vec::new();
    };
    let cfg = yardstick_stats::BootstrapConfig {
        nresamples: config.nresamples.min(10_000),
        confidence: config.confidence_level,
        seed: crate::analysis::SEED,
    };
    let linear = analysis.mode == ActualSamplingMode::Linear;
    let mut results = metered::analyse(&metrics, &rows, &analysis.iters, linear, &cfg);
    let (Some((name, _)), Some(old)) = (crate::baseline::compare_target(&run.baseline), baseline)
    else {
        return results;
    };
    match dir.load_metrics(name) {
        Ok(Some(saved)) => metered::compare_with(
            &mut results,
            &saved,
            &old.iters,
            &analysis.iters,
            &yardstick_stats::ChangeConfig {
                nresamples: cfg.nresamples,
                confidence: config.confidence_level,
                significance: config.significance_level,
                noise_threshold: config.machine_drift.unwrap_or(config.noise_threshold),
                seed: crate::analysis::SEED,
            },
        ),
        Ok(None) => {}
        Err(e) => terminal.warning(&format!("ignoring the baseline's metrics: {e}")),
    }
    results
}

/// This run's typical time over the baseline's: from `--baseline-csv` when
/// it has this benchmark, else from the comparison with the saved baseline.
fn ratio_to_baseline(run: &RunSettings, id: &FullId, a: &Analysis, unit: &str) -> Option<f64> {
    if let Some(map) = &run.baseline_csv {
        if unit == "ns" {
            if let Some(old_ps) = map.get(&id.full_id) {
                return Some(a.typical().point * 1e3 / old_ps);
            }
        }
        return None;
    }
    a.change.as_ref().map(|ch| 1.0 + ch.mean.point)
}

/// The `--fail-if-slower`/`--fail-if-faster` limit `ratio` breaks, in words.
fn limit_breach(config: &BenchmarkConfig, ratio: f64) -> Option<String> {
    let pct = (ratio - 1.0) * 100.0;
    if let Some(limit) = config.fail_if_slower {
        if ratio > 1.0 + limit {
            return Some(format!(
                "{pct:.1}% slower than the baseline, more than the {:.0}% --fail-if-slower allows",
                limit * 100.0
            ));
        }
    }
    if let Some(limit) = config.fail_if_faster {
        if ratio < 1.0 - limit {
            return Some(format!(
                "{:.1}% faster than the baseline, more than the {:.0}% --fail-if-faster allows",
                -pct,
                limit * 100.0
            ));
        }
    }
    None
}

/// Warns when the routine costs no more than an empty loop (see
/// [`routine::optimised_away`]).
fn check_optimised_away<M: Measurement>(
    m: &M,
    terminal: &Terminal,
    id: &FullId,
    analysis: &Analysis,
) -> bool {
    let warning = routine::optimised_away(m, &id.full_id, &analysis.iters, &analysis.averages);
    if let Some(w) = &warning {
        terminal.warning(w);
    }
    warning.is_some()
}

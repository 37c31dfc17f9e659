//! The walk left to a child process, for a suite whose data outlives the
//! functions that define its benchmarks.
//!
//! A `static` of input data, or data built in `main`, is held by every
//! process that ran the suite's code: the process `cargo bench` started,
//! and both workers of each lock-step pair. Waiting for a target function
//! to return ([`crate::runner::held`]) cannot drop it. What can is not
//! running the suite's code in this process at all: `criterion_main!`'s
//! `main` starts this binary again as a walking child, which runs every
//! `criterion_group!` target with each admitted benchmark queued as a
//! waiting one would be, writes the queue (`yardstick_format::plan`) and
//! exits before anything is measured. This process then measures the
//! queue as it measures waiting benchmarks, in worker processes only, and
//! holds none of the data: two copies are alive while a pair measures.
//!
//! A hand-written `main` builds its data before any yardstick code runs.
//! Its first `configure_from_args` then starts the binary again in its
//! place (`exec`), with [`BEFORE_MAIN_ENV`]: in the new image a function
//! of this module that the loader runs before `main` (`.init_array`) does
//! what `criterion_main!`'s `main` does, and exits before the user's `main`
//! could build anything.
//!
//! It is done only for a bench target whose last run ended holding more
//! than [`HELD_LIMIT`] (a marker in the home, `.held/<package>.<target>`),
//! and only when every benchmark can be measured in workers; otherwise the
//! walk is this process's, as before.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use yardstick_format::plan::{
    Plan, PlannedConfig, PlannedJob, PlannedMember, PlannedRequirement, PlannedTarget, PLAN_ENV,
    PLAN_VERSION,
};

use crate::cli::Mode;
use crate::config::{BenchmarkConfig, SamplingMode};
use crate::engine::RunSettings;
use crate::group_summary::{Member, Requirement};
use crate::id::FullId;
use crate::measurement::{Measurement, WallTime};
use crate::waiting::{GroupEnd, Job};

/// Resident memory of this process past which its benchmarks compared in
/// lock-step wait for their setup to be dropped (`runner::held`), and past
/// which a run's end leaves the marker: a bench binary without large data
/// holds a few MB.
pub(crate) const HELD_LIMIT: u64 = 64 << 20;

/// This process's resident memory, as the kernel counts it, once the
/// memory allocator has returned what it keeps of freed memory: glibc keeps
/// the freed top of its heap, and the fixture's runs ended holding 66 to
/// 68 MB of which 60 MB was heap nothing used (its 80 MB of data freed),
/// astride [`HELD_LIMIT`].
pub(crate) fn resident_now() -> Option<u64> {
    return_freed_memory();
    crate::worker::resident_bytes(std::process::id())
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_memory() {
    extern "C" {
        /// glibc's `malloc_trim(3)`: releases free memory at the top of
        /// the heap and in its free lists to the system.
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: glibc's function takes no pointer and only returns memory
    // the allocator holds free; a program with its own global allocator
    // leaves glibc's heap unused and this does nothing.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_memory() {}

/// The home's folder of markers, one per bench target whose data
/// outlived its functions in its last run.
const MARKERS: &str = ".held";

/// Whether this process is a walking child (started with [`PLAN_ENV`]).
pub(crate) fn walking() -> bool {
    static WALKING: OnceLock<bool> = OnceLock::new();
    *WALKING.get_or_init(|| {
        std::env::var_os(PLAN_ENV).is_some_and(|v| !v.is_empty()) && !crate::worker::active()
    })
}

/// Set by `criterion_main!`'s `main`: only its binaries may leave the walk
/// to a child, so only they keep the marker up to date.
static CRITERION_MAIN: AtomicBool = AtomicBool::new(false);

/// Set when this run's walk was a child's: this process's memory then says
/// nothing about the suite's data.
static WALKED_BY_CHILD: AtomicBool = AtomicBool::new(false);

/// Carried by a hand-written `main`'s restart: the new image walks before
/// `main` and must not restart again.
const BEFORE_MAIN_ENV: &str = "YARDSTICK_WALK_BEFORE_MAIN";

/// Set once this process restarted, or walked before `main`: never twice.
static RESTARTED: AtomicBool = AtomicBool::new(false);

/// Benchmarks a walking child queued, and those handed over with their
/// target: a `Criterion` whose queue is never handed over (one made by
/// hand inside a target) would lose some, so the walk is refused.
static QUEUED: AtomicUsize = AtomicUsize::new(0);
static HANDED_OVER: AtomicUsize = AtomicUsize::new(0);

/// What a walking child has queued so far.
static QUEUE: Mutex<Option<Plan>> = Mutex::new(None);

/// The run settings a walking child's plan holds for, compared with the
/// parent's: a group whose configuration changes them (the home, a filter
/// or a baseline set in code) cannot be measured with the parent's. Plots
/// go with each target ([`PlannedTarget`]).
fn settings_of(run: &RunSettings) -> String {
    format!(
        "{:?}",
        (
            &run.mode,
            &run.filter,
            &run.baseline,
            &run.home,
            run.color,
            run.output_format,
            run.engine_sampling
        )
    )
}

/// In a walking child: `Ok` when the benchmark can be left to the parent,
/// which measures it in worker processes only; else why not.
pub(crate) fn plannable<M: Measurement>(config: &BenchmarkConfig) -> Result<(), String> {
    if std::any::type_name::<M>() != std::any::type_name::<WallTime>() {
        return Err(format!(
            "a group measures with {}, not wall time",
            std::any::type_name::<M>()
        ));
    }
    if !config.in_workers_plainly() {
        return Err("a benchmark is measured in the process that defines it \
                    (one process, extra metrics, --quick or --stdev)"
            .into());
    }
    Ok(())
}

/// In a walking child: one more benchmark queued, to be handed over with
/// its target.
pub(crate) fn queued() {
    QUEUED.fetch_add(1, Ordering::Relaxed);
}

/// In a walking child: queues what a target function (or a hand-written
/// `main`) defined.
pub(crate) fn add_target(run: &RunSettings, jobs: &[Job]) {
    let benchmarks = jobs.iter().filter(|j| matches!(j, Job::Benchmark(..)));
    HANDED_OVER.fetch_add(benchmarks.count(), Ordering::Relaxed);
    let settings = settings_of(run);
    let mut queue = QUEUE.lock().unwrap_or_else(|e| e.into_inner());
    let plan = queue.get_or_insert_with(|| Plan {
        version: PLAN_VERSION,
        refused: None,
        held: false,
        settings: settings.clone(),
        targets: Vec::new(),
    });
    if plan.settings != settings {
        drop(queue);
        refuse(
            "a group's configuration changes the run's settings (the home, a filter, a baseline)",
        );
    }
    plan.targets.push(PlannedTarget {
        plots: run.plots,
        jobs: jobs.iter().map(planned_job).collect(),
    });
}

/// In a walking child: writes the plan with why it cannot be followed, and
/// exits.
pub(crate) fn refuse(why: &str) -> ! {
    let plan = Plan {
        version: PLAN_VERSION,
        refused: Some(why.to_owned()),
        held: held_now(),
        settings: String::new(),
        targets: Vec::new(),
    };
    finish(&plan)
}

/// In a walking child, at the end of the walk: writes the plan and exits.
pub(crate) fn end() -> ! {
    if !crate::state::failures().is_empty() {
        refuse("a benchmark failed while its definitions were walked");
    }
    if QUEUED.load(Ordering::Relaxed) != HANDED_OVER.load(Ordering::Relaxed) {
        refuse("a benchmark was defined on a Criterion whose queue was not handed over");
    }
    let queued = QUEUE.lock().unwrap_or_else(|e| e.into_inner()).take();
    let mut plan = queued.unwrap_or(Plan {
        version: PLAN_VERSION,
        refused: None,
        held: false,
        settings: String::new(),
        targets: Vec::new(),
    });
    plan.held = held_now();
    finish(&plan)
}

fn held_now() -> bool {
    resident_now().is_some_and(|b| b > HELD_LIMIT)
}

/// Writes the plan to a file that must not exist yet (the parent removed
/// any left there): in a home others can write, a link planted under its
/// name is not followed.
fn finish(plan: &Plan) -> ! {
    use std::io::Write;
    let path = std::env::var_os(PLAN_ENV).map(PathBuf::from);
    let written = path.is_some_and(|p| {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p);
        file.and_then(|mut f| f.write_all(yardstick_format::json::to_string(plan).as_bytes()))
            .is_ok()
    });
    std::process::exit(if written { 0 } else { 3 })
}

/// Called first by `criterion_main!`'s `main`.
pub(crate) fn in_criterion_main() {
    CRITERION_MAIN.store(true, Ordering::Relaxed);
}

/// The marker of this bench target in `home`.
fn marker(home: &Path) -> PathBuf {
    home.join(MARKERS).join(crate::store::binaries::this_key())
}

/// At the end of a run that walked in this process: keeps the marker when
/// this process still holds more than [`HELD_LIMIT`] (the data outlived
/// the functions), removes it otherwise.
pub(crate) fn remember(run: &RunSettings) {
    if WALKED_BY_CHILD.load(Ordering::Relaxed)
        || run.mode != Mode::Benchmark
        || crate::worker::active()
    {
        return;
    }
    mark(&run.home, held_now());
}

fn mark(home: &Path, held: bool) {
    let path = marker(home);
    if held {
        let _ = std::fs::create_dir_all(home.join(MARKERS));
        let _ = std::fs::write(
            &path,
            b"the data outlived the functions defining the benchmarks\n",
        );
    } else {
        let _ = std::fs::remove_file(&path);
    }
}

/// What a walking child queued for one target function: its jobs, and
/// whether its group makes plots.
pub(crate) struct Target {
    pub plots: bool,
    pub jobs: Vec<Job>,
}

/// In `criterion_main!`'s `main`, before any target runs: when this bench
/// target's data outlived its functions last time, a child walks them and
/// the jobs it queued come back, target by target; `None` to walk here.
/// A walk the child refuses (a benchmark it cannot leave to workers) is
/// silent: the run that then walks here says so where it matters
/// ([`crate::runner::held::waited`]).
pub(crate) fn by_child(run: &RunSettings, config: &BenchmarkConfig) -> Option<Vec<Target>> {
    if crate::worker::active() || walking() || run.mode != Mode::Benchmark {
        return None;
    }
    // The command line alone may rule every benchmark out (`--processes
    // 1`, `--quick`): then no child is started to say so.
    if !marker(&run.home).is_file() || plannable::<WallTime>(config).is_err() {
        return None;
    }
    let terminal = run.terminal();
    let plan = match walk_in_child(&run.home) {
        Ok(plan) => plan,
        Err(why) => {
            terminal.note(&format!("{}: {why}", not_left()));
            return None;
        }
    };
    mark(&run.home, plan.held);
    if plan.refused.is_some() || (plan.settings != settings_of(run) && !plan.targets.is_empty()) {
        return None;
    }
    WALKED_BY_CHILD.store(true, Ordering::Relaxed);
    terminal.note(
        "this bench target's data outlived the functions defining its benchmarks last time \
         (a static, or data built in main): a child process walked them and this one measures \
         each in worker processes, so that only the two workers of a lock-step pair hold a copy",
    );
    let targets = plan.targets.into_iter().map(|t| Target {
        plots: t.plots,
        jobs: t.jobs.into_iter().map(job_of).collect(),
    });
    Some(targets.collect())
}

fn not_left() -> &'static str {
    "this bench target's data outlived the functions defining its benchmarks last time, \
     but their walk could not be left to a child process, so this process holds its copy \
     while they are measured"
}

/// Starts this binary again as a walking child, with this run's
/// arguments, and reads its plan.
fn walk_in_child(home: &Path) -> Result<Plan, String> {
    let exe = std::env::current_exe().map_err(|e| format!("this binary's path: {e}"))?;
    let dir = home.join(MARKERS);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("plan-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let out = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(PLAN_ENV, &path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output();
    let text = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);
    let out = out.map_err(|e| format!("the walking child did not start: {e}"))?;
    let text = text.map_err(|_| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        format!(
            "the walking child ended ({}) without its plan{}",
            out.status,
            last.map(|l| format!(": {l}")).unwrap_or_default()
        )
    })?;
    let plan: Plan = yardstick_format::json::from_str(&text)
        .map_err(|e| format!("the walking child's plan: {e}"))?;
    if plan.version != PLAN_VERSION {
        return Err(format!(
            "the walking child's plan is version {}",
            plan.version
        ));
    }
    Ok(plan)
}

/// A hand-written `main`'s first `configure_from_args`: when this bench
/// target's data outlived its functions last time and nothing has run
/// yet, starts this binary again in this process's place, so that the
/// data this `main` built is gone and the new image walks in a child before
/// `main` ([`restarted_before_main`]).
/// Returns only when it does not (then the walk is this process's).
pub(crate) fn restart_without_data<M: Measurement>(run: &RunSettings, config: &BenchmarkConfig) {
    let ruled_out = CRITERION_MAIN.load(Ordering::Relaxed)
        || crate::worker::active()
        || walking()
        || std::env::var_os(BEFORE_MAIN_ENV).is_some()
        || run.mode != Mode::Benchmark
        || plannable::<M>(config).is_err()
        || !crate::state::nothing_run_yet()
        || !marker(&run.home).is_file();
    if ruled_out || RESTARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    restart();
}

/// Linux only: the new image walks from `.init_array`, which the loader
/// runs before `main`.
#[cfg(target_os = "linux")]
fn restart() {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // Replaces this process; returns only when that failed.
    let _ = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(BEFORE_MAIN_ENV, "1")
        .exec();
}

#[cfg(not(target_os = "linux"))]
fn restart() {}

/// In a process [`restart_without_data`] started (the front-end asks
/// before `main`, from `.init_array`): `true` once, and the variable is
/// gone, so that the workers and the walking child do not inherit it.
pub(crate) fn restarted_before_main() -> bool {
    if std::env::var_os(BEFORE_MAIN_ENV).is_none() {
        return false;
    }
    RESTARTED.store(true, Ordering::Relaxed);
    // Called before `main`: single-threaded still, nothing else reads the
    // environment.
    std::env::remove_var(BEFORE_MAIN_ENV);
    true
}

fn planned_job(job: &Job) -> PlannedJob {
    match job {
        Job::Benchmark(id, config) => PlannedJob::Benchmark {
            id: id.record().clone(),
            config: planned_config(config),
        },
        Job::GroupEnd(end) => PlannedJob::GroupEnd {
            name: end.name.clone(),
            members: end
                .members
                .iter()
                .map(|m| PlannedMember {
                    title: m.title.clone(),
                    function: m.function.clone(),
                    value: m.value.clone(),
                    typical: m.typical,
                })
                .collect(),
            waiting: end
                .waiting
                .iter()
                .map(|&(i, j)| [i as u64, j as u64])
                .collect(),
            compare_by_id: end.compare_by_id,
            log_scale: end.log_scale,
            requirements: end
                .requirements
                .iter()
                .map(|r| PlannedRequirement {
                    fast: r.fast.clone(),
                    slow: r.slow.clone(),
                    factor: r.factor,
                })
                .collect(),
        },
    }
}

fn job_of(job: PlannedJob) -> Job {
    match job {
        PlannedJob::Benchmark { id, config } => {
            Job::Benchmark(FullId::from_record(id), Box::new(config_of(&config)))
        }
        PlannedJob::GroupEnd {
            name,
            members,
            waiting,
            compare_by_id,
            log_scale,
            requirements,
        } => Job::GroupEnd(GroupEnd {
            name,
            members: members
                .into_iter()
                .map(|m| Member {
                    title: m.title,
                    function: m.function,
                    value: m.value,
                    typical: m.typical,
                })
                .collect(),
            waiting: waiting
                .iter()
                .map(|&[i, j]| (i as usize, j as usize))
                .collect(),
            compare_by_id,
            log_scale,
            requirements: requirements
                .into_iter()
                .map(|r| Requirement {
                    fast: r.fast,
                    slow: r.slow,
                    factor: r.factor,
                })
                .collect(),
        }),
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn planned_config(c: &BenchmarkConfig) -> PlannedConfig {
    PlannedConfig {
        confidence_level: c.confidence_level,
        measurement_time_ns: nanos(c.measurement_time),
        noise_threshold: c.noise_threshold,
        nresamples: c.nresamples as u64,
        sample_size: c.sample_size as u64,
        significance_level: c.significance_level,
        significance_explicit: c.significance_explicit,
        warm_up_time_ns: nanos(c.warm_up_time),
        sampling_mode: match c.sampling_mode {
            SamplingMode::Auto => "auto",
            SamplingMode::Linear => "linear",
            SamplingMode::Flat => "flat",
        }
        .into(),
        quick_mode: c.quick_mode,
        explicit_plan: c.explicit_plan,
        target_precision: c.target_precision,
        timeout_ns: nanos(c.timeout),
        min_time_ns: nanos(c.min_time),
        processes: c.processes as u64,
        stdev: c.stdev,
        fail_if_slower: c.fail_if_slower,
        fail_if_faster: c.fail_if_faster,
        machine_drift: c.machine_drift,
        fixed_iters: c.fixed_iters,
    }
}

fn config_of(p: &PlannedConfig) -> BenchmarkConfig {
    BenchmarkConfig {
        confidence_level: p.confidence_level,
        measurement_time: Duration::from_nanos(p.measurement_time_ns),
        noise_threshold: p.noise_threshold,
        nresamples: p.nresamples as usize,
        sample_size: p.sample_size as usize,
        significance_level: p.significance_level,
        significance_explicit: p.significance_explicit,
        warm_up_time: Duration::from_nanos(p.warm_up_time_ns),
        sampling_mode: match p.sampling_mode.as_str() {
            "linear" => SamplingMode::Linear,
            "flat" => SamplingMode::Flat,
            _ => SamplingMode::Auto,
        },
        quick_mode: p.quick_mode,
        explicit_plan: p.explicit_plan,
        target_precision: p.target_precision,
        timeout: Duration::from_nanos(p.timeout_ns),
        min_time: Duration::from_nanos(p.min_time_ns),
        metrics: Vec::new(),
        processes: p.processes as usize,
        stdev: p.stdev,
        fail_if_slower: p.fail_if_slower,
        fail_if_faster: p.fail_if_faster,
        machine_drift: p.machine_drift,
        fixed_iters: p.fixed_iters,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of a configuration survives the plan, the sampling
    /// modes included (a field added to one side and not the other fails
    /// to compile in `planned_config` or `config_of`).
    #[test]
    fn a_configuration_goes_through_the_plan_unchanged() {
        for mode in [SamplingMode::Auto, SamplingMode::Linear, SamplingMode::Flat] {
            let c = BenchmarkConfig {
                sampling_mode: mode,
                measurement_time: Duration::from_millis(1234),
                warm_up_time: Duration::from_nanos(7),
                timeout: Duration::from_secs(9),
                min_time: Duration::from_micros(3),
                sample_size: 17,
                nresamples: 2000,
                processes: 12,
                stdev: Some(0.05),
                fail_if_slower: Some(0.1),
                fail_if_faster: Some(0.2),
                machine_drift: Some(0.03),
                fixed_iters: Some(5),
                significance_explicit: true,
                explicit_plan: true,
                quick_mode: true,
                ..BenchmarkConfig::default()
            };
            let text = yardstick_format::json::to_string(&planned_config(&c));
            let back = config_of(&yardstick_format::json::from_str(&text).unwrap());
            assert_eq!(format!("{back:?}"), format!("{c:?}"));
        }
    }

    #[test]
    fn a_group_end_keeps_its_members_waiting_and_requirements() {
        let end = GroupEnd {
            name: "g".into(),
            members: vec![Member {
                title: "g/a".into(),
                function: Some("a".into()),
                value: Some("20".into()),
                typical: f64::NAN,
            }],
            waiting: vec![(0, 3)],
            compare_by_id: true,
            log_scale: true,
            requirements: vec![Requirement {
                fast: "a".into(),
                slow: "b".into(),
                factor: 2.0,
            }],
        };
        let Job::GroupEnd(back) = job_of(planned_job(&Job::GroupEnd(end))) else {
            panic!("not a group end");
        };
        assert_eq!(back.waiting, [(0, 3)]);
        assert!(back.members[0].typical.is_nan());
        assert_eq!(back.members[0].value.as_deref(), Some("20"));
        assert!(back.compare_by_id && back.log_scale);
        assert_eq!(back.requirements[0].factor, 2.0);
    }
}

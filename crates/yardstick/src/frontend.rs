//! Entry points for yardstick's other front-ends (`yardstick-divan`), outside
//! semver: the few things their registration and output need that the
//! Criterion.rs API does not offer. Every benchmark still runs through
//! [`BenchmarkGroup::bench_function`] and so through the one engine.

use std::ffi::OsString;
use std::time::Duration;

use crate::cli::{Args, Mode, OutputFormat};
use crate::id::BenchmarkId;
use crate::measurement::Measurement;
use crate::{Bencher, BenchmarkGroup, Criterion};

/// Records the package the bench crate was compiled in (the
/// `CARGO_PKG_NAME` that `criterion_main!` expands in the user's crate),
/// so that the binary knows its bench target's package however it is
/// started; `None` (built outside cargo) records nothing.
pub fn compiled_in_package(name: Option<&'static str>) {
    if let Some(name) = name {
        crate::store::binaries::set_compiled_package(name);
    }
}

/// Whether this process is a worker: it measures only what its parent
/// asks for, so a front-end skips its own sizing and printing.
pub fn is_worker() -> bool {
    crate::worker::active()
}

/// What the bench binary was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMode {
    /// Measure (`cargo bench`).
    Benchmark,
    /// Run each benchmark once (`cargo test --benches`, `--test`).
    Test,
    /// List the benchmarks.
    List,
    /// `--profile-time`.
    Profile,
}

/// Applies yardstick's own flags `args` (without the program name) and the
/// `YARDSTICK_*` variables, as [`Criterion::configure_from_args`] does with
/// the process's command line. Errors name the flag.
pub fn configure<M: Measurement>(
    c: Criterion<M>,
    args: Vec<OsString>,
) -> Result<Criterion<M>, String> {
    crate::supervised::die_with_supervisor();
    let env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let args = Args::parse(args, &env).map_err(|e| e.to_string())?;
    if args.help {
        return Err("--help".into());
    }
    // A front-end's own plan is sampled here, as its harness does, unless
    // `--processes` asks for worker processes: it lasts microseconds to
    // milliseconds, too short for processes to show what differs between
    // runs. `--target-precision` asks for the engine's sampling instead.
    let engine = args.target_precision.is_some();
    let processes = args.processes;
    let mut c = c.configure_with(args);
    c.run.engine_sampling = engine;
    if !engine {
        c.config.processes = processes.unwrap_or(1);
    }
    Ok(c)
}

/// What the run was asked to do.
pub fn mode<M: Measurement>(c: &Criterion<M>) -> RunMode {
    match c.run.mode {
        Mode::Benchmark => RunMode::Benchmark,
        Mode::Test => RunMode::Test,
        Mode::List => RunMode::List,
        Mode::Profile(_) => RunMode::Profile,
    }
}

/// How the front-end's benchmarks are to be sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampling {
    /// The front-end's own plan (divan's: [`fixed_plan`]), in this process
    /// unless `--processes` asks for workers. Its comparisons are between
    /// samples of one process each: they do not carry run-to-run noise,
    /// so they are changes, not verdicts.
    OwnPlan,
    /// The engine's (`--target-precision`): adaptive, in worker processes,
    /// until the interval is within the target precision. Its comparisons
    /// carry run-to-run noise and are verdicts.
    Engine,
}

/// How the run was asked to sample.
pub fn sampling<M: Measurement>(c: &Criterion<M>) -> Sampling {
    if c.run.engine_sampling {
        Sampling::Engine
    } else {
        Sampling::OwnPlan
    }
}

/// Prints no per-benchmark lines: the front-end prints its own table.
/// Warnings and failures still go to stderr.
pub fn silence<M: Measurement>(c: &mut Criterion<M>) {
    c.run.output_format = OutputFormat::Silent;
}

/// A plan of `samples` samples of equal iteration counts (flat sampling),
/// sized so that each sample takes about `sample_time`, after a warm-up of
/// `warm_up`. Adaptive sampling is off for the group's later benchmarks.
#[derive(Debug, Clone, Copy)]
pub struct FixedPlan {
    /// Samples to take (at least 2).
    pub samples: usize,
    /// Time each sample should take.
    pub sample_time: Duration,
    /// Warm-up before sampling.
    pub warm_up: Duration,
    /// Bootstrap resamples of the analysis (`None`: the run's setting).
    pub nresamples: Option<usize>,
    /// Iterations of every sample, exactly (`None`: sized from
    /// `sample_time` and the warm-up, which times whole calls).
    pub iters: Option<u64>,
}

/// Applies `plan` to the group's next benchmarks.
pub fn fixed_plan<M: Measurement>(g: &mut BenchmarkGroup<'_, M>, plan: &FixedPlan) {
    let samples = plan.samples.max(2);
    let p = &mut g.partial;
    p.sample_size = Some(samples);
    p.sampling_mode = Some(crate::SamplingMode::Flat);
    p.warm_up_time = Some(plan.warm_up.max(Duration::from_nanos(1)));
    p.measurement_time = Some(
        plan.sample_time
            .saturating_mul(samples as u32)
            .max(Duration::from_nanos(1)),
    );
    if let Some(n) = plan.nresamples {
        p.nresamples = Some(n.max(1));
    }
    p.fixed_iters = plan.iters.map(|k| k.max(1));
}

/// Benchmarks `f` in group `g` under `parameter`, or under the group's name
/// alone when there is none. Returns whether the id was new (it ran or was
/// filtered out) — a repeated id is reported as a failure by the engine.
pub fn bench<M: Measurement, F>(g: &mut BenchmarkGroup<'_, M>, parameter: Option<&str>, f: F)
where
    F: FnMut(&mut Bencher<'_, M>),
{
    let id = match parameter {
        Some(p) => BenchmarkId::from_parameter(p),
        None => BenchmarkId::no_function(),
    };
    g.bench_function(id, f);
}

/// This thread's allocations so far, as divan's table counts them (from
/// [`CountingAllocator`](crate::meters::CountingAllocator)): each pair is
/// a count and its bytes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AllocCounts {
    /// `alloc` and `alloc_zeroed` calls.
    pub alloc: [i128; 2],
    /// `dealloc` calls.
    pub dealloc: [i128; 2],
    /// `realloc` calls to the same or a larger size, and the bytes added.
    pub grow: [i128; 2],
    /// `realloc` calls to a smaller size, and the bytes given back.
    pub shrink: [i128; 2],
    /// Allocations and bytes live now.
    pub live: [i128; 2],
    /// The most allocations, and the most bytes, live at once since the
    /// last [`alloc_counts_from_here`].
    pub peak: [i128; 2],
}

/// This thread's allocations so far (see [`AllocCounts`]).
pub fn alloc_counts() -> AllocCounts {
    alloc_counts_of(&crate::meters::alloc_snapshot())
}

/// [`alloc_counts`], and from here on the peaks are counted anew: the next
/// reading's `peak` is the most live at once since this call.
pub fn alloc_counts_from_here() -> AllocCounts {
    alloc_counts_of(&crate::meters::alloc_snapshot_and_reset_peak())
}

fn alloc_counts_of(s: &crate::meters::AllocSnapshot) -> AllocCounts {
    let n = |x: u64| i128::from(x);
    let grows = s.reallocations.wrapping_sub(s.shrinks);
    AllocCounts {
        alloc: [
            n(s.allocations),
            n(s.allocated_bytes.wrapping_sub(s.grown_bytes)),
        ],
        dealloc: [n(s.deallocations), n(s.freed_bytes)],
        grow: [n(grows), n(s.grown_bytes)],
        shrink: [n(s.shrinks), n(s.shrunk_bytes)],
        live: [i128::from(s.live_count), i128::from(s.live_bytes)],
        peak: [i128::from(s.peak_live_count), i128::from(s.peak_live_bytes)],
    }
}

/// The comparison of the benchmark `full_id` with its baseline in this run:
/// the relative change of the mean (point, lower, upper) and whether the
/// engine flagged it as a change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Relative change of the mean, its interval's bounds.
    pub mean: [f64; 3],
    /// The engine's verdict: improved or regressed (else within noise).
    pub flagged: bool,
    /// Judged between worker processes on both sides, or in lock-step
    /// with the baseline's binary, so the interval carries run-to-run
    /// noise; else between samples of one process.
    pub between_processes: bool,
    /// Not flagged, and the interval's half-width (this relative change)
    /// is too wide to tell a change a user cares about from the machine's
    /// run-to-run noise.
    pub too_noisy: Option<f64>,
}

/// The samples the engine analysed for a benchmark: iterations and
/// measured values (nanoseconds for wall time) of each.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Iterations of each sample.
    pub iters: Vec<f64>,
    /// The measured value of each sample.
    pub values: Vec<f64>,
    /// Whether worker processes took them (else this process did).
    pub in_workers: bool,
}

/// The samples of the benchmark `parameter` of group `group` (as given to
/// [`bench`]), right after it was measured.
pub fn measured(group: &str, parameter: Option<&str>) -> Option<Measured> {
    let id = crate::id::FullId::new(group, None, parameter.map(str::to_owned), None);
    let m = crate::state::samples_of(&id.full_id)?;
    Some(Measured {
        iters: m.iters,
        values: m.values,
        in_workers: m.in_workers,
    })
}

/// The change the engine found in this run for the benchmark `parameter`
/// of group `group` (as given to [`bench`]), if it compared it.
pub fn change<M: Measurement>(
    _c: &Criterion<M>,
    group: &str,
    parameter: Option<&str>,
) -> Option<Change> {
    let id = crate::id::FullId::new(group, None, parameter.map(str::to_owned), None);
    let found = crate::state::comparison_of(&id.full_id)?;
    Some(Change {
        mean: found.mean,
        flagged: found.flagged,
        between_processes: found.between_processes,
        too_noisy: found.too_noisy,
    })
}

/// The resolution of the wall clock, measured once.
pub fn clock_resolution() -> Duration {
    crate::meters::clock_resolution()
}

/// Whether yardstick's long option `--name` takes a value (so a front-end
/// that passes yardstick's options through knows which word is its value).
pub fn takes_value(name: &str) -> bool {
    crate::cli::takes_value(name)
}

/// The name of group `g`.
pub fn group_name<'g, M: Measurement>(g: &'g BenchmarkGroup<'_, M>) -> &'g str {
    &g.group_name
}

/// The `Criterion` group `g` belongs to.
pub fn group_criterion<'g, M: Measurement>(g: &'g BenchmarkGroup<'_, M>) -> &'g Criterion<M> {
    g.criterion
}

/// Records a benchmark that failed outside the engine (the binary exits
/// non-zero at the end).
pub fn record_failure(id: &str) {
    crate::state::record_failure(id);
}

/// Criterion.rs's `estimates.json` entries from the statistics' estimates:
/// the one conversion, for `cargo yardstick`'s files as for the harness's.
pub use crate::store::{estimate_file, estimates_file};

/// Says that this front-end times its own loops inside `iter_custom` and
/// marks them with [`timed_loop`]: `--explain` then counts those loops
/// only, not the whole `iter_custom` routine.
pub fn times_its_own_loops() {
    crate::counting::own_loops();
}

/// Marks the start (`true`, just before the clock starts) or the end (just
/// after it stops) of a front-end's timed loop, for `--explain`'s counts;
/// nothing outside an explanation (one relaxed load).
#[inline]
pub fn timed_loop(start: bool) {
    crate::counting::front_end_loop(start);
}

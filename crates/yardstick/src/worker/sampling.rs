//! The default sampling: one benchmark in several short worker processes,
//! one after another, each warmed up and sampled on its own; the interval
//! is then Student's t over the processes' estimates
//! (`yardstick_stats::processes`), so it carries the offset between
//! processes that a second `cargo bench` will meet.
//!
//! Processes run in turn, not interleaved: a load that comes and goes over
//! the run then shows up between the processes' estimates, widening the
//! interval as it should. Sampling stops once the interval is within the
//! target precision (after the minimum number of processes and the minimum
//! time), or at the process limit or the time-out — where more time would
//! no longer narrow it, because what is left is the between-process part.

use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use yardstick_stats::precision::{Stop, StopRule};
use yardstick_stats::processes;

use super::{Unavailable, Worker, WorkerError};
use crate::adaptive::{Sampled, FIRST_SAMPLE_NS, FLAT_ABOVE_NS};
use crate::config::{ActualSamplingMode, BenchmarkConfig};

/// Fewest processes an interval is trusted from (t with 4 df is wide, but
/// honest; fewer would be wider still).
pub(crate) const MIN_PROCESSES: usize = 5;

/// The first process warms the machine up (clock frequency, caches) for at
/// least this long, at most [`FIRST_WARM_UP_MAX`] (or the warm-up time).
const FIRST_WARM_UP_MIN: Duration = Duration::from_millis(30);
const FIRST_WARM_UP_MAX: Duration = Duration::from_millis(200);

/// Later processes only need their own pages and caches warm.
const WARM_UP_MIN: Duration = Duration::from_millis(5);
const WARM_UP_MAX: Duration = Duration::from_millis(25);

/// Sampling time per process.
const SLICE: Duration = Duration::from_millis(50);

/// Linear samples planned per process (the slice usually ends sooner).
const PLANNED_SAMPLES: u64 = 400;

/// The resident memory the workers may hold together before they are
/// kept one at a time (the lock-step engine's rule).
const MEMORY_BUDGET: u64 = super::lockstep::DEFAULT_MEMORY_BUDGET;

/// Time allowed to reach a benchmark (the setup code before it runs in the
/// worker as it did here).
const ADVANCE_LIMIT: Duration = Duration::from_secs(120);

/// The workers of this process. They walk this whole binary's benchmarks
/// in step with it, whichever `Criterion` (one per group) asks, so they are
/// the process's, not a `Criterion`'s.
static POOL: Mutex<Option<Pool>> = Mutex::new(None);

struct Pool {
    workers: Vec<Worker>,
    /// The workers were found large (their setup's memory times the
    /// number of processes past the budget): one is alive at a time, each
    /// ended after its turn.
    large: bool,
    /// Whether `large` was judged (on the first worker's turn).
    judged: bool,
    /// Why workers are not used any more in this run, once they failed to
    /// follow (ids that differ between processes, a worker that cannot
    /// start).
    disabled: Option<String>,
}

/// How long a worker may take to answer one request before it is killed:
/// the benchmark's time-out three times over, plus two seconds. A routine
/// whose single iteration takes longer needs a longer `--timeout`.
fn watchdog(config: &BenchmarkConfig) -> Duration {
    config.timeout.saturating_mul(3) + Duration::from_secs(2)
}

/// This binary with this run's arguments, as worker number `k`
/// (`YARDSTICK_WORKER_INDEX`, for diagnostics and tests).
fn command(k: usize) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let mut c = Command::new(exe);
    c.args(std::env::args_os().skip(1))
        .env("YARDSTICK_WORKER_INDEX", k.to_string());
    Ok(c)
}

/// Starts worker number `k`; a failure means workers cannot be used.
fn spawn(k: usize) -> Result<Worker, Unavailable> {
    let c = command(k).map_err(Unavailable::Fallback)?;
    Worker::spawn(c).map_err(|e| Unavailable::Fallback(e.to_string()))
}

impl Pool {
    /// Starts workers until there are `n`: all at once, so that they walk
    /// to the first benchmark side by side rather than one after another.
    /// Large workers are started one at a time instead, when their turn
    /// comes.
    fn fill(&mut self, n: usize) -> Result<(), Unavailable> {
        let n = if self.judged { n } else { 1 };
        while !self.large && self.workers.len() < n {
            self.workers.push(spawn(self.workers.len())?);
        }
        Ok(())
    }

    /// After worker `k`'s turn: judges its size (the memory `n` like it
    /// would hold; once large, the run's workers stay so judged) and, for
    /// large workers, ends the one just used, so that one is alive at a
    /// time: a benchmark whose setup builds 200 MB then holds 200 MB in
    /// workers, not 2 GB.
    fn after_turn(&mut self, k: usize, n: usize) {
        let k = k.min(self.workers.len().saturating_sub(1));
        if !self.large {
            let one = self.workers.get(k).and_then(Worker::resident_bytes);
            self.large = one.is_some_and(|b| b.saturating_mul(n as u64) > MEMORY_BUDGET);
        }
        self.judged = true;
        if self.large {
            self.workers.clear();
        }
    }

    /// Worker `k`, waiting at benchmark `id`, started if need be.
    fn ready(&mut self, k: usize, id: &str) -> Result<&mut Worker, Unavailable> {
        if k < self.workers.len() && self.workers[k].is_gone() {
            self.workers.remove(k);
        }
        let mut fresh = false;
        if k >= self.workers.len() {
            self.workers.push(spawn(k)?);
            fresh = true;
        }
        let k = k.min(self.workers.len() - 1);
        loop {
            match self.workers[k].advance_to(id, ADVANCE_LIMIT) {
                Ok(true) => return Ok(&mut self.workers[k]),
                Ok(false) if fresh => {
                    return Err(Unavailable::Fallback(format!(
                        "a worker process never reached benchmark {id}: the benchmarks' ids differ between runs of this binary"
                    )))
                }
                Ok(false) => {
                    // It had walked past `id` (ids out of order): start over.
                    self.workers[k] = spawn(k)?;
                    fresh = true;
                }
                Err(e) => {
                    self.workers.remove(k);
                    return Err(Unavailable::Fallback(e.to_string()));
                }
            }
        }
    }
}

/// Samples benchmark `id` in worker processes.
pub(crate) fn sample(id: &str, config: &BenchmarkConfig) -> Result<Sampled, Unavailable> {
    with_pool(|pool| run(pool, id, config))
}

/// A fixed plan: from the time per iteration the first warm-up measured,
/// the sampling mode and every sample's iteration count.
pub(crate) type Planner<'a> = &'a dyn Fn(f64) -> (ActualSamplingMode, Vec<u64>);

/// Samples benchmark `id` by a fixed plan (a sample size or measurement
/// time the user asked for) spread over the worker processes: each warms
/// up for its share of the warm-up time and takes every K-th planned
/// sample, so the plan's time is kept and its interval still carries the
/// run-to-run noise.
pub(crate) fn sample_planned(
    id: &str,
    config: &BenchmarkConfig,
    planner: Planner<'_>,
) -> Result<Sampled, Unavailable> {
    with_pool(|pool| run_planned(pool, id, config, planner))
}

/// Runs `f` on this process's pool, unless workers were given up on; gives
/// them up when `f` finds they cannot be used.
fn with_pool(
    f: impl FnOnce(&mut Pool) -> Result<Sampled, Unavailable>,
) -> Result<Sampled, Unavailable> {
    let mut guard = POOL.lock().unwrap_or_else(|e| e.into_inner());
    let pool = guard.get_or_insert_with(|| Pool {
        workers: Vec::new(),
        large: false,
        judged: false,
        disabled: None,
    });
    if let Some(why) = &pool.disabled {
        return Err(Unavailable::Fallback(why.clone()));
    }
    let result = f(pool);
    if let Err(Unavailable::Fallback(why)) = &result {
        pool.disabled = Some(why.clone());
        pool.workers.clear();
    }
    result
}

fn failed(e: WorkerError) -> Unavailable {
    Unavailable::Failed(e.to_string())
}

fn empty() -> Sampled {
    Sampled {
        mode: ActualSamplingMode::Linear,
        iters: Vec::new(),
        values: Vec::new(),
        processes: Some(Vec::new()),
        precision: None,
        reached: false,
    }
}

/// Adds process `k`'s samples; its estimate, if it has one, to `estimates`.
fn add(s: &mut Sampled, estimates: &mut Vec<f64>, k: usize, iters: Vec<f64>, values: Vec<f64>) {
    let procs = vec![k as u32; iters.len()];
    if let Ok(e) = processes::per_process(&iters, &values, &procs) {
        estimates.extend(e);
    }
    s.iters.extend(iters);
    s.values.extend(values);
    if let Some(p) = s.processes.as_mut() {
        p.extend(procs);
    }
}

fn run(pool: &mut Pool, id: &str, config: &BenchmarkConfig) -> Result<Sampled, Unavailable> {
    let limit = watchdog(config);
    let start = Instant::now();
    let max_processes = config.processes.max(2);
    let min_processes = MIN_PROCESSES.min(max_processes);
    let rule = StopRule {
        target: config.target_precision,
        min_count: min_processes,
        max_count: max_processes,
        min_time: config.min_time.min(config.timeout).as_secs_f64(),
        max_time: config.timeout.as_secs_f64(),
    };
    let mut plan: Option<(ActualSamplingMode, Vec<u64>)> = None;
    let mut s = empty();
    let mut estimates = Vec::new();
    pool.workers.retain(|w| !w.is_gone());
    pool.fill(max_processes)?;
    for k in 0..max_processes {
        let worker = pool.ready(k, id)?;
        let (min, max) = if plan.is_none() {
            (
                FIRST_WARM_UP_MIN,
                FIRST_WARM_UP_MAX.min(config.warm_up_time),
            )
        } else {
            (WARM_UP_MIN, WARM_UP_MAX)
        };
        let met = worker.warm_up(min, max, limit).map_err(failed)?;
        let (mode, counts) = plan.get_or_insert_with(|| plan_for(met));
        s.mode = *mode;
        let min_samples = if *mode == ActualSamplingMode::Flat {
            2
        } else {
            5
        };
        let (iters, values) = worker
            .sample(counts.clone(), SLICE, min_samples, limit)
            .map_err(failed)?;
        pool.after_turn(k, max_processes);
        pool.fill(max_processes)?;
        add(&mut s, &mut estimates, k, iters, values);
        if k + 1 >= min_processes {
            s.precision = processes::relative_half_width(&estimates, config.confidence_level);
        }
        if let Some(stop) = rule.check(k + 1, s.precision, start.elapsed().as_secs_f64()) {
            s.reached = stop == Stop::Precise;
            break;
        }
    }
    Ok(s)
}

/// Processes for a plan of `sample_size` samples: at most `--processes`,
/// and at least two samples each.
fn planned_processes(config: &BenchmarkConfig) -> usize {
    config.processes.min(config.sample_size / 2).max(2)
}

fn run_planned(
    pool: &mut Pool,
    id: &str,
    config: &BenchmarkConfig,
    planner: Planner<'_>,
) -> Result<Sampled, Unavailable> {
    let k_max = planned_processes(config);
    // A front-end's exact plan (divan's) brings its own warm-up, sized to
    // its samples: each process gets its share. The user's plan of
    // Criterion.rs's API keeps the engine's floor per process.
    let floor = if config.fixed_iters.is_some() {
        Duration::ZERO
    } else {
        WARM_UP_MIN
    };
    let share = (config.warm_up_time / k_max as u32).max(floor);
    let mut plan: Option<(Vec<u64>, f64)> = None;
    let mut s = empty();
    let mut estimates = Vec::new();
    pool.workers.retain(|w| !w.is_gone());
    pool.fill(k_max)?;
    for k in 0..k_max {
        let worker = pool.ready(k, id)?;
        let met = worker
            .warm_up(floor, share, watchdog(config))
            .map_err(failed)?;
        let (counts, met) = plan.get_or_insert_with(|| {
            let (mode, counts) = planner(met);
            s.mode = mode;
            (counts, met)
        });
        let mine: Vec<u64> = counts.iter().skip(k).step_by(k_max).copied().collect();
        if mine.is_empty() {
            break;
        }
        // A planned slice may be long (a long measurement time): the
        // watchdog allows three times what it should take.
        let expected = mine.iter().map(|&n| n as f64).sum::<f64>() * *met;
        let limit = watchdog(config)
            .max(Duration::from_secs_f64((3.0 * expected / 1e9).min(1e6)) + Duration::from_secs(2));
        let n = mine.len() as u32;
        let (iters, values) = worker
            .sample(mine, Duration::ZERO, n, limit)
            .map_err(failed)?;
        pool.after_turn(k, k_max);
        pool.fill(k_max)?;
        add(&mut s, &mut estimates, k, iters, values);
    }
    s.precision = processes::relative_half_width(&estimates, config.confidence_level);
    s.reached = true;
    Ok(s)
}

/// Linear counts `d, 2d, …` with the first sample about 0.1 ms, or single
/// iterations for routines slower than 1 ms.
fn plan_for(met: f64) -> (ActualSamplingMode, Vec<u64>) {
    let met = met.max(1e-3);
    if met > FLAT_ABOVE_NS {
        return (ActualSamplingMode::Flat, vec![1; PLANNED_SAMPLES as usize]);
    }
    let d = ((FIRST_SAMPLE_NS / met).ceil() as u64).max(1);
    let counts = (1..=PLANNED_SAMPLES).map(|k| k.saturating_mul(d)).collect();
    (ActualSamplingMode::Linear, counts)
}

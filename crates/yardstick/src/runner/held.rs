//! Benchmarks that wait for the setup this process holds.
//!
//! A suite's input data is usually built in the function that defines the
//! benchmarks, before them, so every process that walks to a benchmark
//! holds it: this one, and both workers of a lock-step pair. Three copies
//! at once is a third more than two workers need, and for a 2 GB data set
//! the difference between fitting and not. This process never runs the
//! routine of a benchmark measured in workers, so its copy is dead weight
//! while the pair measures: a benchmark compared in lock-step while this
//! process holds more than [`HELD_LIMIT`] waits until the front-end's code
//! that defined it has returned (and dropped what it built), and is
//! measured then. Only its lines move: they come after the benchmarks its
//! function measured at once, its verdict and files are the same.
//!
//! When waiting did not help (the data outlives the function: a static, or
//! built in `main`), the run says so once and stops making benchmarks wait;
//! the run's end leaves a marker, and the next run of a `criterion_main!`
//! binary leaves the walk to a child process ([`crate::walk`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::BenchmarkConfig;
use crate::engine::Session;
use crate::id::FullId;
use crate::measurement::Measurement;
use crate::store::BenchmarkDir;

use crate::walk::{resident_now, HELD_LIMIT};

/// What a waiting benchmark's stand-in routine says, should a fallback
/// ever call it in this process.
pub(super) const ROUTINE_GONE: &str = "its routine is no longer in this process (it waited for \
     its setup to be dropped) and its worker processes could not measure it";

/// Set when a wait did not free the memory: nothing waits after that.
static FUTILE: AtomicBool = AtomicBool::new(false);

/// Whether `id` waits: it is compared in lock-step with a baseline binary
/// this run, and this process holds more than [`HELD_LIMIT`]. Said once
/// per run.
pub(super) fn waits<M: Measurement>(
    c: &Session<'_, M>,
    id: &FullId,
    config: &BenchmarkConfig,
) -> bool {
    if FUTILE.load(Ordering::Relaxed) {
        return false;
    }
    let Some(name) = super::lockstep_baseline(c.run, config) else {
        return false;
    };
    let dir = BenchmarkDir::new(&c.run.home, &id.directory_name);
    if super::other_owner(&dir).is_some() || !matches!(dir.load_binary(name), Ok(Some(_))) {
        return false;
    }
    let Some(held) = resident_now().filter(|&b| b > HELD_LIMIT) else {
        return false;
    };
    let note = format!(
        "this process holds {} MB (the benchmarks' setup): benchmarks compared in lock-step \
         are measured once the function defining them has returned and dropped it, so that \
         only the two measuring processes hold a copy; their lines come after the function's",
        held >> 20
    );
    if crate::output::first_time("a benchmark waits for its setup") {
        c.run.terminal().note(&note);
    }
    true
}

/// Called when the waiting benchmarks are about to run: if this process
/// still holds more than [`HELD_LIMIT`], the setup outlives the function
/// that defined them, and later benchmarks do not wait. That is said once:
/// the pairs then measure beside this process's copy, three copies at
/// once (2.91 times `--processes 1`'s peak for 200 MB kept in a static,
/// `compare/memory/peak.py --static`), until the next run walks in a
/// child ([`crate::walk`]).
pub(crate) fn waited(run: &crate::engine::RunSettings) {
    let held = resident_now();
    if held.map_or(true, |b| b > HELD_LIMIT) {
        FUTILE.store(true, Ordering::Relaxed);
        if let Some(held) = held {
            run.terminal().note(&format!(
                "this process still holds {} MB after the function defining the benchmarks \
                 returned (data built in main or kept in a static): the lock-step pairs measure \
                 beside it, three copies at once; from the next run a child process walks the \
                 functions, so that this one holds none",
                held >> 20
            ));
        }
    }
}

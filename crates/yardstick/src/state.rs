//! The run-level collector: the one process-wide value of a run.
//!
//! `criterion_main!` makes one `Criterion` per group, but the run is the
//! binary: failures, duplicate ids, the comparisons for the suite-level
//! correction and the exit status belong to all of them, and so do the
//! outputs that cover the whole run (the report's index, `--csv`, the
//! markdown summary). So the tally and the run's [`Sink`]s live here, once;
//! everything else reaches them as arguments ([`benchmark_done`],
//! [`group_done`], [`finish`]).

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, Once};

use crate::engine::RunSettings;
use crate::output::sink::{Comparison, GroupEnd, Outcome, PairedEnd, RunEnd, Sink};

/// The samples the engine analysed for one benchmark: a front-end that
/// prints its own table reads them, since in worker processes its own
/// routine never ran here.
#[derive(Debug, Clone, Default)]
pub(crate) struct Measured {
    pub id: String,
    pub iters: Vec<f64>,
    pub values: Vec<f64>,
    /// Sampled in worker processes.
    pub in_workers: bool,
}

#[derive(Default)]
struct Tally {
    failed: Vec<String>,
    seen: HashSet<String>,
    measured: usize,
    comparisons: Vec<Comparison>,
    last_measured: Option<Measured>,
    started: Option<std::time::Instant>,
    /// `--partition`'s selector: counting is over the whole binary, which
    /// `criterion_main!` splits into several `Criterion`s.
    shard: Option<yardstick_format::partition::Selector>,
    /// The suite's error rate spent across the run's comparisons.
    suite: Option<yardstick_stats::online::Lond>,
}

/// Two locks: a sink may ask the tally (never the other way round).
static TALLY: Mutex<Option<Tally>> = Mutex::new(None);
static SINKS: Mutex<Option<Vec<Box<dyn Sink>>>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut Tally) -> R) -> R {
    let mut guard = TALLY.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Tally::default))
}

fn sinks() -> MutexGuard<'static, Option<Vec<Box<dyn Sink>>>> {
    let mut guard = SINKS.lock().unwrap_or_else(|e| e.into_inner());
    guard.get_or_insert_with(standard);
    guard
}

/// The sinks of a run, in the order they are fed.
fn standard() -> Vec<Box<dyn Sink>> {
    vec![
        Box::new(crate::report::Pages::default()),
        Box::new(crate::tasty_csv::Csv::default()),
        Box::new(crate::store::save::Files),
        Box::new(crate::output::messages::Messages),
        Box::new(crate::output::terminal_sink::Lines::default()),
        // Last: it runs after every measurement and the run's summary.
        Box::new(crate::explain::Explain::default()),
    ]
}

/// Feeds a finished benchmark to every sink, in order.
pub(crate) fn benchmark_done(run: &RunSettings, outcome: &Outcome<'_>) {
    for s in sinks().iter_mut().flatten() {
        s.benchmark(run, outcome);
    }
}

/// Feeds a finished group to every sink, in order.
pub(crate) fn group_done(run: &RunSettings, group: &GroupEnd<'_>) {
    for s in sinks().iter_mut().flatten() {
        s.group(run, group);
    }
}

/// Feeds a finished interleaved comparison to every sink, in order.
pub(crate) fn paired_done(run: &RunSettings, paired: &PairedEnd<'_>) {
    for s in sinks().iter_mut().flatten() {
        s.paired(run, paired);
    }
}

/// Ends the run: each sink writes what covers the whole run, in order; a
/// problem it reports is a failure the later sinks (the terminal's closing
/// lines) already count. Returns the ids that failed.
pub(crate) fn finish(run: &RunSettings, significance: f64, metrics_asked: bool) -> Vec<String> {
    for s in sinks().iter_mut().flatten() {
        let problems = with(|t| {
            s.finish(
                run,
                &RunEnd {
                    failed: &t.failed,
                    measured: t.measured,
                    attempted: t.seen.len(),
                    seconds: t.started.map_or(0.0, |s| s.elapsed().as_secs_f64()),
                    comparisons: &t.comparisons,
                    significance,
                    metrics_asked,
                },
            )
        });
        for (name, problem) in problems {
            run.terminal().warning(&problem);
            record_failure(&name);
        }
    }
    failures()
}

/// Records that a benchmark failed; the binary exits non-zero at the end.
pub(crate) fn record_failure(id: &str) {
    with(|g| g.failed.push(id.to_owned()));
}

/// Whether no benchmark has been admitted in this process yet (nothing
/// measured, printed or saved that a restart would lose).
pub(crate) fn nothing_run_yet() -> bool {
    with(|g| g.seen.is_empty() && g.measured == 0 && g.failed.is_empty())
}

/// The ids of the benchmarks that failed so far.
pub(crate) fn failures() -> Vec<String> {
    with(|g| g.failed.clone())
}

/// Records a comparison with a baseline, for the suite-level correction.
pub(crate) fn record_comparison(c: Comparison) {
    with(|g| g.comparisons.push(c));
}

/// The level the next comparison is judged at so that the run's verdicts
/// hold the suite's error rate at `alpha` (LOND, `yardstick_stats::online`),
/// and the comparisons planned; `planned` counts them on the first call.
pub(crate) fn suite_level(alpha: f64, planned: impl FnOnce() -> usize) -> (f64, usize) {
    with(|g| {
        let l = g
            .suite
            .get_or_insert_with(|| yardstick_stats::online::Lond::new(alpha, planned()));
        (l.level(), l.planned())
    })
}

/// Records the decision on the comparison judged at the [`suite_level`]
/// or at the share of it one look was judged at.
pub(crate) fn suite_tested(rejected: bool) {
    with(|g| {
        if let Some(l) = &mut g.suite {
            l.record(rejected);
        }
    });
}

/// The last comparison of benchmark `id` in this run, if any.
pub(crate) fn comparison_of(id: &str) -> Option<Comparison> {
    with(|g| g.comparisons.iter().rev().find(|c| c.id == id).cloned())
}

/// Keeps the samples of the benchmark just analysed (only the last).
pub(crate) fn record_samples(m: Measured) {
    with(|g| g.last_measured = Some(m));
}

/// The samples of benchmark `id`, when it was the last one analysed.
pub(crate) fn samples_of(id: &str) -> Option<Measured> {
    with(|g| g.last_measured.clone().filter(|m| m.id == id))
}

/// Records that a benchmark was measured and saved.
pub(crate) fn record_measured() {
    with(|g| g.measured += 1);
}

/// Starts the run's clock (once).
pub(crate) fn start_clock() {
    with(|g| {
        g.started.get_or_insert_with(std::time::Instant::now);
    });
}

/// Whether this shard measures `unit` (every unit, without `--partition`).
/// Called once per benchmark that passed the filter, in the binary's
/// order, so that `count:` deals the units as `--list` shows them.
pub(crate) fn in_shard(run: &RunSettings, unit: &str) -> bool {
    let Some(p) = run.partition else {
        return true;
    };
    with(|g| {
        let selector = g
            .shard
            .get_or_insert_with(|| yardstick_format::partition::Selector::new(p));
        if selector.partition() != p {
            *selector = yardstick_format::partition::Selector::new(p);
        }
        selector.admits(unit)
    })
}

/// Registers a benchmark id; false if it was already seen in this process.
pub(crate) fn register_id(id: &str) -> bool {
    with(|g| g.seen.insert(id.to_owned()))
}

thread_local! {
    static CAPTURING: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, turning a panic into an error holding its message and place.
///
/// While `f` runs, the panic hook keeps the message instead of printing
/// it, so the failure is reported once, on its benchmark's line.
pub(crate) fn catch_panic<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let captured = CAPTURING.with(|c| {
                let mut c = c.borrow_mut();
                if let Some(slot) = c.as_mut() {
                    let place = info
                        .location()
                        .map(|l| format!(" at {}:{}", l.file(), l.line()))
                        .unwrap_or_default();
                    *slot = format!("panicked{place}: {}", payload_text(info.payload()));
                    true
                } else {
                    false
                }
            });
            if !captured {
                previous(info);
            }
        }));
    });
    let outer = CAPTURING.with(|c| c.borrow_mut().replace(String::new()));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let message = CAPTURING.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer));
    result.map_err(|payload| match message {
        Some(m) if !m.is_empty() => m,
        _ => format!("panicked: {}", payload_text(&*payload)),
    })
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_errors_with_their_message() {
        let r: Result<(), String> = catch_panic(|| panic!("boom {}", 42));
        let e = r.unwrap_err();
        assert!(e.contains("boom 42"), "{e}");
        assert!(e.contains("state.rs"), "{e}");
        assert_eq!(catch_panic(|| 7).unwrap(), 7);
    }

    #[test]
    fn ids_are_registered_once() {
        assert!(register_id("state-test/unique"));
        assert!(!register_id("state-test/unique"));
    }
}

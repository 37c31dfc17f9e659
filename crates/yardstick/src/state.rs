//! Process-wide state: `criterion_main!` makes one `Criterion` per group, but
//! failures, duplicate ids and the exit status belong to the whole binary.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, Once};

#[derive(Default)]
struct Global {
    failed: Vec<String>,
    seen: HashSet<String>,
    csv: Vec<crate::tasty_csv::Row>,
    measured: usize,
    /// Whether any benchmark measured extra metrics.
    metered: bool,
    said: HashSet<String>,
    last_header: Option<String>,
    /// (id, p-value, flagged as a change) of every comparison.
    comparisons: Vec<(String, f64, bool)>,
    started: Option<std::time::Instant>,
}

static GLOBAL: Mutex<Option<Global>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut Global) -> R) -> R {
    let mut guard = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Global::default))
}

/// Records that a benchmark failed; the binary exits non-zero at the end.
pub(crate) fn record_failure(id: &str) {
    with(|g| g.failed.push(id.to_owned()));
}

/// The ids of the benchmarks that failed so far.
pub(crate) fn failures() -> Vec<String> {
    with(|g| g.failed.clone())
}

/// Records a completed benchmark for `--csv` and the run's totals.
pub(crate) fn record_completed(row: crate::tasty_csv::Row) {
    with(|g| g.csv.push(row));
}

/// The `--csv` rows so far.
pub(crate) fn csv_rows() -> Vec<crate::tasty_csv::Row> {
    with(|g| g.csv.clone())
}

/// True the first time `message` is passed in this process: notes about
/// the machine are said once, not per benchmark.
pub(crate) fn first_time(message: &str) -> bool {
    with(|g| g.said.insert(message.to_owned()))
}

/// Records a comparison with a baseline, for the suite-level correction.
pub(crate) fn record_comparison(id: &str, p: f64, flagged: bool) {
    with(|g| g.comparisons.push((id.to_owned(), p, flagged)));
}

/// Every comparison of the run so far.
pub(crate) fn comparisons() -> Vec<(String, f64, bool)> {
    with(|g| g.comparisons.clone())
}

/// True when `key` differs from the last table header's key (nanobench
/// prints a header whenever the columns change).
pub(crate) fn header_changed(key: &str) -> bool {
    with(|g| {
        let changed = g.last_header.as_deref() != Some(key);
        g.last_header = Some(key.to_owned());
        changed
    })
}

/// Records that a benchmark was measured and saved.
pub(crate) fn record_measured() {
    with(|g| g.measured += 1);
}

/// Records that a benchmark measured extra metrics (from `--measure`,
/// `with_metrics` or a group's `metrics`).
pub(crate) fn record_metered() {
    with(|g| g.metered = true);
}

/// Whether any benchmark measured extra metrics.
pub(crate) fn metered() -> bool {
    with(|g| g.metered)
}

/// How many benchmarks were measured and saved.
pub(crate) fn measured_count() -> usize {
    with(|g| g.measured)
}

/// How many benchmarks ran (completed or failed).
pub(crate) fn attempted_count() -> usize {
    with(|g| g.seen.len())
}

/// Starts the run's clock (once).
pub(crate) fn start_clock() {
    with(|g| {
        g.started.get_or_insert_with(std::time::Instant::now);
    });
}

/// Seconds since the run's clock started.
pub(crate) fn elapsed_secs() -> f64 {
    with(|g| g.started.map_or(0.0, |s| s.elapsed().as_secs_f64()))
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

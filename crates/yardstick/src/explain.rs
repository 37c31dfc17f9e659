//! `--explain` and `cargo yardstick explain`: why a benchmark got slower
//! (or faster), told by the instructions that changed.
//!
//! Both sides of a comparison are runnable binaries (the baseline's kept
//! binary and this one), so each runs the benchmark as a worker under
//! `valgrind --tool=callgrind --collect-atstart=no`, and the worker switches
//! Callgrind's collection on around the timed loop only (`crate::counting`,
//! from the timing loops' meter hooks, outside the timed code): setup and
//! `iter_batched`'s inputs are left out as the timing leaves them out. Both
//! run the same number of iterations ([`iterations`]); the profiles are
//! then compared function by function (`diff`) and printed (`render`).
//!
//! It runs after the run's measurements and summary (the `Explain` sink,
//! last of the run's sinks), so it never changes their timing, and nothing
//! it meets fails the run: the verdicts stand.

pub(crate) mod code;
mod count;
mod diff;
pub(crate) mod each;
mod render;
mod sink;

use std::path::{Path, PathBuf};

pub use count::valgrind;
pub(crate) use diff::same as same_count;
pub(crate) use sink::Explain;
pub use yardstick_format::explain::{ExplainFile, ExplainRun, FunctionChange, NotExplained};

/// Native time the counted iterations take on each side: 20 ms, which
/// Callgrind's slowdown (50–100×) makes 1–2 s a side.
const COUNTED_NS: f64 = 20e6;

/// The most iterations counted: past this the per-iteration numbers do
/// not get any steadier, only slower to count.
const MAX_ITERATIONS: u64 = 10_000;

/// Iterations to count on each side for a routine measured at
/// `per_iteration_ns`: about `COUNTED_NS` of native time, at least one,
/// so explaining a routine of up to 1 ms an iteration stays within 30 s.
#[must_use]
pub fn iterations(per_iteration_ns: f64) -> u64 {
    if !per_iteration_ns.is_finite() || per_iteration_ns <= 0.0 {
        return 1;
    }
    ((COUNTED_NS / per_iteration_ns).round() as u64).clamp(1, MAX_ITERATIONS)
}

/// The slowest iteration (native time) counted while `cargo bench` judges
/// a comparison unasked ([`too_slow_to_check`]).
const CHECKED_NS: f64 = 30e6;

/// Why a comparison's instructions are not counted while `cargo bench`
/// judges it, unasked: an iteration slower than [`CHECKED_NS`] takes
/// more than seconds a side under Callgrind, as the count before measuring
/// allows (`each::COUNT_LIMIT`); divan's `fibonacci::recursive/40` (0.9 s)
/// would take minutes. `--explain` and `cargo yardstick explain`, asked
/// for, count whatever it takes.
#[must_use]
pub(crate) fn too_slow_to_check(per_iteration_ns: f64) -> Option<String> {
    (per_iteration_ns > CHECKED_NS).then(|| {
        format!(
            "an iteration takes {} here, too long under Callgrind",
            yardstick_format::units::fixed(per_iteration_ns, 1)
        )
    })
}

/// One benchmark to explain: its id and the two binaries that run it.
#[derive(Debug, Clone)]
pub struct Target {
    /// The benchmark's full id.
    pub id: String,
    /// The baseline's binary.
    pub baseline: PathBuf,
    /// This run's binary.
    pub current: PathBuf,
    /// The measured time per iteration, in nanoseconds: sets the
    /// iterations counted.
    pub per_iteration_ns: f64,
    /// The working directory both run in (`ab` runs a bench binary in its
    /// package's folder, as cargo does); this process's when `None`.
    pub cwd: Option<PathBuf>,
}

impl Target {
    /// Benchmark `id` of a comparison made in this run's home: the
    /// baseline's kept binary `baseline`, held for the run (the retention
    /// rule at its end then leaves it) and refused when planted or
    /// rewritten, as lock-step refuses it; and this run's kept binary, else
    /// this executable. `Err` is one line saying why not.
    ///
    /// # Errors
    ///
    /// The baseline's binary is gone or not to be run, or this executable
    /// cannot be found.
    pub(crate) fn of_comparison(
        home: &Path,
        id: &str,
        baseline: &yardstick_format::binary::BinaryFile,
        this: Option<&yardstick_format::binary::BinaryFile>,
        per_iteration_ns: f64,
    ) -> Result<Target, String> {
        use crate::store::binaries::{hold, path_of, trusted_and_verified};
        let current = match this {
            Some(record) => path_of(home, record),
            None => {
                std::env::current_exe().map_err(|e| format!("cannot find this executable ({e})"))?
            }
        };
        let baseline = path_of(home, baseline);
        if !hold(&baseline) {
            return Err("the baseline's binary is gone (cleaned up)".into());
        }
        trusted_and_verified(&baseline)?;
        Ok(Target {
            id: id.to_owned(),
            baseline,
            current,
            per_iteration_ns,
            cwd: None,
        })
    }
}

/// Counts `target` in both binaries under Callgrind and compares them;
/// `scratch` (made when missing) holds Callgrind's files. `Err` is one line saying why not.
///
/// # Errors
///
/// Valgrind fails to start, a binary lacks the benchmark, the routine
/// panics, or a profile is unreadable.
pub fn explain(target: &Target, scratch: &Path) -> Result<ExplainFile, String> {
    std::fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let iters = iterations(target.per_iteration_ns);
    let side = |exe: &Path, name: &str| {
        count::count(&count::Run {
            exe,
            id: &target.id,
            iters,
            per_iteration_ns: target.per_iteration_ns,
            cwd: target.cwd.as_deref(),
            out: &scratch.join(format!("callgrind.{name}.out")),
        })
        .map_err(|e| format!("{name} side: {e}"))
    };
    let baseline = side(&target.baseline, "baseline")?;
    let current = side(&target.current, "current")?;
    diff::compare(&target.id, iters, &baseline, &current)
}

/// Saves `e` as `dir/explain.json`, beside the profiles it was counted
/// from (a check's count replaces an earlier `--explain`'s, so the file
/// and the profiles always belong together). `Err` is one line.
///
/// # Errors
///
/// The file cannot be written.
pub fn save(e: &ExplainFile, dir: &Path) -> Result<(), String> {
    let json = yardstick_format::json::to_string_pretty(e);
    crate::store::write_atomic(&dir.join("explain.json"), json.as_bytes())
        .map_err(|err| format!("explain.json not saved ({err})"))
}

/// The explanation as printed: a header line and the findings, indented.
#[must_use]
pub fn render(e: &ExplainFile) -> String {
    render::render(e)
}

/// The one line said for a benchmark that could not be explained.
#[must_use]
pub fn not_explained_line(id: &str, reason: &str) -> String {
    format!(
        "explain {}: not explained: {}",
        yardstick_format::names::one_line(id),
        yardstick_format::names::one_line(reason)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_is_not_checked_when_an_iteration_is_too_slow_to_count() {
        // divan's `fibonacci::recursive/40`: minutes under Callgrind.
        assert_eq!(
            too_slow_to_check(0.9e9).as_deref(),
            Some("an iteration takes 900.0 ms here, too long under Callgrind")
        );
        assert_eq!(too_slow_to_check(30e6), None);
        assert_eq!(too_slow_to_check(f64::NAN), None);
    }

    #[test]
    fn about_twenty_ms_of_iterations_at_least_one() {
        // 20 ms / 1 ms = 20; 20 ms / 2 µs = 10 000; 20 ms / 1 µs = 20 000,
        // past the cap.
        assert_eq!(iterations(1e6), 20);
        assert_eq!(iterations(2e3), 10_000);
        assert_eq!(iterations(1e3), MAX_ITERATIONS);
        assert_eq!(iterations(5e9), 1);
        assert_eq!(iterations(f64::NAN), 1);
        assert_eq!(iterations(0.0), 1);
    }
}

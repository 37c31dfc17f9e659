//! Where a finished benchmark goes: every side effect of a run — the saved
//! files, the HTML report, cargo-criterion's messages, the terminal, the
//! `--csv` file — is a [`Sink`], fed plain values by the runner.
//!
//! The pipeline is `Plan → Samples → Analysis → Outcome`; an [`Outcome`]
//! holds everything any output needs, so a sink reads no global state and
//! no file another sink wrote. The run's sinks live in the run-level
//! collector ([`crate::state`]) and are fed in the order of its `standard`:
//! the terminal last, so that its closing lines count every problem the
//! others met, and the files' one flush to disk after every file of the
//! run (the report's index, `--csv`) is written.

use std::time::Duration;

use crate::analysis::Analysis;
use crate::config::BenchmarkConfig;
use crate::engine::RunSettings;
use crate::id::FullId;
use crate::measurement::ValueFormatter;
use crate::metered::MetricResult;
use crate::store::{BenchmarkDir, BenchmarkRecord, SavedSample};

/// A benchmark measured, analysed and judged: what every output sees.
pub(crate) struct Outcome<'a> {
    pub id: &'a FullId,
    pub dir: &'a BenchmarkDir,
    pub config: &'a BenchmarkConfig,
    pub analysis: &'a Analysis,
    pub formatter: &'a dyn ValueFormatter,
    /// The unit values are in for machines (`ns` for time).
    pub unit: &'a str,
    pub metrics: &'a [MetricResult],
    /// The baseline compared with, if any.
    pub baseline: Option<&'a SavedSample>,
    /// The baseline that could not be read, to set aside before saving.
    pub corrupt_baseline: Option<&'a str>,
    /// The machine's drift, when it is the noise threshold.
    pub drift: Option<f64>,
    /// `benchmark.json` and `sample.json` of this run.
    pub record: BenchmarkRecord,
    pub sample: SavedSample,
    /// True when the samples were loaded (`--load-baseline`), not measured:
    /// nothing is saved then.
    pub loaded: bool,
    /// This run's typical time over the baseline's.
    pub ratio: Option<f64>,
    /// Why the benchmark failed a `--fail-if-*` limit, if it did.
    pub failure: Option<String>,
    /// The body looks optimised away.
    pub optimised_away: bool,
    /// Wall time spent on the benchmark.
    pub elapsed: Duration,
    /// Its folder holds another bench target's benchmark: nothing is saved.
    pub not_saved: bool,
    /// The bench binary that measured it, kept in the home (`binary.json`).
    pub binary: Option<yardstick_format::binary::BinaryFile>,
    /// The binary the baseline compared with kept, read before this run
    /// saved over it: `--explain` runs both, `change/binary.json` names it.
    pub baseline_binary: Option<yardstick_format::binary::BinaryFile>,
    /// How this run's build differs from the baseline's
    /// (`yardstick_format::build::compare_line`), when it does: the report
    /// shows it beside the verdict.
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub build_line: Option<String>,
}

/// A group whose benchmarks all finished.
pub(crate) struct GroupEnd<'a> {
    /// The group's id, on one line (as its benchmarks' ids have it).
    pub id: &'a str,
    pub members: &'a [crate::group_summary::Member],
    /// Its benchmarks are compared by id (`compare_by_id`).
    pub compare_by_id: bool,
    /// Its plots use a logarithmic axis.
    pub log_scale: bool,
}

/// An interleaved comparison (`compare_interleaved`) that finished.
pub(crate) struct PairedEnd<'a> {
    pub name: &'a str,
    /// The alternatives' ids, the first the reference.
    pub ids: &'a [String],
    /// Each alternative's time per iteration in each round.
    pub per_round: &'a [Vec<f64>],
    pub results: &'a [crate::PairedResult],
    pub confidence: f64,
}

/// A comparison with a baseline.
#[derive(Debug, Clone)]
pub(crate) struct Comparison {
    pub id: String,
    pub p_value: f64,
    /// Judged a change (improved or regressed) on its own.
    pub flagged: bool,
    /// The mean's relative change: point, lower and upper bound.
    pub mean: [f64; 3],
    /// The half-width of the change's interval when it is too wide to
    /// say anything (see `Analysis::too_noisy`).
    pub too_noisy: Option<f64>,
    /// Judged between processes on both sides (see
    /// `Analysis::change_between_processes`), or in lock-step with the
    /// baseline's binary: an interval that carries run-to-run noise.
    pub between_processes: bool,
}

/// The run as it ends: the collector's totals.
pub(crate) struct RunEnd<'a> {
    /// Ids of the benchmarks (and run-level outputs) that failed so far.
    pub failed: &'a [String],
    /// How many benchmarks were measured and saved.
    pub measured: usize,
    /// How many ran, completed or failed.
    pub attempted: usize,
    /// Seconds since the run started.
    pub seconds: f64,
    /// Every comparison with a baseline, in the order they ran.
    pub comparisons: &'a [Comparison],
    /// The significance level of the suite-level correction.
    pub significance: f64,
    /// Metrics beside time were asked for in the run's last `Criterion`.
    pub metrics_asked: bool,
}

/// One output of a run. Problems a sink meets while writing are said as
/// warnings by the sink itself; `finish` returns the ones that fail the
/// run, one line each, with the name to report them under.
pub(crate) trait Sink: Send {
    fn benchmark(&mut self, run: &RunSettings, o: &Outcome<'_>);

    fn group(&mut self, _run: &RunSettings, _g: &GroupEnd<'_>) {}

    fn paired(&mut self, _run: &RunSettings, _p: &PairedEnd<'_>) {}

    fn finish(&mut self, _run: &RunSettings, _end: &RunEnd<'_>) -> Vec<(String, String)> {
        Vec::new()
    }
}

//! What `--explain` found for one benchmark: the instructions per iteration
//! of the baseline's binary and of this one, counted under Callgrind around
//! the timed loop only, and the functions whose instructions moved.
//! Written to `<id>/explain/explain.json` beside the benchmark's `change/`
//! folder, and printed by `cargo yardstick explain --format json` (a
//! [`ExplainRun`]). Schema: `schemas/explain.v1.json`.

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The relative difference of the totals under which both sides count as
/// executing the same instructions: 0.1 %.
pub const SAME_WITHIN: f64 = 0.001;

/// One benchmark explained.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The benchmark's full id.
    pub id: String,
    /// Iterations run under Callgrind on each side.
    pub iterations: u64,
    /// Instructions per iteration of the baseline's binary.
    pub baseline_instructions: f64,
    /// Instructions per iteration of this binary.
    pub current_instructions: f64,
    /// Whether the totals agree within [`SAME_WITHIN`].
    pub same: bool,
    /// Whether only the timed loop was counted: `false` for `iter_custom`,
    /// whose routine times itself, so its setup is counted too.
    pub separated: bool,
    /// Whether both binaries have debug info (file and line of functions).
    pub debug_info: bool,
    /// The functions whose instructions per iteration moved, largest
    /// self change first.
    pub functions: Vec<FunctionChange>,
}

crate::json_object!(ExplainFile {
    version,
    id,
    iterations,
    baseline_instructions,
    current_instructions,
    same,
    separated,
    debug_info,
    functions,
});

/// One function's instructions per iteration on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionChange {
    /// The function's name, without the symbol hash.
    pub name: String,
    /// Its source file, where debug info says.
    pub file: Option<String>,
    /// Its first line there.
    pub line: Option<u64>,
    /// `both`, `added` (this binary only) or `removed` (baseline only).
    pub presence: String,
    /// Its own instructions per iteration, baseline side.
    pub self_baseline: f64,
    /// Its own instructions per iteration, this side.
    pub self_current: f64,
    /// With the functions it calls, baseline side.
    pub inclusive_baseline: f64,
    /// With the functions it calls, this side.
    pub inclusive_current: f64,
}

crate::json_object!(FunctionChange {
    name,
    file,
    line,
    presence,
    self_baseline,
    self_current,
    inclusive_baseline,
    inclusive_current,
});

impl FunctionChange {
    /// Change of its own instructions per iteration.
    #[must_use]
    pub fn self_change(&self) -> f64 {
        self.self_current - self.self_baseline
    }

    /// Change of its inclusive instructions per iteration.
    #[must_use]
    pub fn inclusive_change(&self) -> f64 {
        self.inclusive_current - self.inclusive_baseline
    }
}

/// The harnesses' timed loops (their functions' names start so): code
/// inlined into one of them is counted as the loop's own.
const TIMED_LOOPS: [&str; 3] = [
    "yardstick::bencher::",
    "yardstick::async_bencher::",
    "yardstick_divan::bencher::",
];

impl ExplainFile {
    /// The change of instructions per iteration, this side minus baseline.
    #[must_use]
    pub fn change(&self) -> f64 {
        self.current_instructions - self.baseline_instructions
    }

    /// The functions whose `change` (their own instructions,
    /// [`FunctionChange::self_change`], or with what they call) moved, the
    /// largest move first, ties by name: the order the terminal and the
    /// report page list them in.
    #[must_use]
    pub fn ranked_by(&self, change: fn(&FunctionChange) -> f64) -> Vec<&FunctionChange> {
        let mut rows: Vec<&FunctionChange> =
            self.functions.iter().filter(|f| change(f) != 0.0).collect();
        rows.sort_by(|p, q| {
            change(q)
                .abs()
                .total_cmp(&change(p).abs())
                .then(p.name.cmp(&q.name))
        });
        rows
    }

    /// The harness's timed loop, when it is the function whose own
    /// instructions moved most: the routine, and what changed, were
    /// inlined into it (Callgrind names the function code runs in after
    /// inlining).
    #[must_use]
    pub fn change_in_timed_loop(&self) -> Option<&FunctionChange> {
        let top = self
            .functions
            .iter()
            .max_by(|p, q| p.self_change().abs().total_cmp(&q.self_change().abs()))?;
        let moved = top.self_change() != 0.0;
        (moved && TIMED_LOOPS.iter().any(|l| top.name.starts_with(l))).then_some(top)
    }
}

/// A benchmark that could not be explained, and why in one line.
#[derive(Debug, Clone, PartialEq)]
pub struct NotExplained {
    /// The benchmark's full id.
    pub id: String,
    /// Why, in one line.
    pub reason: String,
}

crate::json_object!(NotExplained { id, reason });

/// `cargo yardstick explain --format json`: every benchmark asked about.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainRun {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The benchmarks explained.
    pub explained: Vec<ExplainFile>,
    /// Those that could not be, each with its reason.
    pub not_explained: Vec<NotExplained>,
}

crate::json_object!(ExplainRun {
    version,
    explained,
    not_explained
});

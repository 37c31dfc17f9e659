//! `<id>/change/verdict.json`: what a run concluded of its comparison,
//! beside Criterion.rs's `change/estimates.json`, which keeps only the
//! intervals: the p-value, the t statistic, the verdict and, when the
//! change was measured in lock-step with the baseline's binary, how, and
//! the name of the baseline compared with. The report drawn again from the
//! files (`cargo yardstick report`, `cargo yardstick explain`) reads it to
//! say what the run said. Schema: `schemas/change-verdict.v1.json`.

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// Its name in the `change/` folder.
pub const FILE_NAME: &str = "verdict.json";

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The relative change of the mean it goes with (`change/estimates.json`'s
    /// `mean.point_estimate`): a file left by another tool's later run no
    /// longer matches it, and is then not read.
    pub mean: f64,
    /// The comparison's p-value.
    pub p_value: f64,
    /// Its t statistic.
    pub t: f64,
    /// `Regressed`, `Improved`, `NoChange` or `WithinNoise`.
    pub verdict: String,
    /// How the lock-step comparison was measured, when it was.
    pub lockstep: Option<LockstepFile>,
    /// The level `verdict` was judged at, when it holds the run's error
    /// rate across its comparisons (its share of the significance level).
    pub judged_at: Option<f64>,
    /// The verdict of this comparison alone, at the significance level,
    /// when `verdict` holds the run's error rate.
    pub verdict_alone: Option<String>,
    /// The name of the baseline the run compared with (`base`, or the one
    /// `--baseline`/`--save-baseline` named); absent in files written
    /// before it was kept.
    pub baseline: Option<String>,
}

/// A comparison measured in lock-step with the baseline's binary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LockstepFile {
    /// Worker process pairs.
    pub pairs: usize,
    /// Paired rounds.
    pub rounds: usize,
    /// Code layouts of each side the pairs were spread over (pair `k` ran
    /// layout `k % layouts` of both builds); 0 for the builds as linked.
    pub layouts: usize,
    /// What counting both binaries under Callgrind before measuring found,
    /// when they were counted (two different builds, Valgrind at hand).
    pub counted: Option<CountedFile>,
    /// Whether every function of the baseline's build is in this one with
    /// the same bytes, read from both binaries' code and its relocations
    /// (kept by the setup's linker): `true` and nothing was counted, since
    /// no instruction can differ; `None` when not compared (identical
    /// builds, a build without its relocations).
    pub same_code: Option<bool>,
    /// How many of the baseline's functions differ in this build, when at
    /// least half do (other compiler flags, another toolchain): the change
    /// is the whole build's, every benchmark's code changed, and nothing
    /// was counted to single any out.
    pub rewritten: Option<RewrittenFile>,
}

/// Two builds most of whose functions differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RewrittenFile {
    /// The baseline's functions not in this build with the same bytes.
    pub changed: usize,
    /// The baseline's functions.
    pub functions: usize,
}

/// A benchmark's code in the two binaries of a lock-step comparison, as
/// the count before measuring found it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CountedFile {
    /// Instructions per iteration in the baseline's binary.
    pub baseline: f64,
    /// Instructions per iteration in this run's binary.
    pub current: f64,
    /// An instruction it executed differs in its bytes between the two
    /// binaries (false when either was linked without its relocations).
    pub code_changed: bool,
    /// Its rounds ran longer because its code changed (its count or its
    /// bytes): a small change of code needs a smaller standard error.
    pub longer_rounds: bool,
    /// How many times the usual rounds' time it got: 1 when its code did
    /// not change, up to 4 when it did, less when so many of its binary's
    /// benchmarks changed that the binary's run would take too long
    /// (absent in files written before this was kept).
    pub rounds_factor: Option<f64>,
}

crate::json_object!(CountedFile {
    baseline,
    current,
    code_changed,
    longer_rounds,
    rounds_factor (skip)
});

crate::json_object!(RewrittenFile { changed, functions });

crate::json_object!(LockstepFile {
    pairs,
    rounds,
    layouts (default),
    counted (skip),
    same_code (skip),
    rewritten (skip)
});
crate::json_object!(VerdictFile {
    version,
    mean,
    p_value,
    t,
    verdict,
    lockstep (skip),
    judged_at (skip),
    verdict_alone (skip),
    baseline (skip)
});

impl VerdictFile {
    /// Whether the file is of this version and goes with a change whose
    /// mean is `mean`.
    #[must_use]
    pub fn goes_with(&self, mean: f64) -> bool {
        self.version == VERSION && self.mean.to_bits() == mean.to_bits()
    }
}

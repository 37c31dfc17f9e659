//! What `main!` hands the harness about a bench binary: where it comes
//! from, its setup and teardown, and the patterns that find its measured
//! region. The macros name these through `__private`, which re-exports
//! them; the runner and the driver take them from here, below the entry
//! points that `__private` calls.

/// Where a bench binary comes from, captured by `main!` in the user's crate.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    /// `CARGO_PKG_NAME` of the benchmarking package.
    pub package: &'static str,
    /// `CARGO_MANIFEST_DIR` of the benchmarking package.
    pub manifest_dir: &'static str,
    /// `file!()` of the bench file.
    pub file: &'static str,
    /// `module_path!()` of the bench file (the bench target's crate name).
    pub module: &'static str,
    /// The name the package's manifest gives this crate: `iai-callgrind`
    /// after the one-line switch, whose files then go to `target/iai`.
    pub dependency: &'static str,
}

/// The callgrind `--toggle-collect` patterns of library benchmarks:
/// [`measure`](crate::__private::measure) (the Iai form and `library_benchmark!`), and the functions
/// `#[library_benchmark]` renames `__yardstick_callgrind_measured` (no
/// trailing wildcard, so closures inside them do not match).
pub const TOGGLE_PATTERNS: [&str; 2] = [
    "*::__private::__yardstick_callgrind_measure*",
    "*::__yardstick_callgrind_measured",
];

/// `main!`'s `setup` and `teardown`: run once, before the first and after
/// the last benchmark, in the harness process (never under Valgrind).
#[derive(Debug, Clone, Copy, Default)]
pub struct MainHooks {
    /// Runs before the benchmarks.
    pub setup: Option<fn()>,
    /// Runs after the benchmarks.
    pub teardown: Option<fn()>,
}

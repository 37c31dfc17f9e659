//! Support for the code the macros generate. Not part of the public API:
//! anything here may change in any release.

use crate::bench::LibraryBenchmarkGroup;
use crate::binary::BinaryBenchmarkGroup;
use crate::config::LibraryBenchmarkConfig;

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

/// The measured region: the only code whose events are counted.
///
/// Callgrind is started with collection off and
/// `--toggle-collect=*::__private::__yardstick_callgrind_measure*`, so it
/// counts from this function's entry to its return: the call of `f`, and
/// nothing of the harness, setup or teardown. `inline(never)` keeps the
/// function (and its symbol) in the binary.
#[inline(never)]
pub fn __yardstick_callgrind_measure<F: FnOnce() -> R, R>(f: F) -> R {
    f()
}

/// The same measured region under its documented name.
pub use __yardstick_callgrind_measure as measure;

/// The callgrind `--toggle-collect` patterns of library benchmarks:
/// [`measure`] (the Iai form and `library_benchmark!`), and the functions
/// `#[library_benchmark]` renames `__yardstick_callgrind_measured` (no
/// trailing wildcard, so closures inside them do not match).
pub const TOGGLE_PATTERNS: [&str; 2] = [
    "*::__private::__yardstick_callgrind_measure*",
    "*::__yardstick_callgrind_measured",
];

/// A configuration written in iai-callgrind's style (a builder chain ending
/// in `&mut LibraryBenchmarkConfig`) or by value, as a value.
pub fn into_config(config: impl Into<LibraryBenchmarkConfig>) -> LibraryBenchmarkConfig {
    config.into()
}

pub use yardstick_callgrind_macros::__dependency_name;

/// The type name `binary_benchmark_group!` brings into the user's module by
/// a glob import: iai-callgrind's users write `&mut BinaryBenchmarkGroup`
/// without importing it, and those who import it keep their import used
/// (an explicit import shadows a glob one).
pub mod binary_group_type {
    pub use crate::binary::BinaryBenchmarkGroup;
}

/// Calls a function with the elements of a tuple as its arguments.
pub trait Spread<Args, R> {
    /// Calls `self(args.0, args.1, …)`.
    fn spread(self, args: Args) -> R;
}

macro_rules! spread_impl {
    ($($t:ident),*) => {
        impl<F, R, $($t),*> Spread<($($t,)*), R> for F
        where
            F: FnOnce($($t),*) -> R,
        {
            #[allow(non_snake_case)]
            #[inline(always)]
            fn spread(self, ($($t,)*): ($($t,)*)) -> R {
                self($($t),*)
            }
        }
    };
}

spread_impl!();
spread_impl!(A);
spread_impl!(A, B);
spread_impl!(A, B, C);
spread_impl!(A, B, C, D);
spread_impl!(A, B, C, D, E);
spread_impl!(A, B, C, D, E, G);
spread_impl!(A, B, C, D, E, G, H);
spread_impl!(A, B, C, D, E, G, H, I);

/// Calls `f` with the tuple `args` spread into its arguments.
#[inline(always)]
pub fn spread<F: Spread<Args, R>, Args, R>(f: F, args: Args) -> R {
    f.spread(args)
}

/// Joins the stringified arguments for the header (`10, 20`).
pub fn join_args(args: &[&str]) -> String {
    args.join(", ")
}

/// `main!`'s `setup` and `teardown`: run once, before the first and after
/// the last benchmark, in the harness process (never under Valgrind).
#[derive(Debug, Clone, Copy, Default)]
pub struct MainHooks {
    /// Runs before the benchmarks.
    pub setup: Option<fn()>,
    /// Runs after the benchmarks.
    pub teardown: Option<fn()>,
}

/// What `setup = ..` in `main!` may be: a function to call (`my_setup`) or
/// an expression already evaluated (`my_setup()`).
pub trait Hook {
    /// Runs the hook.
    fn run(self);
}

impl<F: FnOnce() -> R, R> Hook for F {
    fn run(self) {
        let _ = self();
    }
}

impl Hook for () {
    fn run(self) {}
}

/// The entry point of a library bench binary (`main!` calls it); exits the
/// process.
pub fn main_library(
    context: Context,
    config: Option<LibraryBenchmarkConfig>,
    groups: Vec<LibraryBenchmarkGroup>,
    hooks: MainHooks,
) -> ! {
    let code = crate::runner::run_library(context, config.unwrap_or_default(), groups, hooks);
    std::process::exit(code)
}

/// The entry point of a binary-benchmark bench binary; exits the process.
pub fn main_binary(
    context: Context,
    config: Option<LibraryBenchmarkConfig>,
    groups: Vec<BinaryBenchmarkGroup>,
    hooks: MainHooks,
) -> ! {
    let code = crate::runner::run_binary(context, config.unwrap_or_default(), groups, hooks);
    std::process::exit(code)
}

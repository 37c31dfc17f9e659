//! Support for the code the macros generate. Not part of the public API:
//! anything here may change in any release.

use crate::bench::LibraryBenchmarkGroup;
use crate::binary::BinaryBenchmarkGroup;
use crate::config::LibraryBenchmarkConfig;
pub use crate::context::{Context, MainHooks, TOGGLE_PATTERNS};

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

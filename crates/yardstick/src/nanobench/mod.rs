//! nanobench's benchmark builder: precise answers in milliseconds, anywhere
//! (tests, examples, `main`), not only under `cargo bench`.
//!
//! ```
//! use yardstick::nanobench::{do_not_optimize_away, Bench};
//!
//! let mut x = 1_u64;
//! let mut bench = Bench::new();
//! bench.run("x * 3", || {
//!     x = do_not_optimize_away(x.wrapping_mul(3));
//! });
//! let result = &bench.results()[0];
//! println!("{:.2} ns/op, err {:.1}%", result.ns_per_unit().unwrap(), result.err().unwrap() * 100.0);
//! ```
//!
//! prints a markdown table (it renders on GitHub); on a machine without
//! hardware counters (a VM, here) a note first says so:
//!
//! ```text
//! Note: hardware counters (instructions, cycles, branches, branch-misses) are not supported on this machine (perf_event_open: ENOENT); the table shows `-` for what cannot be counted.
//!
//! |               ns/op |                op/s |    err% |          ins/op |          cyc/op |    IPC |         bra/op |   miss% |     total | benchmark
//! |--------------------:|--------------------:|--------:|----------------:|----------------:|-------:|---------------:|--------:|----------:|:----------
//! |                0.58 |    1,714,900,164.59 |    0.7% |               - |               - |      - |              - |       - |      0.01 | `x * 3`
//! ```
//!
//! # Overview
//!
//! This is [nanobench](https://nanobench.ankerl.com)'s `Bench` in Rust, with
//! its algorithms and its output:
//!
//! * **Epochs sized from the clock.** The resolution of [`Instant`] is
//!   measured once per process (the smallest of 20 differences between
//!   consecutive distinct readings). An epoch targets 1000 times that,
//!   clamped to [`min_epoch_time`](Bench::min_epoch_time)–
//!   [`max_epoch_time`](Bench::max_epoch_time) (1–100 ms); the iteration
//!   count grows tenfold until an epoch is within a tenth of the target,
//!   then is computed from the time measured, stretched by a random
//!   0–20 %. 11 [`epochs`](Bench::epochs) are measured, so a nanosecond
//!   body answers in about 13 ms.
//! * **err%** is the median absolute percentage error of the epochs' times
//!   per iteration; at 5 % or more the row is flagged `:wavy_dash:` unstable
//!   with a suggested [`min_epoch_iterations`](Bench::min_epoch_iterations).
//! * **`:boom:`**: when the iteration count would overflow, the body took no
//!   time: it was optimised away. Pass what it computes through
//!   [`do_not_optimize_away`] (or return it from the closure).
//! * **Relative** ([`relative`](Bench::relative)): a column with the first
//!   result's time over each one's, in percent; [`Bench::ratio`] gives
//!   tasty-bench's `0.08x`, and [`Bench::check_faster`] /
//!   [`Bench::assert_faster`] / [`Bench::check_within`] make portable
//!   performance tests.
//! * **Big-O** ([`complexity_n`](Bench::complexity_n)): runs at several
//!   problem sizes, fitted by [`Bench::complexity_big_o`], printed as
//!   nanobench's table.
//! * **Counters**: the `ins/op`, `cyc/op`, `IPC`, `bra/op` and `miss%`
//!   columns come from the hardware counters of [`crate::meters`], read
//!   around every epoch; a counter this machine cannot measure shows `-`,
//!   and a note before the first table says why (once per process).
//!
//! All figures are computed by `yardstick-stats` from the epochs kept in
//! each [`BenchResult`].
//!
//! [`Instant`]: std::time::Instant

mod bench;
mod clock;
mod compare;
mod complexity;
mod config;
mod counters;
mod epochs;
#[cfg(feature = "templates")]
mod render;
mod result;
mod rng;
#[cfg(test)]
mod snapshots;
pub(crate) mod table;

pub use self::bench::Bench;
#[cfg(feature = "templates")]
pub use self::render::{templates, RenderError};
pub use self::result::{BenchResult, Counters, Epoch, Ratio};
pub use self::rng::Rng;
pub use crate::complexity::ComplexityFits;
pub use yardstick_stats::complexity::BigO;

/// Keeps the compiler from optimising `value`, or the work that produced
/// it, away: [`std::hint::black_box`] under nanobench's name.
///
/// A benchmark body that computes something nobody reads can be removed
/// by the optimiser, and then the table shows `:boom:` (the iteration
/// count overflowed). Passing the value through this function (or returning
/// it from the closure given to [`Bench::run`]) makes the compiler assume it
/// is used.
///
/// # Example
///
/// ```
/// use yardstick::nanobench::{do_not_optimize_away, Bench};
///
/// let mut x = 1_u64;
/// Bench::new().run("++x", || {
///     do_not_optimize_away(x += 1);
///     do_not_optimize_away(x);
/// });
/// ```
#[inline(always)]
pub fn do_not_optimize_away<T>(value: T) -> T {
    std::hint::black_box(value)
}

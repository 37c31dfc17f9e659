//! yardstick-callgrind: exact, repeatable instruction counts under
//! Valgrind's callgrind, for benchmarks that mean the same on a laptop and on
//! a noisy CI machine.
//!
//! ```no_run
//! use yardstick_callgrind::{black_box, main};
//!
//! fn fibonacci(n: u64) -> u64 {
//!     match n {
//!         0 | 1 => 1,
//!         n => fibonacci(n - 1) + fibonacci(n - 2),
//!     }
//! }
//!
//! fn iai_benchmark_short() -> u64 {
//!     fibonacci(black_box(10))
//! }
//!
//! main!(iai_benchmark_short);
//! ```
//!
//! # Overview
//!
//! A bench file (`harness = false`) declares benchmarks with
//! [`main!`] — in the Iai form (`main!(bench_a, bench_b)`) or with
//! [`#[library_benchmark]`](library_benchmark) and [`library_benchmark_group!`] in
//! iai-callgrind's form, or [`binary_benchmark_group!`] for executables.
//! Run with `cargo bench`, the binary runs each benchmark in a child of
//! itself under `valgrind --tool=callgrind` with collection switched on only
//! inside [`__private::measure`], the one function that calls the
//! benchmark: setup, teardown and the harness are never counted.
//!
//! It prints iai-callgrind's lines (`Instructions: 2804|1733 (+61.8003%)
//! [+1.61800x]`), keeps callgrind's files under
//! `target/yardstick-callgrind` (`target/iai` when the package calls this
//! crate `iai-callgrind`) for `callgrind_annotate`, compares with the
//! previous run or a named baseline, fails on regression limits, runs other
//! Valgrind tools, draws flamegraphs and writes versioned JSON summaries.
//! Run without `--bench` (as `cargo test --benches` does) every benchmark
//! runs once natively, so a machine without Valgrind still tests them.
//! Pass `--help` to a bench binary for its command line.
//!
//! # Crate features
//!
//! - `client_requests` (off by default): Valgrind's client requests in
//!   [`client_requests`], issued in Rust without Valgrind's headers;
//!   `client_requests_defs` gives the same functions doing nothing.
//! - `flamegraph` (off by default): SVG flamegraphs through `inferno`
//!   (`FlamegraphConfig`, `--flamegraph`). Without it a flamegraph request
//!   prints one warning line.
#![warn(missing_docs)]

mod bench;
mod binary;
mod cli;
#[cfg(feature = "client_requests_defs")]
pub mod client_requests;
mod compare;
mod config;
mod drive;
#[cfg_attr(not(feature = "flamegraph"), allow(dead_code))]
mod flamegraph;
mod format;
mod job;
mod macros;
mod measure;
mod metrics;
mod native;
pub mod parser;
mod paths;
mod printer;
mod render;
mod runner;
mod sandbox;
#[cfg(test)]
mod snapshots;
pub mod summary;
mod tools;
mod valgrind;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use bench::{LibraryBenchmark, LibraryBenchmarkGroup};
pub use binary::{Arg, BinaryBenchmarkGroup, ExitWith, Options, Run};
pub use compare::{factor, format_line, percentage, Diff};
pub use config::{
    BinaryBenchmarkConfig, Direction, EnvEntry, Fixtures, FlamegraphConfig, FlamegraphKind,
    LibraryBenchmarkConfig, RegressionConfig, Tool, ValgrindTool,
};
pub use metrics::{EventKind, Metrics, UnknownEventKind};
pub use std::hint::black_box;
pub use yardstick_callgrind_macros::library_benchmark;

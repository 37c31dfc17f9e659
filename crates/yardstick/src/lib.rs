//! yardstick: statistics-driven benchmarking for Rust, a drop-in
//! replacement for Criterion.rs.
//!
//! ```no_run
//! # use yardstick as criterion;
//! use criterion::{black_box, criterion_group, criterion_main, Criterion};
//!
//! fn fibonacci(n: u64) -> u64 {
//!     match n {
//!         0 | 1 => 1,
//!         n => fibonacci(n - 1) + fibonacci(n - 2),
//!     }
//! }
//!
//! fn bench(c: &mut Criterion) {
//!     c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
//! }
//!
//! criterion_group!(benches, bench);
//! criterion_main!(benches);
//! ```
//!
//! # Overview
//!
//! Switch an existing suite by changing one line of `Cargo.toml`:
//!
//! ```toml
//! [dev-dependencies]
//! criterion = { package = "yardstick", version = "0.1" }
//! ```
//!
//! A run warms each benchmark up, takes samples (linear `d, 2d, …, nd`
//! iterations, or flat), bootstraps confidence intervals of the slope, mean,
//! median, standard deviation and MAD (`yardstick-stats`), classifies
//! outliers with Tukey's fences, compares with the saved baseline and writes
//! Criterion.rs's files under `target/criterion`. The command line is
//! Criterion.rs's; run a bench binary with `--help`.
#![warn(missing_docs)]

mod adaptive;
mod analysis;
mod async_bencher;
pub mod async_executor;
mod baseline;
mod bencher;
mod cli;
mod compat;
mod config;
mod criterion;
mod filter;
mod format;
#[doc(hidden)]
pub mod frontend;
mod group;
mod group_summary;
mod id;
mod interleave;
mod limits;
mod macros;
pub mod measurement;
mod metered;
pub mod meters;
pub mod nanobench;
mod output;
mod plan;
pub mod profiler;
mod report;
mod routine;
mod runner;
mod state;
mod store;
mod supervised;
mod tasty_csv;
mod tasty_sampling;
#[doc(hidden)]
pub mod worker;

pub use crate::async_bencher::AsyncBencher;
pub use crate::bencher::Bencher;
pub use crate::compat::{Benchmark, BenchmarkDefinition, Fun, ParameterizedBenchmark};
pub use crate::config::{
    AxisScale, BatchSize, PlotConfiguration, PlottingBackend, SamplingMode, Throughput,
};
pub use crate::criterion::Criterion;
pub use crate::filter::BenchmarkFilter;
pub use crate::group::BenchmarkGroup;
pub use crate::id::{BenchmarkId, IntoBenchmarkId};
pub use crate::interleave::{Comparison, PairedResult};
pub use std::hint::black_box;

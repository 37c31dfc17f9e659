#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

// How a benchmark runs, stage by stage, and which module owns each: the
// workspace README's "How a benchmark runs, and where a change goes". In
// short: cli → plan (plan, adaptive) → Samples (routine, bencher, worker)
// → Analysis (analysis, with yardstick-stats) → Outcome (runner) → the
// sinks (output::sink: store::save, report, output::messages,
// output::terminal_sink, tasty_csv) → the run's tally (state).

mod adaptive;
mod analysis;
mod async_bencher;
pub mod async_executor;
mod baseline;
mod bencher;
mod cli;
mod compat;
mod complexity;
mod config;
mod counting;
mod criterion;
mod engine;
pub mod explain;
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
mod served;
mod state;
mod store;
mod supervised;
mod tasty_csv;
mod tasty_sampling;
mod waiting;
mod walk;
#[doc(hidden)]
pub mod worker;

/// The kept bench binaries' clean-up under the shared locks, for
/// `cargo yardstick binaries` (outside semver).
#[doc(hidden)]
pub use crate::store::binaries::{
    prune as prune_kept_binaries, remove_all as remove_all_kept_binaries,
    trusted_and_verified as kept_binary_checked,
};

pub use crate::analysis::PairedResult;
pub use crate::async_bencher::AsyncBencher;
pub use crate::bencher::Bencher;
pub use crate::compat::{Benchmark, BenchmarkDefinition, Fun, ParameterizedBenchmark};
pub use crate::config::{
    AxisScale, BatchSize, PlotConfiguration, PlottingBackend, SamplingMode, Throughput,
};
pub use crate::criterion::{__walk_in_child, Criterion};
pub use crate::filter::BenchmarkFilter;
pub use crate::group::BenchmarkGroup;
pub use crate::id::{BenchmarkId, IntoBenchmarkId};
pub use crate::interleave::Comparison;
pub use std::hint::black_box;

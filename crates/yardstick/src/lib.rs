#![doc = include_str!("../README.md")]
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

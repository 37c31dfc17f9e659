#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod bench;
#[macro_use]
mod builder;
mod binary;
mod cli;
#[cfg(feature = "client_requests_defs")]
pub mod client_requests;
mod compare;
mod config;
mod context;
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
pub use binary::{Arg, BinaryBenchmarkGroup, Options, Run};
pub use compare::{factor, format_line, percentage, Diff};
pub use config::{
    BinaryBenchmarkConfig, Direction, EnvEntry, ExitWith, Fixtures, FlamegraphConfig,
    FlamegraphKind, LibraryBenchmarkConfig, RegressionConfig, Tool, ValgrindTool,
};
pub use metrics::{EventKind, Metrics, UnknownEventKind};
pub use std::hint::black_box;
pub use yardstick_callgrind_macros::library_benchmark;

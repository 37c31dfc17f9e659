//! Hooks for an external profiler, called around a benchmark in
//! `--profile-time` mode.

use std::path::Path;

/// Starts and stops a profiler around a benchmark run with `--profile-time`.
///
/// `benchmark_dir` is the benchmark's folder under the home directory, where
/// a profiler may write its output.
pub trait Profiler {
    /// Called before the benchmark's iterations start.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
    /// Called after the iterations end.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}

/// The profiler used when none was set: does nothing.
#[derive(Debug, Default)]
pub(crate) struct NoProfiler;

impl Profiler for NoProfiler {
    fn start_profiling(&mut self, _: &str, _: &Path) {}
    fn stop_profiling(&mut self, _: &str, _: &Path) {}
}

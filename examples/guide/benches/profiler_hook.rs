//! Guide chapter "Profiling", sections "Implementing In-Process Profiling
//! Hooks" and "Enabling In-Process Profiling": a `Profiler` installed with
//! `Criterion::with_profiler`.
//!
//! The guide uses an external crate (`my_custom_profiler::MyCustomProfiler`,
//! standing for something like cpuprofiler or pprof). This copy defines
//! `MyCustomProfiler` here instead: it counts start/stop calls, prints them
//! to stderr and writes a small text file into the benchmark's directory,
//! so no external crate or native profiler is needed.
//!
//! The hooks only run in `--profile-time` mode, e.g.
//! `cargo bench --bench profiler_hook -- --profile-time 1`.

use std::fs;
use std::hint::black_box;
use std::path::Path;

use criterion::profiler::Profiler;
use criterion::{criterion_group, criterion_main, Criterion};

/// Counts the start/stop calls it receives and records each profiled run.
#[derive(Default)]
struct MyCustomProfiler {
    started: usize,
    stopped: usize,
}

impl Profiler for MyCustomProfiler {
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path) {
        self.started += 1;
        eprintln!(
            "profiler: start #{} for {benchmark_id} ({})",
            self.started,
            benchmark_dir.display()
        );
    }

    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path) {
        self.stopped += 1;
        eprintln!("profiler: stop #{} for {benchmark_id}", self.stopped);
        // Where a real profiler would write its profile.
        let report = format!(
            "benchmark: {benchmark_id}\nstarts: {}\nstops: {}\n",
            self.started, self.stopped
        );
        let written = fs::create_dir_all(benchmark_dir)
            .and_then(|()| fs::write(benchmark_dir.join("profile.txt"), report));
        if let Err(e) = written {
            eprintln!(
                "profiler: could not write {}: {e}",
                benchmark_dir.join("profile.txt").display()
            );
        }
    }
}

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn fibonacci_profiled(criterion: &mut Criterion) {
    // Use the criterion struct as normal here.
    // (The guide elides the body.)
    criterion.bench_function("fib 15 profiled", |b| b.iter(|| fibonacci(black_box(15))));
}

fn profiled() -> Criterion {
    // The guide writes `with_profiler(MyCustomProfiler)` for its unit struct;
    // this one has counters.
    Criterion::default().with_profiler(MyCustomProfiler::default())
}

criterion_group! {
    name = benches;
    config = profiled();
    targets = fibonacci_profiled
}
// The guide's snippet stops at the group; a bench file also needs this.
criterion_main!(benches);

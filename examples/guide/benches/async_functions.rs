//! Guide chapter "Benchmarking async functions": `Bencher::to_async` with the
//! `futures` crate's executor (`criterion::async_executor::FuturesExecutor`).
//!
//! Needs Criterion.rs' `async_futures` feature, so this bench is built only
//! with this crate's `async` feature:
//! `cargo bench -p yardstick-guide-examples --features async --bench async_functions`.

use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::{criterion_group, criterion_main};

// This is a struct that tells Criterion.rs to use the "futures" crate's current-thread executor
use criterion::async_executor::FuturesExecutor;

// Here we have an async function to benchmark
async fn do_something(size: usize) {
    // Do something async with the size
    // (Filled in: sum 0..size, each term through black_box: a plain sum
    // is folded into n(n-1)/2, about a nanosecond, which yardstick warns
    // is an optimised-away body.)
    std::hint::black_box((0..size).map(std::hint::black_box).sum::<usize>());
}

fn from_elem(c: &mut Criterion) {
    let size: usize = 1024;

    // Renamed from the guide's id, which another file of the guide uses too:
    // ids must be unique across a suite's bench targets (they share one
    // results folder per id).
    c.bench_with_input(
        BenchmarkId::new("input_example_async", size),
        &size,
        |b, &s| {
            // Insert a call to `to_async` to convert the bencher to async mode.
            // The timing loops are the same as with the normal bencher.
            b.to_async(FuturesExecutor).iter(|| do_something(s));
        },
    );
}

criterion_group!(benches, from_elem);
criterion_main!(benches);

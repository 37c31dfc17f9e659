//! What `to_async` costs over `iter`: the same trivial body timed
//! synchronously and as a future on each executor. The async loops run all
//! of a sample's iterations inside one `block_on`, so the difference is the
//! cost of creating, polling and awaiting one ready future per iteration.
//!
//! `cargo bench -p yardstick --bench async_overhead --features
//! async_futures,async_smol,async_std,async_tokio` prints the figures.

use std::hint::black_box;

use yardstick::async_executor::{AsyncStdExecutor, FuturesExecutor, SmolExecutor};
use yardstick::{criterion_group, criterion_main, Criterion};

fn overhead(c: &mut Criterion) {
    let mut g = c.benchmark_group("to_async");
    g.bench_function("iter", |b| b.iter(|| black_box(7u64)));
    g.bench_function("futures", |b| {
        b.to_async(FuturesExecutor)
            .iter(|| async { black_box(7u64) });
    });
    g.bench_function("smol", |b| {
        b.to_async(SmolExecutor).iter(|| async { black_box(7u64) });
    });
    g.bench_function("async_std", |b| {
        b.to_async(AsyncStdExecutor)
            .iter(|| async { black_box(7u64) });
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    g.bench_function("tokio", |b| {
        b.to_async(&rt).iter(|| async { black_box(7u64) });
    });
    g.finish();
}

criterion_group!(benches, overhead);
criterion_main!(benches);

//! Guide chapter "Migrating from libtest": the complete migrated benchmark.

// Criterion.rs 0.6 and later deprecate `criterion::black_box` in favour of
// `std::hint::black_box`; the guide still uses it.
#![allow(deprecated)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn bench_fib(c: &mut Criterion) {
    // Renamed from the guide's id, which another file of the guide uses too:
    // ids must be unique across a suite's bench targets (they share one
    // results folder per id).
    c.bench_function("fib 20 (migrated)", |b| b.iter(|| fibonacci(black_box(20))));
}

criterion_group!(benches, bench_fib);
criterion_main!(benches);

//! Guide chapter "Getting Started", Step 2 - Add Benchmark: the benchmark
//! file exactly as the guide shows it. `mycrate` is this crate's library
//! (`src/lib.rs`).

// Criterion.rs 0.6 and later deprecate `criterion::black_box` in favour of
// `std::hint::black_box`; the guide (and many published suites) still use it.
#![allow(deprecated)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mycrate::fibonacci;

pub fn criterion_benchmark(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
}

criterion_group!(benches, criterion_benchmark);
criterion_main!(benches);

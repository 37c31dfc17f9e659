//! Guide chapter "Advanced Configuration": changing the defaults with the full
//! form of `criterion_group!` (`name = ...; config = ...; targets = ...`).

// Kept as the guide writes it: `b.iter(|| my_function())`.
#![allow(clippy::redundant_closure)]

use criterion::*;

// The guide elides the body (`fn my_function() { ... }`).
fn my_function() {
    // 20! is the largest factorial that fits in a u64.
    std::hint::black_box((1..=std::hint::black_box(20u64)).product::<u64>());
}

fn bench(c: &mut Criterion) {
    // Renamed from the guide's id, which another file of the guide uses too:
    // ids must be unique across a suite's bench targets (they share one
    // results folder per id).
    let mut group = c.benchmark_group("sample-size-example-macro");
    // The guide's line lacks a closing parenthesis; added.
    group.bench_function("my-function", |b| b.iter(|| my_function()));
    group.finish();
}

criterion_group! {
    name = benches;
    // This can be any expression that returns a `Criterion` object.
    config = Criterion::default().significance_level(0.1).sample_size(500);
    targets = bench
}
criterion_main!(benches);

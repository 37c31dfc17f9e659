//! Guide chapter "Frequently Asked Questions", "How Should I Benchmark Small
//! Functions?": an unlooped and a manually looped benchmark of `i + 10`, with
//! `criterion::black_box` inside the loop.

// Criterion.rs 0.6 and later deprecate `criterion::black_box` in favour of
// `std::hint::black_box`; the guide still uses it.
#![allow(deprecated)]

use criterion::{criterion_group, criterion_main, Criterion};

fn compare_small(c: &mut Criterion) {
    use criterion::black_box;

    let mut group = c.benchmark_group("small");
    // Fixed: the guide passes `10`; `bench_with_input` takes the input by
    // reference.
    group.bench_with_input("unlooped", &10, |b, i| b.iter(|| i + 10));
    group.bench_with_input("looped", &10, |b, i| {
        b.iter(|| {
            for _ in 0..10000 {
                black_box(i + 10);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, compare_small);
criterion_main!(benches);

//! Guide chapter "Benchmarking With Inputs", section "Benchmarking With One
//! Input".

use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::{criterion_group, criterion_main};

fn do_something(size: usize) {
    // Do something with the size
    // (Filled in so the benchmark measures something: sum 0..size, each term
    // through black_box: a plain sum is folded into n(n-1)/2, about a
    // nanosecond, which yardstick warns is an optimised-away body.)
    std::hint::black_box((0..size).map(std::hint::black_box).sum::<usize>());
}

fn from_elem(c: &mut Criterion) {
    let size: usize = 1024;

    c.bench_with_input(BenchmarkId::new("input_example", size), &size, |b, &s| {
        b.iter(|| do_something(s));
    });
}

criterion_group!(benches, from_elem);
criterion_main!(benches);

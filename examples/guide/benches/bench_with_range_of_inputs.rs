//! Guide chapter "Benchmarking With Inputs", section "Benchmarking With A
//! Range Of Values" (a group, `BenchmarkId::from_parameter` and
//! `Throughput::Bytes`).

// Kept as the guide writes it: `iter::repeat(0u8).take(size)`.
#![allow(clippy::manual_repeat_n)]

use std::iter;

use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::Throughput;
// The guide's snippet omits this import although it uses both macros.
use criterion::{criterion_group, criterion_main};

fn from_elem(c: &mut Criterion) {
    static KB: usize = 1024;

    let mut group = c.benchmark_group("from_elem");
    for size in [KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB].iter() {
        group.throughput(Throughput::Bytes(*size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), size, |b, &size| {
            b.iter(|| iter::repeat(0u8).take(size).collect::<Vec<_>>());
        });
    }
    group.finish();
}

criterion_group!(benches, from_elem);
criterion_main!(benches);

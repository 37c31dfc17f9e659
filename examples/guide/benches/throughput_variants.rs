//! Not in the guide: the `Throughput` variants added after it was written,
//! which newer published suites use. `Throughput::ElementsAndBytes` arrived in
//! Criterion.rs 0.6; `Throughput::BytesDecimal` and `Throughput::Bits` are
//! also missing from the guide's "Throughput Measurements" section.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn sum(values: &[u32]) -> u64 {
    values.iter().map(|&v| u64::from(v)).sum()
}

fn count_ones(bytes: &[u8]) -> u32 {
    bytes.iter().map(|b| b.count_ones()).sum()
}

fn throughput_variants(c: &mut Criterion) {
    let mut group = c.benchmark_group("throughput-variants");

    for len in [64usize, 1024] {
        let values: Vec<u32> = (0..len as u32).collect();
        group.throughput(Throughput::ElementsAndBytes {
            elements: len as u64,
            bytes: (len * std::mem::size_of::<u32>()) as u64,
        });
        group.bench_with_input(BenchmarkId::new("sum", len), &values, |b, values| {
            b.iter(|| sum(black_box(values)))
        });
    }

    let bytes = vec![0xA5u8; 4096];

    group.throughput(Throughput::BytesDecimal(bytes.len() as u64));
    group.bench_function("count_ones/bytes-decimal", |b| {
        b.iter(|| count_ones(black_box(&bytes)))
    });

    group.throughput(Throughput::Bits(8 * bytes.len() as u64));
    group.bench_function("count_ones/bits", |b| {
        b.iter(|| count_ones(black_box(&bytes)))
    });

    group.finish();
}

criterion_group!(benches, throughput_variants);
criterion_main!(benches);

//! Guide chapter "Advanced Configuration", section "Throughput Measurements":
//! `Throughput::Bytes` on a group.

use criterion::*;

fn decode(bytes: &[u8]) {
    // Decode the bytes
    // (Filled in: a checksum over the bytes stands in for decoding.)
    std::hint::black_box(
        bytes
            .iter()
            .fold(0u32, |acc, &b| acc.rotate_left(5) ^ u32::from(b)),
    );
}

fn bench(c: &mut Criterion) {
    // The guide elides the input (`let bytes : &[u8] = ...;`).
    let bytes: &[u8] = &[0x5a; 4096];

    let mut group = c.benchmark_group("throughput-example");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    // The guide's line lacks a closing parenthesis; added.
    group.bench_function("decode", |b| b.iter(|| decode(bytes)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Guide chapter "Advanced Configuration", section "Sampling Mode":
//! `SamplingMode::Flat` on a group.

// Kept as the guide writes it: `b.iter(|| my_function())`.
#![allow(clippy::redundant_closure)]

use criterion::*;
use std::time::Duration;

fn my_function() {
    // The guide sleeps for 10 ms to stand for a long-running benchmark; this
    // copy sleeps for 10 µs so that running every guide example stays quick.
    ::std::thread::sleep(Duration::from_micros(10))
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("flat-sampling-example");
    group.sampling_mode(SamplingMode::Flat);
    // The guide's line lacks a closing parenthesis; added.
    group.bench_function("my-function", |b| b.iter(|| my_function()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! The workloads of the side-by-side comparison, written against the
//! Criterion.rs API only. The same file is compiled by `criterion-side`
//! (Criterion.rs 0.8) and `yardstick-side` (yardstick renamed to `criterion`).
//! The bodies live in `bodies.rs`, which the plain reference loop
//! (`reference/src/main.rs`) times too.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;

#[allow(dead_code)]
mod bodies;

fn workloads(c: &mut Criterion) {
    c.bench_function("empty", |b| b.iter(|| {}));
    c.bench_function("ns_op", |b| b.iter(|| bodies::ns_op(black_box(12345))));
    c.bench_function("us_loop", |b| b.iter(|| bodies::us_loop(black_box(12345))));
    let mut shuffler = bodies::Shuffler::new();
    c.bench_function("sort_setup", |b| {
        b.iter_batched(
            || shuffler.next_input(),
            bodies::sort,
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, workloads);
criterion_main!(benches);

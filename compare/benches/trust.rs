//! The trust experiment's cross-run benchmark (`compare/trust/run.py`),
//! written against the Criterion.rs API only, so that `criterion-side`
//! (Criterion.rs 0.8) and `yardstick-side` compile the same file. One
//! benchmark, `trust`, whose cost is scaled by `TRUST_FACTOR` (see
//! `trust_body.rs`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

mod trust_body;

fn trust(c: &mut Criterion) {
    let steps = trust_body::steps(trust_body::factor("TRUST_FACTOR"));
    c.bench_function("trust", |b| b.iter(|| trust_body::work(black_box(12345), steps)));
}

criterion_group!(benches, trust);
criterion_main!(benches);

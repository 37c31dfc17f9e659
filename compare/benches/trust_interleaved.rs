//! The trust experiment's interleaved benchmark (`compare/trust/run.py`):
//! yardstick only (`compare_interleaved` has no Criterion.rs counterpart),
//! so only `yardstick-side` builds it. Alternative `a` runs the body at
//! factor 1; `b` at `TRUST_FACTOR` (see `trust_body.rs`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

mod trust_body;

fn trust(c: &mut Criterion) {
    let a = trust_body::steps(1.0);
    let b = trust_body::steps(trust_body::factor("TRUST_FACTOR"));
    c.compare_interleaved("trust")
        .alternative("a", |bn| bn.iter(|| trust_body::work(black_box(12345), a)))
        .alternative("b", |bn| bn.iter(|| trust_body::work(black_box(12345), b)))
        .run();
}

criterion_group!(benches, trust);
criterion_main!(benches);

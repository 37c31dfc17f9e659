//! A bench binary with a hand-written `main` that builds its input data
//! (`FIXTURE_MAIN_MB`, default 80) before calling yardstick, so the data
//! outlives every benchmark: the end-to-end tests of the walk before `main`
//! (`crates/yardstick/src/walk.rs`).

use criterion::{black_box, Criterion};

fn main() {
    let mb: usize = std::env::var("FIXTURE_MAIN_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    // Filled by memset, resident (see the fixture's `make`).
    let data: Vec<u8> = vec![1u8; mb << 20];
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("main/setup", |b| {
        yardstick_tests::record_parent_memory();
        b.iter(|| black_box(data.len()) + usize::from(black_box(data[0])))
    });
    c.bench_function("main/steady", |b| {
        b.iter(|| black_box(3u64).wrapping_mul(black_box(5)))
    });
    c.final_summary();
}

//! Guide chapter "Custom Test Framework", translated to stable Rust.
//!
//! The guide's version needs a nightly compiler
//! (`#![feature(custom_test_frameworks)]`, `#![test_runner(criterion::runner)]`)
//! and the `criterion-macro` crate's `#[criterion]` attribute. This copy keeps
//! its functions unchanged and replaces the attributes with what they stand
//! for: `#[criterion]` becomes the short form of `criterion_group!`, and
//! `#[criterion(custom_criterion())]` becomes the full form with
//! `config = custom_criterion()`. Two groups then run from one
//! `criterion_main!`.

// Criterion.rs 0.6 and later deprecate `criterion::black_box` in favour of
// `std::hint::black_box`; the guide still uses it.
#![allow(deprecated)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn custom_criterion() -> Criterion {
    Criterion::default().sample_size(50)
}

// #[criterion]
fn bench_simple(c: &mut Criterion) {
    c.bench_function("Fibonacci-Simple", |b| b.iter(|| fibonacci(black_box(10))));
}

// #[criterion(custom_criterion())]
fn bench_custom(c: &mut Criterion) {
    c.bench_function("Fibonacci-Custom", |b| b.iter(|| fibonacci(black_box(20))));
}

criterion_group!(simple, bench_simple);
criterion_group! {
    name = custom;
    config = custom_criterion();
    targets = bench_custom
}
criterion_main!(simple, custom);

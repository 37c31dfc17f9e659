//! Not a guide listing: the 0.2/0.3-era API that the guide's "Migrating from
//! 0.2.* to 0.3.*" chapter deprecates (`Benchmark`, `ParameterizedBenchmark`,
//! `Fun`, `Criterion::bench`, `Criterion::bench_function_over_inputs`,
//! `Criterion::bench_functions`) and the deprecated timing loops of "Timing
//! Loops" (`iter_with_setup`, `iter_with_large_setup`). Many published suites
//! still use them; they compile against Criterion.rs 0.3 (removed in 0.4).

// Everything below is deprecated in Criterion.rs 0.3.4 and later; using it is
// the point of this file.
#![allow(deprecated)]

use std::time::Duration;

use criterion::{
    black_box, criterion_group, criterion_main, Benchmark, Criterion, Fun, ParameterizedBenchmark,
    Throughput,
};

fn fibonacci_slow(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci_slow(n - 1) + fibonacci_slow(n - 2),
    }
}

fn fibonacci_fast(n: u64) -> u64 {
    let mut a = 0;
    let mut b = 1;

    match n {
        0 => b,
        _ => {
            for _ in 0..n {
                let c = a + b;
                a = b;
                b = c;
            }
            b
        }
    }
}

fn legacy_benchmark(c: &mut Criterion) {
    // `Benchmark`: several functions under one group id, with settings and a
    // throughput on the benchmark itself.
    c.bench(
        "legacy_benchmark",
        Benchmark::new("Recursive", |b| b.iter(|| fibonacci_slow(black_box(15))))
            .with_function("Iterative", |b| b.iter(|| fibonacci_fast(black_box(15))))
            .sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .throughput(Throughput::Elements(1)),
    );
}

fn legacy_parameterized(c: &mut Criterion) {
    // `ParameterizedBenchmark`: functions over a list of inputs, with the
    // throughput computed from each input.
    c.bench(
        "legacy_parameterized",
        ParameterizedBenchmark::new(
            "Recursive",
            |b, i| b.iter(|| fibonacci_slow(*i)),
            vec![10u64, 15],
        )
        .with_function("Iterative", |b, i| b.iter(|| fibonacci_fast(*i)))
        .throughput(|i| Throughput::Elements(*i)),
    );
}

fn legacy_over_inputs(c: &mut Criterion) {
    // `bench_function_over_inputs`: one function over a list of inputs.
    c.bench_function_over_inputs(
        "legacy_over_inputs",
        |b, &size| b.iter(|| vec![0u8; size]),
        vec![16usize, 256, 4096],
    );
}

fn legacy_functions(c: &mut Criterion) {
    // `Fun` + `bench_functions`: several functions on one input.
    let recursive = Fun::new("Recursive", |b, i: &u64| b.iter(|| fibonacci_slow(*i)));
    let iterative = Fun::new("Iterative", |b, i: &u64| b.iter(|| fibonacci_fast(*i)));
    c.bench_functions("legacy_functions", vec![recursive, iterative], 15);
}

fn legacy_timing_loops(c: &mut Criterion) {
    // `iter_with_setup` is `iter_batched` with `PerIteration`;
    // `iter_with_large_setup` is `iter_batched` with `NumBatches(1)`.
    c.bench_function("legacy_iter_with_setup", |b| {
        b.iter_with_setup(|| (0..64u32).rev().collect::<Vec<_>>(), |mut v| v.sort())
    });
    c.bench_function("legacy_iter_with_large_setup", |b| {
        b.iter_with_large_setup(|| (0..64u32).rev().collect::<Vec<_>>(), |mut v| v.sort())
    });
}

criterion_group!(
    benches,
    legacy_benchmark,
    legacy_parameterized,
    legacy_over_inputs,
    legacy_functions,
    legacy_timing_loops
);
criterion_main!(benches);

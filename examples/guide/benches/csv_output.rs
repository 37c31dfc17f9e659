//! Guide chapter "CSV Output": the benchmark the chapter's `raw.csv` sample
//! was taken with (string ids passed to `BenchmarkGroup::bench_with_input`).
//!
//! The guide shows only the function; the Fibonacci functions come from
//! "Comparing Functions", and the imports and macros are added.

use criterion::{criterion_group, criterion_main, Criterion};

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

fn compare_fibonaccis(c: &mut Criterion) {
    let mut group = c.benchmark_group("Fibonacci");

    // Fixed: the guide passes `20`; `bench_with_input` takes the input by
    // reference.
    group.bench_with_input("Recursive", &20, |b, i| b.iter(|| fibonacci_slow(*i)));
    group.bench_with_input("Iterative", &20, |b, i| b.iter(|| fibonacci_fast(*i)));
    group.finish();
}

criterion_group!(benches, compare_fibonaccis);
criterion_main!(benches);

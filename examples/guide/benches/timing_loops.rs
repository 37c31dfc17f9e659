//! Guide chapter "Timing Loops": one benchmark per timing loop of `Bencher`
//! (`iter`, `iter_with_large_drop`, `iter_batched` with every `BatchSize`,
//! `iter_batched_ref`, `iter_custom`), plus the deprecated `iter_with_setup`.
//!
//! The chapter describes the loops without code; these benchmarks follow its
//! descriptions (sorting unsorted data for the batched loops, measuring
//! `Duration`s by hand for `iter_custom`). The last benchmark is the FAQ's
//! "How can I benchmark a part of a function?" answer: `iter_custom` timing
//! only part of the routine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

fn unsorted(len: usize) -> Vec<u64> {
    // A fixed pseudo-random permutation-ish sequence (no RNG crate needed).
    (0..len as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40)
        .collect()
}

fn timing_loops(c: &mut Criterion) {
    let data = unsorted(256);

    // `iter`: the default loop; the input is only read, so one value is
    // shared by all iterations.
    c.bench_function("iter", |b| b.iter(|| data.iter().sum::<u64>()));

    // `iter_with_large_drop`: the returned `Vec` is dropped after timing.
    c.bench_function("iter_with_large_drop", |b| {
        b.iter_with_large_drop(|| data.clone())
    });

    // `iter_batched`: the setup (cloning unsorted data) is not timed.
    let mut group = c.benchmark_group("iter_batched");
    for (name, size) in [
        ("SmallInput", BatchSize::SmallInput),
        ("LargeInput", BatchSize::LargeInput),
        ("PerIteration", BatchSize::PerIteration),
        ("NumBatches(10)", BatchSize::NumBatches(10)),
        ("NumIterations(100)", BatchSize::NumIterations(100)),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || data.clone(),
                |mut v| {
                    v.sort_unstable();
                    v
                },
                size,
            )
        });
    }
    group.finish();

    // `iter_batched_ref`: the routine gets `&mut T`, so nothing is returned
    // and the input is dropped outside the timed section.
    c.bench_function("iter_batched_ref", |b| {
        b.iter_batched_ref(
            || data.clone(),
            |v| v.sort_unstable(),
            BatchSize::SmallInput,
        )
    });

    // `iter_custom`: the closure gets the iteration count and returns the
    // measured value (a `Duration` for the default `WallTime`).
    c.bench_function("iter_custom", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(data.iter().max());
            }
            start.elapsed()
        })
    });

    // Deprecated loop from the chapter's last section, still accepted by
    // Criterion.rs: equivalent to `iter_batched` with `PerIteration`.
    c.bench_function("iter_with_setup", |b| {
        b.iter_with_setup(|| data.clone(), |mut v| v.sort_unstable())
    });

    // FAQ "How can I benchmark a part of a function?": time only the sort,
    // not the clone before it nor the check after it.
    c.bench_function("iter_custom/part-of-a-function", |b| {
        b.iter_custom(|iters| {
            let mut measured = Duration::ZERO;
            for _ in 0..iters {
                let mut v = data.clone();
                let start = Instant::now();
                v.sort_unstable();
                measured += start.elapsed();
                assert!(v.windows(2).all(|w| w[0] <= w[1]));
            }
            measured
        })
    });
}

criterion_group!(benches, timing_loops);
criterion_main!(benches);

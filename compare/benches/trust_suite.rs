//! The trust experiment's suite (`compare/trust/default_flow.py`): 24
//! benchmarks of several kinds and sizes (dependent arithmetic, sorting,
//! hashing, memory copies, calls), one of which, `target`, has its cost
//! scaled by the build's factor. Written against the Criterion.rs API only,
//! so that `criterion-side` and `yardstick-side` compile the same file.
//!
//! The factor is compiled into the build: the script appends
//! `\nTRUST_FACTOR=<f>` to a copy of the binary (see `trust_body::factor`),
//! so the bytes of the two builds differ and only one side carries it,
//! while the code itself stays byte-identical (code layout is a separate
//! question: issue 30's A/A').

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

mod trust_body;

fn fib(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn suite(c: &mut Criterion) {
    let steps = trust_body::steps(trust_body::factor("TRUST_FACTOR"));
    c.bench_function("target", |b| b.iter(|| trust_body::work(black_box(12345), steps)));
    for (i, n) in [250u64, 500, 1000, 2000, 4000, 8000].iter().enumerate() {
        c.bench_function(&format!("steps/{n}"), |b| {
            b.iter(|| trust_body::work(black_box(i as u64), black_box(*n)))
        });
    }
    for n in [12u64, 16, 20] {
        c.bench_function(&format!("fib/{n}"), |b| b.iter(|| fib(black_box(n))));
    }
    for n in [64usize, 1024, 16384] {
        let data: Vec<u64> = (0..n as u64).map(|x| x.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        c.bench_function(&format!("sort/{n}"), |b| {
            b.iter_batched_ref(
                || data.clone(),
                |v| v.sort_unstable(),
                criterion::BatchSize::SmallInput,
            )
        });
    }
    for n in [256usize, 4096, 65536] {
        let bytes: Vec<u8> = (0..n).map(|x| x as u8).collect();
        c.bench_function(&format!("hash/{n}"), |b| b.iter(|| hash(black_box(&bytes))));
    }
    for n in [1024usize, 65536, 1 << 20] {
        let from = vec![7u8; n];
        let mut to = vec![0u8; n];
        c.bench_function(&format!("copy/{n}"), |b| {
            b.iter(|| to.copy_from_slice(black_box(&from)))
        });
    }
    for n in [16usize, 256, 4096] {
        c.bench_function(&format!("vec_push/{n}"), |b| {
            b.iter(|| (0..n).map(black_box).collect::<Vec<usize>>())
        });
    }
    c.bench_function("string/format", |b| {
        b.iter(|| format!("{}-{}", black_box(12345), black_box("x")))
    });
    c.bench_function("btree/insert_100", |b| {
        b.iter(|| {
            let mut m = std::collections::BTreeMap::new();
            for i in 0..100u64 {
                m.insert(black_box(i.wrapping_mul(2654435761) % 1000), i);
            }
            m
        })
    });
}

criterion_group!(benches, suite);
criterion_main!(benches);

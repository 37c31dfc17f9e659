//! A bench binary of routines a careless user writes: a clock that ignores
//! the iteration count, a clock coarser than the routine, odd ids. The
//! hostile-input tests (`tests/hostile.rs`) run it; each benchmark is picked
//! with a filter.

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn work() -> u64 {
    (0..100u64).map(black_box).sum()
}

fn benches(c: &mut Criterion) {
    // The common mistake: timing one call whatever `iters` asks for.
    c.bench_function("clock/ignores-iters", |b| {
        b.iter_custom(|_iters| {
            let t = Instant::now();
            black_box(work());
            t.elapsed()
        })
    });
    // A clock that ticks every 25 ms: almost every sample measures zero.
    let mut calls = 0u64;
    c.bench_function("clock/coarse", |b| {
        b.iter_custom(|iters| {
            calls += 1;
            for _ in 0..iters {
                black_box(work());
            }
            if calls % 4 == 0 {
                Duration::from_millis(25)
            } else {
                Duration::ZERO
            }
        })
    });
    if std::env::var_os("HOSTILE_EMPTY_ID").is_some() {
        c.bench_function("", |b| b.iter(work));
    }
    if std::env::var_os("HOSTILE_CONTROL_IDS").is_some() {
        // A NUL byte and line breaks, which no file name or terminal line
        // may carry raw.
        c.bench_function("nul\0byte", |b| b.iter(work));
        c.bench_function("two\nlines\r", |b| b.iter(work));
        // A terminal's escapes: clear the screen, retitle the window, ring
        // the bell; in an id and in a panic message.
        c.bench_function("esc\u{1b}[2J\u{1b}]0;title\u{7}", |b| b.iter(work));
        c.bench_function("panics", |b| {
            b.iter(|| panic!("bell\u{7} and clear\u{1b}[2J\u{1b}[H"))
        });
    }
    if std::env::var_os("HOSTILE_CLASH").is_some() {
        // A lone benchmark and a group of the same name.
        c.bench_function("clash", |b| b.iter(work));
        let mut g = c.benchmark_group("clash");
        g.bench_function("f", |b| b.iter(work));
        g.finish();
    }
    let mut g = c.benchmark_group("ids");
    // The two ids of the campaign whose 32-bit folder hashes collide.
    for id in ["x??\"^\"*:", "x??/\"\\<?"] {
        g.bench_function(id, |b| b.iter(work));
    }
    g.finish();
}

criterion_group!(hostile, benches);
criterion_main!(hostile);

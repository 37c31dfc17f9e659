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
    if let Ok(factor) = std::env::var("HOSTILE_QUICK_FACTOR") {
        // 100 ns per iteration times the factor, by a fake clock that
        // alternates ±1 % (two agreeing timings, as `--quick` keeps).
        let factor: f64 = factor.parse().unwrap_or(1.0);
        let mut calls = 0u64;
        c.bench_function("quick/scaled", |b| {
            b.iter_custom(|iters| {
                calls += 1;
                for _ in 0..iters {
                    black_box(work());
                }
                let jitter = if calls % 2 == 0 { 1.01 } else { 0.99 };
                Duration::from_nanos((iters as f64 * 100.0 * factor * jitter) as u64)
            })
        });
    }
    if std::env::var_os("HOSTILE_KINDS").is_some() {
        // Mostly asleep: its CPU time is a small part of its wall time.
        c.bench_function("kinds/sleeps", |b| {
            b.iter(|| std::thread::sleep(Duration::from_micros(200)))
        });
    }
    if std::env::var_os("HOSTILE_NESTED").is_some() {
        // A lone benchmark and a group of the same name whose members are
        // named as the lone one's folders.
        c.bench_function("nest", |b| b.iter(work));
        let mut g = c.benchmark_group("nest");
        g.bench_function("base", |b| b.iter(work));
        g.bench_function("new", |b| b.iter(work));
        g.bench_function("f", |b| b.iter(work));
        g.finish();
    }
    if std::env::var_os("HOSTILE_LONG_ID").is_some() {
        // An id past Criterion.rs's 100-byte title, cut inside a two-byte
        // character.
        let mut g = c.benchmark_group("long");
        g.bench_function(format!("{}é{}", "x".repeat(94), "y".repeat(50)), |b| {
            b.iter(work)
        });
        g.finish();
    }
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
    if std::env::var_os("HOSTILE_WORKER").is_some() {
        worker_abuse(c);
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

/// Routines that misuse the worker process's standard streams or end it.
/// Each misbehaves in a worker only (`--processes 1` measures it in the
/// parent, whose streams the test reads).
fn worker_abuse(c: &mut Criterion) {
    use std::io::{BufRead, Write};
    let in_worker = std::env::var_os("YARDSTICK_WORKER").is_some_and(|v| v == "1");
    c.bench_function("worker/binary-output", |b| {
        b.iter(|| {
            let _ = std::io::stdout().write_all(b"\xff\xfe binary\n");
            work()
        })
    });
    c.bench_function("worker/reads-stdin", |b| {
        b.iter(|| {
            let mut line = String::new();
            let _ = std::io::stdin().lock().read_line(&mut line);
            work()
        })
    });
    let closed = std::sync::Once::new();
    c.bench_function("worker/closes-stdout", |b| {
        b.iter(|| {
            if in_worker {
                closed.call_once(|| {
                    use std::os::fd::FromRawFd;
                    // SAFETY: closes descriptor 1 once; nothing else owns it
                    // as an OwnedFd.
                    drop(unsafe { std::os::fd::OwnedFd::from_raw_fd(1) });
                });
            }
            work()
        })
    });
    c.bench_function("worker/aborts", |b| {
        b.iter(|| {
            if in_worker {
                std::process::abort();
            }
            work()
        })
    });
    c.bench_function("worker/exits", |b| {
        b.iter(|| {
            if in_worker {
                eprintln!("leaving now");
                std::process::exit(3);
            }
            work()
        })
    });
    c.bench_function("worker/killed", |b| {
        b.iter(|| {
            if in_worker {
                let me = std::process::id().to_string();
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &me])
                    .status();
                std::thread::sleep(Duration::from_secs(5));
            }
            work()
        })
    });
}

criterion_group!(hostile, benches);
criterion_main!(hostile);

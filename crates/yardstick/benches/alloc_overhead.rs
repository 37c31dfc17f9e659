//! What the meters cost, measured side by side in one run:
//!
//! 1. an allocation + deallocation through the system allocator, and through
//!    `CountingAllocator` wrapping it (both called directly, so the same
//!    binary measures both), for a few sizes and two patterns;
//! 2. `MeterSet::start` + `stop` for several metric lists, against two
//!    `Instant::now()` calls;
//! 3. the per-iteration wall-time estimate of a nanosecond-scale body, with
//!    and without every supported counter read around each sample.
//!
//! `cargo bench -p yardstick --bench alloc_overhead` prints the figures;
//! without `--bench` (as `cargo test --benches` runs it) it makes one quick
//! pass to check that it works.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::time::Instant;

use yardstick::meters::{parse_metrics, CountingAllocator, MeterSet};

/// Installed so that the allocation metrics of a `MeterSet` can be measured;
/// the comparison below calls `System` and `COUNTING` directly.
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator::system();

static COUNTING: CountingAllocator = CountingAllocator::system();

/// How much work one run does.
struct Scale {
    rounds: usize,
    pairs: u64,
    samples: usize,
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let scale = if full {
        Scale {
            rounds: 101,
            pairs: 64_000,
            samples: 400,
        }
    } else {
        Scale {
            rounds: 3,
            pairs: 1_000,
            samples: 10,
        }
    };
    if !full {
        println!("alloc_overhead: quick check (run with --bench for figures)");
    }
    allocator_overhead(&scale);
    meter_overhead(&scale);
    estimate_shift(&scale);
}

/// Median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    yardstick_stats::univariate::median(values).unwrap_or(f64::NAN)
}

/// Nanoseconds per allocation + deallocation of `layout`, `n` times, either
/// one block at a time (`batch` 1) or `batch` blocks then their frees.
fn pairs<A: GlobalAlloc>(a: &A, layout: Layout, n: u64, batch: usize) -> f64 {
    let mut blocks = [std::ptr::null_mut::<u8>(); 64];
    let start = Instant::now();
    for _ in 0..n / batch as u64 {
        for b in &mut blocks[..batch] {
            // SAFETY: `layout` has a non-zero size.
            *b = black_box(unsafe { a.alloc(layout) });
        }
        for b in blocks[..batch].iter().rev() {
            // SAFETY: `*b` came from `a.alloc(layout)` and is freed once.
            unsafe { a.dealloc(*b, layout) };
        }
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

fn allocator_overhead(scale: &Scale) {
    println!(
        "\nallocation + deallocation, ns per pair (medians of {} rounds; the overhead is the \
         median of each round's counting/system ratio)",
        scale.rounds
    );
    println!(
        "{:>6} {:>7} {:>9} {:>9} {:>9}",
        "size", "pattern", "system", "counting", "overhead"
    );
    for size in [16usize, 64, 1024] {
        for batch in [1usize, 64] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            let (mut sys, mut counting, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..scale.rounds {
                // Side by side, alternating which side goes first, so that a
                // change of load between rounds hits both sides alike.
                let (s, c) = if round % 2 == 0 {
                    let s = pairs(&System, layout, scale.pairs, batch);
                    (s, pairs(&COUNTING, layout, scale.pairs, batch))
                } else {
                    let c = pairs(&COUNTING, layout, scale.pairs, batch);
                    (pairs(&System, layout, scale.pairs, batch), c)
                };
                sys.push(s);
                counting.push(c);
                ratio.push(c / s);
            }
            let (s, c, r) = (median(&sys), median(&counting), median(&ratio));
            let pattern = if batch == 1 { "pair" } else { "batch64" };
            println!(
                "{size:>6} {pattern:>7} {s:>9.2} {c:>9.2} {:>+8.1}%",
                (r - 1.0) * 100.0
            );
        }
    }
}

/// Nanoseconds per `start` + `stop` of `set`.
fn start_stop(set: &mut MeterSet, n: u64) -> f64 {
    let mut out = Vec::with_capacity(set.metrics().len());
    let begin = Instant::now();
    for _ in 0..n {
        set.start();
        set.stop();
    }
    let ns = begin.elapsed().as_nanos() as f64 / n as f64;
    set.take(&mut out);
    ns
}

/// Nanoseconds per two `Instant::now()` calls.
fn two_clock_reads(n: u64) -> f64 {
    let begin = Instant::now();
    for _ in 0..n {
        black_box(Instant::now());
        black_box(Instant::now());
    }
    begin.elapsed().as_nanos() as f64 / n as f64
}

fn meter_overhead(scale: &Scale) {
    let n = scale.pairs / 20;
    println!(
        "\nMeterSet::start + stop, ns per sample (median of {} rounds)",
        scale.rounds
    );
    let clocks: Vec<f64> = (0..scale.rounds).map(|_| two_clock_reads(n)).collect();
    let clocks = median(&clocks);
    println!("{:>38} {clocks:>9.1}", "two Instant::now()");
    for list in ["wall", "cpu", "thread-cpu", "allocs", "counters", "all"] {
        let (mut set, notes) = MeterSet::open(&parse_metrics(list).unwrap());
        let ns: Vec<f64> = (0..scale.rounds).map(|_| start_stop(&mut set, n)).collect();
        let ns = median(&ns);
        let names: Vec<&str> = set.metrics().iter().map(|m| m.name()).collect();
        let label = format!("{list} ({} measured)", names.len());
        println!(
            "{label:>38} {ns:>9.1}  = {:.1}x two clock reads",
            ns / clocks
        );
        if list == "all" {
            println!("{:>38} {}", "measured:", names.join(", "));
            for note in notes {
                println!("{:>38} {note}", "note:");
            }
        }
    }
}

/// A body of about a nanosecond.
#[inline(never)]
fn body(x: u64) -> u64 {
    black_box(x)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(7)
}

/// Per-iteration wall time of `body` from samples of `iters` iterations,
/// each timed by `Instant` and, when `meters` is given, enclosed in its
/// `start` and `stop`.
fn estimate(meters: Option<&mut MeterSet>, iters: u64, samples: usize) -> f64 {
    let mut per_iter = Vec::with_capacity(samples);
    let mut values = Vec::new();
    let mut meters = meters;
    for _ in 0..samples {
        if let Some(m) = meters.as_deref_mut() {
            m.start();
        }
        let t = Instant::now();
        for i in 0..iters {
            black_box(body(i));
        }
        let ns = t.elapsed().as_nanos() as f64;
        if let Some(m) = meters.as_deref_mut() {
            m.stop();
            values.clear();
            m.take(&mut values);
        }
        per_iter.push(ns / iters as f64);
    }
    median(&per_iter)
}

fn estimate_shift(scale: &Scale) {
    let (mut set, _) = MeterSet::open(&parse_metrics("all").unwrap());
    println!(
        "\nwall-time estimate of a ~1 ns body, ns per iteration (median of {} samples)",
        scale.samples
    );
    println!(
        "{:>12} {:>9} {:>9} {:>8}",
        "iterations", "plain", "metered", "shift"
    );
    for iters in [100u64, 1_000, 10_000, 100_000] {
        let (mut plain, mut metered) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            plain.push(estimate(None, iters, scale.samples));
            metered.push(estimate(Some(&mut set), iters, scale.samples));
        }
        let (p, m) = (median(&plain), median(&metered));
        println!(
            "{iters:>12} {p:>9.3} {m:>9.3} {:>+7.2}%",
            (m - p) / p * 100.0
        );
    }
}

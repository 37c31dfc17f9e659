//! A library bench binary for the end-to-end tests.
//!
//! `bench_sum` has two sizes (the larger does twice the work); `bench_work`
//! sums `0..CG_WORK` (a variable passed through the cleared environment,
//! default 1000) so a test can change the work between two runs. `sorts`
//! compares two functions by id; `leaks` loses memory under Memcheck.
//! `teardowns` runs the same benchmark with and without a costly teardown,
//! and one whose 4 KiB argument comes from a setup function;
//! `heap` holds a known heap block for Massif; `threads` has a race-free and
//! a racy two-thread benchmark for Helgrind and DRD.
use std::sync::atomic::{AtomicU64, Ordering};

use cgdemo::{bubble_sort, sum_to};
use yardstick_callgrind::{
    black_box, library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Tool,
    ValgrindTool,
};

#[library_benchmark]
#[bench::small(1000)]
#[bench::large(2000)]
fn bench_sum(n: u64) -> u64 {
    black_box(sum_to(n))
}

fn work_from_env(default: u64) -> u64 {
    std::env::var("CG_WORK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[library_benchmark]
#[bench::env(args = (1000), setup = work_from_env)]
fn bench_work(n: u64) -> u64 {
    black_box(sum_to(n))
}

library_benchmark_group!(
    name = sums;
    benchmarks = bench_sum, bench_work
);

#[library_benchmark]
#[bench::case_3(vec![1, 2, 3])]
fn bench_sorted(v: Vec<i32>) -> Vec<i32> {
    black_box(bubble_sort(v))
}

#[library_benchmark]
#[bench::case_3(vec![3, 2, 1])]
fn bench_reversed(v: Vec<i32>) -> Vec<i32> {
    black_box(bubble_sort(v))
}

library_benchmark_group!(
    name = sorts;
    compare_by_id = true;
    benchmarks = bench_sorted, bench_reversed
);

/// Loses a heap block: Memcheck reports it as definitely lost.
#[inline(never)]
fn leak() -> usize {
    let v = black_box(vec![7u8; 100]);
    let len = v.len();
    std::mem::forget(v);
    len
}

#[library_benchmark]
fn bench_leak() -> usize {
    leak()
}

library_benchmark_group!(
    name = leaks;
    config = LibraryBenchmarkConfig::default().tool(
        Tool::new(ValgrindTool::Memcheck)
            .args(["--leak-check=full", "--errors-for-leak-kinds=definite"])
    );
    benchmarks = bench_leak
);

/// Far more work than the benchmark (`sum_to(100_000)` against
/// `sum_to(3000)`), after it: counted, it would show. It prints its result,
/// so a test can see that it ran.
fn costly_teardown(total: u64) {
    let check = sum_to(black_box(100_000));
    eprintln!("costly teardown ran: {total} {check}");
}

#[library_benchmark]
#[bench::without(args = (3000))]
#[bench::with_costly(args = (3000), teardown = costly_teardown)]
fn bench_teardown(n: u64) -> u64 {
    black_box(sum_to(n))
}

/// A 4 KiB argument made by a setup function.
fn page(first: u64) -> [u64; 512] {
    [first; 512]
}

/// Reads one word of a 4 KiB by-value argument: two instructions (load,
/// return). Moving the argument into the call happens outside the counted
/// function; counted, its copy would cost hundreds.
#[library_benchmark]
#[bench::page(args = (7), setup = page)]
fn bench_moved(words: [u64; 512]) -> u64 {
    words[0]
}

library_benchmark_group!(
    name = teardowns;
    benchmarks = bench_teardown, bench_moved
);

/// Allocates `bytes` in one block and keeps it while reading it.
#[inline(never)]
fn hold_block(bytes: usize) -> u64 {
    let block = black_box(vec![1u8; bytes]);
    block.iter().step_by(4096).map(|&b| u64::from(b)).sum()
}

#[library_benchmark]
#[bench::kib_256(256 * 1024)]
fn bench_block(bytes: usize) -> u64 {
    hold_block(bytes)
}

library_benchmark_group!(
    name = heap;
    benchmarks = bench_block
);

/// One spawned thread and the main thread each fill their own vector; the
/// join orders everything after. No race, and nothing in std that Helgrind
/// or DRD misreads (two threads running at once, std's `Mutex` or
/// `thread::scope` would: they synchronise through futexes and atomics these
/// tools do not follow).
fn disjoint() -> u64 {
    let mut mine = vec![0u64; 32];
    let theirs = std::thread::spawn(|| {
        let mut v = vec![0u64; 32];
        for (i, x) in v.iter_mut().enumerate() {
            *x = i as u64;
        }
        v.iter().sum::<u64>()
    });
    for (i, x) in mine.iter_mut().enumerate() {
        *x = 2 * i as u64;
    }
    theirs.join().expect("the thread") + mine.iter().sum::<u64>()
}

static SHARED: AtomicU64 = AtomicU64::new(0);

/// The main thread and a spawned one store to the same word with nothing
/// ordering the two stores: a data race as Helgrind and DRD see it (relaxed
/// atomic stores are plain stores on x86-64 and AArch64), though not
/// undefined behaviour in Rust.
fn racy() -> u64 {
    let other = std::thread::spawn(|| SHARED.store(1, Ordering::Relaxed));
    SHARED.store(2, Ordering::Relaxed);
    other.join().expect("the thread");
    SHARED.load(Ordering::Relaxed)
}

#[library_benchmark]
fn bench_disjoint() -> u64 {
    disjoint()
}

#[library_benchmark]
fn bench_racy() -> u64 {
    racy()
}

library_benchmark_group!(
    name = threads;
    benchmarks = bench_disjoint, bench_racy
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("CG_WORK");
    library_benchmark_groups = sums, sorts, leaks, teardowns, heap, threads
);

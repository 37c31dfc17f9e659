//! The comparison's workloads written for divan, compiled by `divan-side`
//! (divan) and `yardstick-divan-side` (yardstick-divan renamed to `divan`).
//! The bodies are those of the Criterion.rs comparison (`bodies.rs`).

use divan::{black_box, Bencher};

#[allow(dead_code)]
mod bodies;

fn main() {
    divan::main();
}

#[divan::bench]
fn empty() {}

#[divan::bench]
fn ns_op() -> u64 {
    bodies::ns_op(black_box(12345))
}

#[divan::bench]
fn us_loop() -> u64 {
    bodies::us_loop(black_box(12345))
}

#[divan::bench]
fn sort_setup(bencher: Bencher) {
    let mut shuffler = bodies::Shuffler::new();
    bencher
        .with_inputs(|| shuffler.next_input())
        .bench_local_values(bodies::sort);
}

#[divan::bench(args = [10, 100, 1000])]
fn sort_len(bencher: Bencher, len: usize) {
    bencher
        .counter(len)
        .with_inputs(|| bodies::shuffled(len, 7))
        .bench_local_refs(|v| v.sort_unstable());
}

#[divan::bench(threads = [1, 2])]
fn atomic_add() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

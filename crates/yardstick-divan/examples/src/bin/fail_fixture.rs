//! A divan bench file whose benchmarks fail, for the failure tests: a
//! body that panics, a thread that panics in a contention run, and a
//! benchmark function that panics before it measures; the others run.

use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[divan::bench]
fn fine() -> u64 {
    black_box(3u64) * 7
}

#[divan::bench]
fn body_panics() -> u64 {
    if black_box(true) {
        panic!("the body failed");
    }
    1
}

#[divan::bench(threads = [2])]
fn thread_panics(b: Bencher) {
    let calls = std::sync::atomic::AtomicU32::new(0);
    b.bench(|| {
        if calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 3 {
            panic!("a thread failed");
        }
    });
}

#[divan::bench]
fn setup_panics(_b: Bencher) {
    panic!("the setup failed");
}

#[divan::bench]
fn zz_after() -> u64 {
    black_box(5u64) + 1
}

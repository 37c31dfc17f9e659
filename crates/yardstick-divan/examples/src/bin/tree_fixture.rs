//! A small divan bench file the tests run as a binary (bench binaries have
//! no `CARGO_BIN_EXE_` path): a plain function, arguments, types, threads,
//! a counter, a group and an ignored benchmark.

use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[divan::bench]
fn plain() -> u64 {
    black_box(2u64).pow(black_box(10))
}

#[divan::bench(args = [1, 2])]
fn args(bencher: Bencher, n: usize) {
    bencher.counter(n).bench(|| vec![1u8; black_box(n)]);
}

#[divan::bench(types = [u8, u32], threads = [1, 2])]
fn generic<T: Default>() -> T {
    T::default()
}

#[divan::bench_group(name = "grouped")]
mod group {
    #[divan::bench]
    fn inner() -> u32 {
        divan::black_box(7u32).count_ones()
    }

    #[divan::bench]
    #[ignore]
    fn skipped() {}
}

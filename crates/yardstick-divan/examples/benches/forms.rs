//! Every attribute form and `Bencher` method of divan, written as for divan.

use divan::counter::{BytesCount, CharsCount, CyclesCount, ItemsCount};
use divan::{black_box, black_box_drop, AllocProfiler, Bencher};
use std::time::Duration;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

#[divan::bench]
fn plain() -> u64 {
    black_box(1u64) + black_box(2)
}

#[divan::bench(name = "renamed")]
fn named() -> u64 {
    black_box(3u64) * black_box(4)
}

#[divan::bench(crate = divan)]
fn crate_path() {}

#[divan::bench]
#[ignore]
fn ignored_by_attribute() {}

#[divan::bench(ignore)]
fn ignored_by_option() {}

#[divan::bench(args = [1, 2, 3])]
fn args_array(n: u64) -> u64 {
    black_box(n) * n
}

const LENS: &[usize] = &[0, 8, 64];

#[divan::bench(args = LENS)]
fn args_slice(bencher: Bencher, len: usize) {
    bencher.counter(len).bench(|| vec![0u8; black_box(len)]);
}

#[divan::bench(args = 1..=3)]
fn args_range(n: u32) -> u32 {
    black_box(n).pow(2)
}

#[divan::bench(args = ["a", "héllo"])]
fn args_str(s: &str) -> usize {
    black_box(s).chars().count()
}

#[divan::bench(args = [String::from("owned")])]
fn args_string(s: &String) -> usize {
    black_box(s).len()
}

#[divan::bench(consts = [1, 5, 10])]
fn consts_array<const N: usize>() -> [u8; N] {
    black_box([0; N])
}

const SIZES: [usize; 2] = [2, 4];

#[divan::bench(consts = SIZES)]
fn consts_path<const N: usize>() -> usize {
    black_box(N)
}

#[divan::bench(types = [u8, u64, String])]
fn types<T: Default>() -> T {
    T::default()
}

#[divan::bench(types = [Vec<u8>, String], consts = [1, 2])]
fn types_and_consts<T: Default, const N: usize>() -> [T; N] {
    std::array::from_fn(|_| T::default())
}

#[divan::bench(types = [Vec<u32>], args = [4, 16])]
fn types_and_args<T: FromIterator<u32>>(n: u32) -> T {
    (0..black_box(n)).collect()
}

#[divan::bench(threads = [1, 2])]
fn threads() -> u64 {
    static N: std::sync::atomic::AtomicU64 =
        std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[divan::bench(threads = true)]
fn threads_bool() {}

#[divan::bench(counters = [BytesCount::new(8usize), ItemsCount::new(2usize)])]
fn counters() -> u64 {
    black_box(u64::MAX).count_ones().into()
}

#[divan::bench(sample_count = 20, sample_size = 50)]
fn sample_options() {}

#[divan::bench(min_time = 0.01, max_time = Duration::from_millis(50), skip_ext_time)]
fn time_options() {}

#[divan::bench(max_time = 1, skip_ext_time = false)]
fn time_options_int() {}

#[divan::bench]
fn bench_local(bencher: Bencher) {
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        n
    });
}

#[divan::bench]
fn with_inputs(bencher: Bencher) {
    bencher.with_inputs(|| vec![3u8, 1, 2]).bench_values(|mut v| {
        v.sort();
        v
    });
}

#[divan::bench(threads = [1, 2])]
fn with_inputs_refs(bencher: Bencher) {
    bencher
        .with_inputs(|| String::from("Hello"))
        .input_counter(BytesCount::of_str)
        .bench_refs(|s| s.make_ascii_uppercase());
}

#[divan::bench]
fn with_inputs_local(bencher: Bencher) {
    let mut seed = 7u32;
    bencher
        .counter(CharsCount::new(5usize))
        .with_inputs(|| {
            seed = seed.wrapping_mul(31);
            seed.to_string()
        })
        .bench_local_values(black_box_drop);
}

#[divan::bench]
fn with_inputs_local_refs(bencher: Bencher) {
    let mut k = 0usize;
    bencher
        .with_inputs(|| {
            k += 1;
            vec![0u64; k % 8]
        })
        .input_counter(|v: &Vec<u64>| ItemsCount::new(v.len()))
        .bench_local_refs(|v| v.push(1));
}

#[divan::bench(counters = CyclesCount::new(100u32))]
fn cycles() {}

#[divan::bench_group(sample_count = 10, threads = [1, 2])]
mod group {
    use super::*;

    #[divan::bench]
    fn inherits() -> usize {
        black_box(5usize).leading_zeros() as usize
    }

    #[divan::bench(threads = 1)]
    fn overrides() {}

    #[divan::bench_group(name = "renamed_group")]
    mod inner {
        #[divan::bench]
        fn nested() {}
    }
}

#[divan::bench_group]
#[ignore]
mod ignored_group {
    #[divan::bench]
    fn not_run() {}
}

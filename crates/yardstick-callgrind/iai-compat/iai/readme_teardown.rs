// The README's `teardown` example and its `--nocapture` example, unchanged.
use iai_callgrind::{main, library_benchmark_group, library_benchmark};
use std::hint::black_box;

fn my_teardown(value: usize) {
     println!("The length of the input string was: {value}");
}

fn my_other_teardown(value: usize) {
     if value != 3 {
         panic!("The length of the input string was: {value} but expected it to be 3");
     }
}

#[library_benchmark(teardown = my_teardown)]
#[bench::first("1")]
#[benches::multiple("42", "84")]
#[bench::last(args = ("104"), teardown = my_other_teardown)]
fn my_bench(value: &str) -> usize {
    // Let's benchmark the `len` function
    black_box(value.len())
}

fn my_nocapture_teardown(value: u64) {
    eprintln!("Error output during teardown: {value}");
}

fn to_be_benchmarked(value: u64) -> u64 {
    println!("Output to stdout: {value}");
    value + 10
}

#[library_benchmark]
#[bench::some_id(args = (10), teardown = my_nocapture_teardown)]
fn my_nocapture_bench(value: u64) -> u64 {
    to_be_benchmarked(value)
}

library_benchmark_group!(
    name = my_bench_group;
    benchmarks = my_bench, my_nocapture_bench
);

main!(library_benchmark_groups = my_bench_group);

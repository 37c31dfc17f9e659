// The README's `setup` example (with its `some_setup_func` variant), unchanged
// but for the second function's name.
use iai_callgrind::{main, library_benchmark_group, library_benchmark};
use std::hint::black_box;

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn some_setup_func(value: u64) -> u64 {
    value
}

#[library_benchmark]
#[bench::long(some_setup_func(30))]
fn bench_fibonacci(value: u64) -> u64 {
    black_box(fibonacci(value))
}

fn my_setup(value: u64) -> String {
     format!("{value}")
}

fn my_other_setup(value: u64) -> String {
     format!("{}", value + 10)
}

#[library_benchmark(setup = my_setup)]
#[bench::first(21)]
#[benches::multiple(42, 84)]
#[bench::last(args = (102), setup = my_other_setup)]
fn my_bench(value: String) {
    println!("{value}");
}

library_benchmark_group!(
    name = setup_group;
    benchmarks = bench_fibonacci, my_bench
);

main!(library_benchmark_groups = setup_group);

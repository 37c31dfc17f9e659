//! The Iai form: plain functions, as in the Criterion.rs guide's Iai chapter.
use cgdemo::fibonacci;
use yardstick_callgrind::{black_box, main};

fn iai_benchmark_short() -> u64 {
    fibonacci(black_box(10))
}

fn iai_benchmark_long() -> u64 {
    fibonacci(black_box(20))
}

main!(iai_benchmark_short, iai_benchmark_long);

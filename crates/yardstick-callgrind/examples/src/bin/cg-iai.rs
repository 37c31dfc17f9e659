//! An Iai-form bench binary for the end-to-end tests: one small benchmark,
//! a plain function.
use cgdemo::sum_to;
use yardstick_callgrind::{black_box, main};

fn iai_sum() -> u64 {
    sum_to(black_box(500))
}

main!(iai_sum);

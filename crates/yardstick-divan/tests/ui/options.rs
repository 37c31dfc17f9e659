extern crate yardstick_divan as divan;

#[divan::bench(sample_count = 1, sample_count = 2)]
fn repeated() {}

#[divan::bench(samples = 3)]
fn unknown() {}

#[divan::bench(args)]
fn no_value(n: u8) -> u8 {
    n
}

#[divan::bench(name =)]
fn empty_value() {}

#[divan::bench(max_time 3)]
fn no_equals() {}

#[divan::bench(types = u8)]
fn types_not_a_list<T>() {}

#[divan::bench_group(args = [1, 2])]
mod group_with_args {}

#[divan::bench_group]
struct NotAModule;

fn main() {}

extern crate yardstick_divan as divan;

#[divan::bench(args = [1, 2])]
fn two_arguments(a: u8, b: u8) -> u8 {
    a + b
}

#[divan::bench]
fn argument_without_args(n: u8) -> u8 {
    n
}

#[divan::bench(args = [1, 2])]
fn args_without_argument() {}

#[divan::bench]
fn type_without_types<T: Default>() -> T {
    T::default()
}

#[divan::bench]
fn const_without_consts<const N: usize>() -> usize {
    N
}

#[divan::bench]
struct NotAFunction;

fn main() {}

//! A value of the wrong type: the compiler's error points at the value.

extern crate yardstick_divan as divan;

#[divan::bench(name = 5)]
fn wrong_type() {}

fn main() {}

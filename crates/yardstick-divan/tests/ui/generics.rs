extern crate yardstick_divan as divan;

#[divan::bench(consts = [1, 2])]
fn consts_without_const_parameter() {}

#[divan::bench(types = [u8, u16])]
fn types_without_type_parameter() {}

#[divan::bench(types = [u8], consts = [1])]
fn consts_on_a_type_parameter<T>() {}

#[divan::bench(types = [u8,,u16])]
fn types_with_an_empty_element<T>() {}

#[divan::bench(args)]
fn args_without_argument() {}

#[divan::bench(args, name = "x")]
fn args_without_value(n: u8) -> u8 {
    n
}

fn main() {}

use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[divan::bench]
fn add() -> u64 {
    black_box(1u64) + black_box(2)
}

#[divan::bench(args = [1, 2, 3])]
fn square(n: u64) -> u64 {
    black_box(n) * n
}

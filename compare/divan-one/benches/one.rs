fn main() {
    divan::main();
}

#[divan::bench]
fn add() -> u64 {
    divan::black_box(1u64) + 2
}

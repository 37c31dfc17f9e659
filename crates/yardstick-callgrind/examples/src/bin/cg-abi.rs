//! Two benchmarks whose functions differ only in a constant, so that they
//! cost the same number of instructions when compiled alike: `reverse`,
//! called only by the harness, and `reverse_escaped`, whose address also
//! escapes into a static, which keeps Rust's calling convention for it
//! whatever the harness does. Their counts are equal only if the harness's
//! call leaves `reverse`'s convention alone too, as iai-callgrind's call
//! from another codegen unit does (`tests/callgrind.rs`).
use yardstick_callgrind::{library_benchmark, library_benchmark_group, main};

#[library_benchmark]
#[bench::four([1, 2, 3, 4])]
fn reverse(a: [u64; 4]) -> [u64; 4] {
    [a[3], a[2], a[1], a[0] ^ 1]
}

#[library_benchmark]
#[bench::four([1, 2, 3, 4])]
fn reverse_escaped(a: [u64; 4]) -> [u64; 4] {
    [a[3], a[2], a[1], a[0] ^ 2]
}

/// The address taken: LLVM may not rewrite the signature of a function
/// it cannot see every call of.
#[used]
static ESCAPED: fn([u64; 4]) -> [u64; 4] = reverse_escaped;

library_benchmark_group!(
    name = abi;
    benchmarks = reverse, reverse_escaped
);

main!(library_benchmark_groups = abi);

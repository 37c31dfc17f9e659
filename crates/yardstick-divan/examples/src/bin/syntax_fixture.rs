//! The attribute's syntax at its edges, written as for divan: paths, nested
//! generics, expressions in options, qualifiers, lifetimes, `where`
//! clauses, raw names, patterns and attributes. Each one must compile and
//! register under the name divan gives it (`tests/tree.rs` reads its
//! `--list`). `compare/divan_macros.py` compiles it under divan 0.1.21 too
//! and compares the two `--list`s.

#![deny(unused_braces)]

use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// A doc comment and a second attribute stay on the function.
#[divan::bench(crate = ::divan, name = concat!("con", "cat"),)]
#[inline(never)]
pub(crate) fn with_path_and_trailing_comma() -> u8 {
    black_box(1)
}

#[divan::bench(types = [Vec<Vec<u8>>, [u8; 4], &'static str, (u8, u16), Option<Box<dyn Fn() -> u8>>])]
fn nested_types<T: Default>() -> T {
    T::default()
}

#[divan::bench(consts = [1 + 2, u32::MAX >> 29, SHIFT << 1])]
fn const_expressions<const N: u32>() -> u32 {
    black_box(N)
}

const SHIFT: u32 = 3;

#[divan::bench(args = vec![(1, 'a'), (2, 'b')].into_iter().map(|(n, _)| n * 2))]
fn args_iterator(n: i32) -> i32 {
    black_box(n)
}

#[divan::bench(args = [1u8, 2])]
fn args_with_pattern(bencher: divan::Bencher<'_, '_>, &n: &u8) {
    bencher.bench(|| black_box(n));
}

#[divan::bench(args = [[1, 2], [3, 4]])]
fn args_arrays(pair: [u8; 2]) -> u8 {
    pair[0] + pair[1]
}

#[divan::bench]
fn r#type(mut bencher: Bencher) {
    bencher = bencher.counter(divan::counter::ItemsCount::new(1usize));
    bencher.bench(|| ());
}

#[divan::bench(types = [u8, u16])]
fn lifetimes_and_where<'a, T>() -> Option<&'a T>
where
    T: Default + 'a,
{
    None
}

#[divan::bench(threads = 0, sample_count = 3 * 2, counter = divan::counter::BytesCount::new(4usize))]
fn option_expressions() {}

#[divan::bench(ignore = cfg!(not(target_pointer_width = "64")))]
fn ignore_by_expression() {}

#[divan::bench]
#[cfg(any())]
fn configured_out() {
    compile_error!("a #[cfg] after #[bench] removes the function and its entry");
}

#[divan::bench(args = [Duration::from_nanos(1)])]
fn args_display(d: Duration) -> Duration {
    black_box(d)
}

use std::time::Duration;

#[divan::bench_group(max_time = 0.5)]
pub mod r#group {
    #[divan::bench]
    fn inside() {}

    #[divan::bench_group(
        threads = [1],
        counters = [divan::counter::ItemsCount::new(2usize), divan::counter::BytesCount::new(8usize)],
    )]
    pub(super) mod r#inner {}
}

// Benchmarks written by `macro_rules!`: the visibility, types, attributes
// and expressions of its fragments reach the attribute in invisible groups.
macro_rules! bench_by_macro {
    ($v:vis $name:ident) => {
        #[divan::bench]
        $v fn $name() -> u8 {
            black_box(1)
        }
    };
    ($name:ident, $t:ty, $args:expr) => {
        #[divan::bench(args = $args)]
        fn $name(n: $t) -> $t {
            black_box(n)
        }
    };
    ($name:ident, bencher: $b:ty) => {
        #[divan::bench]
        fn $name(bencher: $b) {
            bencher.bench(|| ());
        }
    };
    ($name:ident, types: $t:ty) => {
        #[divan::bench(types = [$t, u8])]
        fn $name<T: Default>() -> T {
            T::default()
        }
    };
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[divan::bench]
        fn $name() {}
    };
}

bench_by_macro!(pub macro_public);
bench_by_macro!(macro_private);
bench_by_macro!(macro_typed, u16, [7, 8]);
bench_by_macro!(macro_bencher, bencher: Bencher);
bench_by_macro!(macro_types, types: u16);
bench_by_macro!(
    #[ignore]
    #[inline(never)]
    macro_ignored
);

/// A C-ABI function is benchmarked through a Rust closure, as divan does.
#[divan::bench]
extern "C" fn c_abi() -> u8 {
    black_box(2)
}

// The braces of `{ 2 + 3 }` are needed; the macro adds none that are not
// (denied at the top of the file: the lint fires in the generated entry).
#[divan::bench(consts = [1, { 2 + 3 }])]
fn const_block<const N: u8>() -> u8 {
    black_box(N)
}

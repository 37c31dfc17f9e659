//! Compile errors of `#[divan::bench]` and `#[divan::bench_group]`, checked
//! with trybuild: each file in `tests/ui` must fail with the `.stderr`
//! beside it (the message and the span it points at).
//!
//! `TRYBUILD=overwrite cargo test -p yardstick-divan --test ui` rewrites
//! the `.stderr` files; review the diff.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

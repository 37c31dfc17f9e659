//! Compile errors of the macros, checked with trybuild: each file in
//! `tests/ui/fail` must fail with the `.stderr` beside it (the message and
//! the span it points at), and `tests/ui/pass` must compile.
//!
//! `TRYBUILD=overwrite cargo test -p yardstick-callgrind --test ui` rewrites
//! the `.stderr` files; review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}

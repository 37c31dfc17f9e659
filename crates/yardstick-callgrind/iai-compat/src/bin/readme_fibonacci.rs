//! `iai/readme_fibonacci.rs` as a plain binary, for the tests.
include!("../../iai/readme_fibonacci.rs");

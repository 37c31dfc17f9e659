//! `iai/readme_compare.rs` as a plain binary, for the tests.
include!("../../iai/readme_compare.rs");

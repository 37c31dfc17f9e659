//! `iai/readme_teardown.rs` as a plain binary, for the tests.
include!("../../iai/readme_teardown.rs");

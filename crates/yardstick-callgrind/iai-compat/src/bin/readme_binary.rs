//! `iai/readme_binary.rs` as a plain binary, for the tests.
include!("../../iai/readme_binary.rs");

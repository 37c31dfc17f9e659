//! `iai/readme_setup.rs` as a plain binary, for the tests.
include!("../../iai/readme_setup.rs");

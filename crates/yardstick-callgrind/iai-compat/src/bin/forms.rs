//! `iai/forms.rs` as a plain binary, for the tests.
include!("../../iai/forms.rs");

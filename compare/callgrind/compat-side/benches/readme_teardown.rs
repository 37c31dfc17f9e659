//! The iai-compat bench file `readme_teardown.rs`, unchanged.
include!("../../../../crates/yardstick-callgrind/iai-compat/iai/readme_teardown.rs");

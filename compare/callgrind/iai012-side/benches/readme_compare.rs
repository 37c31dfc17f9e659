//! The iai-compat bench file `readme_compare.rs`, unchanged.
include!("../../../../crates/yardstick-callgrind/iai-compat/iai/readme_compare.rs");

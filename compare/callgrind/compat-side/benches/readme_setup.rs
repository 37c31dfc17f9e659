//! The iai-compat bench file `readme_setup.rs`, unchanged.
include!("../../../../crates/yardstick-callgrind/iai-compat/iai/readme_setup.rs");

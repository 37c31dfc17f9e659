//! The iai-compat bench file `readme_fibonacci.rs`, unchanged.
include!("../../../../crates/yardstick-callgrind/iai-compat/iai/readme_fibonacci.rs");

//! `iai/readme_compare.rs`, a bench file written for iai-callgrind 0.12 (kept out of
//! rustfmt's reach, so it stays as written).
include!("../iai/readme_compare.rs");

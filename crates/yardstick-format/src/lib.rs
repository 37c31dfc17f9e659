#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod ab;
pub mod analyze;
pub mod atomic;
pub mod binary;
pub mod build;
pub mod callgrind;
pub mod change;
pub mod criterion;
pub mod csv;
pub mod doctor;
pub mod drift;
pub mod elf;
pub mod exec;
pub mod explain;
pub mod folded;
pub mod history;
pub mod home;
pub mod json;
pub mod layout;
pub mod linked;
pub mod messages;
pub mod metrics;
pub mod names;
pub mod partition;
pub mod plan;
pub mod relinks;
pub mod units;
pub mod valgrind;
pub mod worker;

/// serde, for the traits the `serde` feature implements.
#[cfg(feature = "serde")]
#[doc(hidden)]
pub use serde;

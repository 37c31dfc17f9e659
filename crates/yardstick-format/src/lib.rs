//! The formats yardstick writes and reads, in one place with serde only, so
//! the harness, the report and `cargo yardstick` agree on them.
//!
//! [`criterion`] holds the files of Criterion.rs's home directory
//! (`target/criterion/<id>/{new,base,…}/`), field for field, so that tools
//! written for Criterion.rs read yardstick's results; [`messages`] holds
//! cargo-criterion's JSON messages (`--message-format json`); [`history`]
//! holds the runs `cargo yardstick history --export` writes; [`worker`]
//! the line protocol between a parent and a bench binary's worker processes;
//! [`home`] where the home directory is, one order for every tool;
//! [`units`] which unit a time is shown in, for every printed format.
//!
//! yardstick's own files carry a `version` and have a JSON Schema under
//! `schemas/` in this crate, checked against the types in its tests:
//! [`metrics`] (`metrics.json`), [`drift`] (`drift.json`), [`exec`]
//! (`cargo yardstick exec --export-json`), [`analyze`] (`cargo yardstick
//! analyze`'s output); `schemas/message.json` describes the messages.
//!
//! ```
//! use yardstick_format::criterion::{SamplingMode, SavedSample};
//!
//! let json = r#"{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,21.0]}"#;
//! let sample: SavedSample = serde_json::from_str(json)?;
//! assert_eq!(sample.sampling_mode, SamplingMode::Linear);
//! assert_eq!(sample.averages(), [10.0, 10.5]);
//! sample.validate().expect("a valid sample");
//! # Ok::<(), serde_json::Error>(())
//! ```
#![deny(missing_docs)]

pub mod analyze;
pub mod atomic;
pub mod criterion;
pub mod csv;
pub mod drift;
pub mod exec;
pub mod history;
pub mod home;
pub mod messages;
pub mod metrics;
pub mod names;
pub mod units;
pub mod worker;

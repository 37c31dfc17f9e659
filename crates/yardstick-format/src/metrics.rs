//! `<id>/<baseline>/metrics.json`: the extra metrics of one benchmark
//! (allocations, counters, …) — yardstick's own file, next to Criterion.rs's.
//! Schema: `schemas/metrics.v1.json`.

use crate::criterion::EstimateFile;

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricsFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// One entry per metric, in the order they were measured.
    pub metrics: Vec<SavedMetric>,
}

crate::json_object!(MetricsFile { version, metrics });

/// One metric's samples and estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedMetric {
    /// The metric's name (`alloc_bytes`, `instructions`, …).
    pub name: String,
    /// Its unit (`B`, `count`, …).
    pub unit: String,
    /// Whether it adds up over iterations (estimated per iteration);
    /// false for maxima such as peak bytes.
    pub per_iteration: bool,
    /// Total of each sample, as measured; null where the source could not
    /// read it.
    pub values: Vec<Option<f64>>,
    /// Per iteration (slope or mean), for additive metrics.
    pub estimate: Option<EstimateFile>,
    /// The largest sample value, for metrics that are maxima.
    pub peak: Option<f64>,
}

crate::json_object!(SavedMetric { name, unit (default), per_iteration (default), values, estimate (default), peak (default) });

impl MetricsFile {
    /// Checks that the file is of the version this crate reads.
    ///
    /// # Errors
    ///
    /// A sentence naming the version found and the one expected.
    pub fn check_version(&self) -> Result<(), String> {
        if self.version == VERSION {
            Ok(())
        } else {
            Err(format!(
                "metrics.json version {} is not {VERSION}, the version this yardstick reads",
                self.version
            ))
        }
    }
}

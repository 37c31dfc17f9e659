//! `<id>/drift.json`: a benchmark's run-to-run drift on this machine, as
//! `cargo yardstick calibrate` measured it; the harness reads it to report a
//! change within the drift as machine drift. Schema: `schemas/drift.v1.json`.

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct DriftFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The relative drift, a fraction ≥ 0 (0.06 = ±6 %).
    pub relative_drift: f64,
    /// Runs it was measured from.
    pub runs: usize,
    /// What `relative_drift` bounds, in words and as a formula.
    pub definition: String,
    /// The typical estimate of each run, in run order.
    pub estimates: Vec<f64>,
    /// Their unit.
    pub unit: String,
}

crate::json_object!(DriftFile { version, relative_drift, runs (default), definition (default), estimates (default), unit (default) });

impl DriftFile {
    /// The drift, when the file is of this version and the drift a finite
    /// fraction ≥ 0.
    ///
    /// # Errors
    ///
    /// A sentence saying what is expected.
    pub fn checked_drift(&self) -> Result<f64, String> {
        let d = self.relative_drift;
        if self.version == VERSION && d.is_finite() && d >= 0.0 {
            Ok(d)
        } else {
            Err("expected {\"version\": 1, \"relative_drift\": <fraction ≥ 0>, …}".into())
        }
    }
}

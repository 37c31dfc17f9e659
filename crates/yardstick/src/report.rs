//! The bridge to `yardstick-report` (feature `report`, on by default): the
//! HTML pages written as benchmarks, groups and the run finish.

use std::path::Path;

use crate::analysis::Analysis;
use crate::store::{BenchmarkRecord, SavedSample};

/// Writes the page of one benchmark.
#[cfg(feature = "report")]
pub(crate) fn benchmark(
    home: &Path,
    record: &BenchmarkRecord,
    sample: &SavedSample,
    unit: &str,
    a: &Analysis,
    baseline: Option<&SavedSample>,
) -> Result<(), String> {
    let report = yardstick_report::BenchmarkReport {
        record,
        sample,
        unit,
        estimates: &a.estimates,
        distributions: a.distributions.as_ref(),
        tukey: &a.tukey,
        baseline,
        change: a.change.as_ref(),
        change_distributions: a.change_distributions.as_ref(),
    };
    yardstick_report::write_benchmark(home, &report).map_err(|e| e.to_string())
}

/// Writes the page of a group from what is saved under `home`.
#[cfg(feature = "report")]
pub(crate) fn group(home: &Path, group_id: &str, log_scale: bool) -> Result<(), String> {
    yardstick_report::write_group(home, group_id, log_scale).map_err(|e| e.to_string())
}

/// Writes the index of every benchmark saved under `home`.
#[cfg(feature = "report")]
pub(crate) fn index(home: &Path) -> Result<(), String> {
    yardstick_report::write_index(home).map_err(|e| e.to_string())
}

/// Whether this build writes reports.
pub(crate) const ENABLED: bool = cfg!(feature = "report");

#[cfg(not(feature = "report"))]
pub(crate) fn benchmark(
    _: &Path,
    _: &BenchmarkRecord,
    _: &SavedSample,
    _: &str,
    _: &Analysis,
    _: Option<&SavedSample>,
) -> Result<(), String> {
    Ok(())
}

#[cfg(not(feature = "report"))]
pub(crate) fn group(_: &Path, _: &str, _: bool) -> Result<(), String> {
    Ok(())
}

#[cfg(not(feature = "report"))]
pub(crate) fn index(_: &Path) -> Result<(), String> {
    Ok(())
}

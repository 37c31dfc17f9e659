//! The settings of a [`Bench`](super::Bench), copied into every result so
//! a result always says how it was measured.

use std::time::Duration;

use yardstick_stats::nanobench::EpochConfig;

/// What the builder's setters change; nanobench's defaults.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Config {
    pub(super) title: String,
    pub(super) name: String,
    pub(super) unit: String,
    pub(super) batch: u64,
    pub(super) complexity_n: Option<u64>,
    pub(super) epochs: usize,
    pub(super) epoch_iterations: u64,
    pub(super) min_epoch_iterations: u64,
    pub(super) min_epoch_time: Duration,
    pub(super) max_epoch_time: Duration,
    pub(super) clock_resolution_multiple: u64,
    pub(super) warmup: u64,
    pub(super) relative: bool,
    pub(super) performance_counters: bool,
    /// nanobench's context: named values kept with every result, in the
    /// order they were first set.
    pub(super) context: Vec<(String, String)>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            title: "benchmark".to_owned(),
            name: String::new(),
            unit: "op".to_owned(),
            batch: 1,
            complexity_n: None,
            epochs: 11,
            epoch_iterations: 0,
            min_epoch_iterations: 1,
            min_epoch_time: Duration::from_millis(1),
            max_epoch_time: Duration::from_millis(100),
            clock_resolution_multiple: 1000,
            warmup: 0,
            relative: false,
            performance_counters: true,
            context: Vec::new(),
        }
    }
}

impl Config {
    /// The epoch settings in the statistics crate's terms (nanoseconds).
    pub(super) fn epoch_config(&self) -> EpochConfig {
        EpochConfig {
            clock_resolution_multiple: self.clock_resolution_multiple as f64,
            min_epoch_time: self.min_epoch_time.as_nanos() as f64,
            max_epoch_time: self.max_epoch_time.as_nanos() as f64,
            min_epoch_iterations: self.min_epoch_iterations,
            epochs: self.epochs,
        }
    }
}

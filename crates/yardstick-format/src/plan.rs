//! A bench binary's walk, written by a child process for its parent: the
//! benchmarks its `criterion_group!` targets define, in order, each with
//! its settings, and the ends of their groups.
//!
//! Why a child walks: a suite whose input data outlives the functions that
//! define its benchmarks (a `static`, data built in `main`) holds it in
//! every process that ran those functions. The process `cargo bench`
//! started then holds a third copy beside the two workers of each
//! lock-step pair. When it leaves the walk to a child that exits before
//! anything is measured, it never runs the suite's code and holds none.
//! The child writes this file (`planned.json` in a temporary folder of the
//! home) and exits; the parent reads it and measures every benchmark in
//! worker processes.

use crate::criterion::BenchmarkRecord;

/// The walk's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The plan's format; a parent refuses another.
    pub version: u64,
    /// Why the walk could not plan the run (a benchmark that must be
    /// measured in the process that defines it, say): the parent then
    /// walks as usual. `None` when `targets` is the whole run.
    pub refused: Option<String>,
    /// The walking process still held more than the engine's limit when
    /// its walk ended: the data outlives the functions.
    pub held: bool,
    /// The run's settings the walk saw (as the engine describes them): the
    /// parent follows the plan only when its own are the same.
    pub settings: String,
    /// Each `criterion_group!` target's jobs, in the order they ran.
    pub targets: Vec<PlannedTarget>,
}

crate::json_object!(Plan {
    version,
    refused,
    held,
    settings,
    targets,
});

/// What one target function defined, and the one run setting a group's
/// configuration commonly changes.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedTarget {
    /// Its group makes plots (`with_plots`, `without_plots`).
    pub plots: bool,
    /// Its benchmarks and group ends, in order.
    pub jobs: Vec<PlannedJob>,
}

crate::json_object!(PlannedTarget { plots, jobs });

/// This version of [`Plan`].
pub const PLAN_VERSION: u64 = 1;

/// The variable naming the file a walking child writes its [`Plan`] to.
pub const PLAN_ENV: &str = "YARDSTICK_PLAN_FILE";

/// One thing a target defined, to be done in order.
// One per benchmark, read once: boxing the settings would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum PlannedJob {
    /// A benchmark and its settings.
    Benchmark {
        /// Who it is (its `benchmark.json`).
        id: BenchmarkRecord,
        /// Its settings.
        config: PlannedConfig,
    },
    /// A group's end, whose summary needs its members' times.
    GroupEnd {
        /// The group's name.
        name: String,
        /// Its members in order; a planned one's time is `null`.
        members: Vec<PlannedMember>,
        /// (index in `members`, job number in the target) of the planned
        /// members.
        waiting: Vec<[u64; 2]>,
        /// The group's summary compares members by id.
        compare_by_id: bool,
        /// The group's plot is on a log scale.
        log_scale: bool,
        /// The group's "at least N times faster" requirements.
        requirements: Vec<PlannedRequirement>,
    },
}

crate::json_tagged!(PlannedJob, "job", {
    Benchmark "benchmark" { id, config },
    GroupEnd "group_end" { name, members, waiting, compare_by_id, log_scale, requirements },
});

/// A member of a group's summary.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedMember {
    /// As printed.
    pub title: String,
    /// Its function, when it has one.
    pub function: Option<String>,
    /// Its parameter, when it has one.
    pub value: Option<String>,
    /// Its typical time; NaN (`null`) for a planned member.
    pub typical: f64,
}

crate::json_object!(PlannedMember {
    title,
    function,
    value,
    typical,
});

/// `fast` is to be at least `factor` times faster than `slow`.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedRequirement {
    /// The faster member's title.
    pub fast: String,
    /// The slower member's title.
    pub slow: String,
    /// How many times faster.
    pub factor: f64,
}

crate::json_object!(PlannedRequirement { fast, slow, factor });

/// A benchmark's settings, as the engine's configuration holds them
/// (times in nanoseconds). Extra metrics are not here: a benchmark that
/// reads them is measured in its own process and is never planned.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedConfig {
    #[allow(missing_docs)]
    pub confidence_level: f64,
    #[allow(missing_docs)]
    pub measurement_time_ns: u64,
    #[allow(missing_docs)]
    pub noise_threshold: f64,
    #[allow(missing_docs)]
    pub nresamples: u64,
    #[allow(missing_docs)]
    pub sample_size: u64,
    #[allow(missing_docs)]
    pub significance_level: f64,
    #[allow(missing_docs)]
    pub significance_explicit: bool,
    #[allow(missing_docs)]
    pub warm_up_time_ns: u64,
    /// `auto`, `linear` or `flat`.
    pub sampling_mode: String,
    #[allow(missing_docs)]
    pub quick_mode: bool,
    #[allow(missing_docs)]
    pub explicit_plan: bool,
    #[allow(missing_docs)]
    pub target_precision: f64,
    #[allow(missing_docs)]
    pub timeout_ns: u64,
    #[allow(missing_docs)]
    pub min_time_ns: u64,
    #[allow(missing_docs)]
    pub processes: u64,
    #[allow(missing_docs)]
    pub stdev: Option<f64>,
    #[allow(missing_docs)]
    pub fail_if_slower: Option<f64>,
    #[allow(missing_docs)]
    pub fail_if_faster: Option<f64>,
    #[allow(missing_docs)]
    pub machine_drift: Option<f64>,
    #[allow(missing_docs)]
    pub fixed_iters: Option<u64>,
}

crate::json_object!(PlannedConfig {
    confidence_level,
    measurement_time_ns,
    noise_threshold,
    nresamples,
    sample_size,
    significance_level,
    significance_explicit,
    warm_up_time_ns,
    sampling_mode,
    quick_mode,
    explicit_plan,
    target_precision,
    timeout_ns,
    min_time_ns,
    processes,
    stdev,
    fail_if_slower,
    fail_if_faster,
    machine_drift,
    fixed_iters,
});

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> PlannedConfig {
        PlannedConfig {
            confidence_level: 0.95,
            measurement_time_ns: 5_000_000_000,
            noise_threshold: 0.01,
            nresamples: 100_000,
            sample_size: 100,
            significance_level: 0.05,
            significance_explicit: false,
            warm_up_time_ns: 3_000_000_000,
            sampling_mode: "auto".into(),
            quick_mode: false,
            explicit_plan: false,
            target_precision: 0.01,
            timeout_ns: 5_000_000_000,
            min_time_ns: 100_000_000,
            processes: 10,
            stdev: None,
            fail_if_slower: Some(0.1),
            fail_if_faster: None,
            machine_drift: Some(0.034),
            fixed_iters: None,
        }
    }

    /// Hostile names (quotes, a newline, a lone surrogate's replacement,
    /// a NUL) and NaN members come back as they went.
    #[test]
    fn a_plan_reads_back_as_written() {
        let id = BenchmarkRecord {
            group_id: "g\"r\\oup\n\u{0}".into(),
            function_id: Some("f/\u{fffd}".into()),
            value_str: None,
            throughput: None,
            full_id: "g\"r\\oup\n\u{0}/f/\u{fffd}".into(),
            directory_name: "g_r_oup__/f__".into(),
            title: "g\"r\\oup\n\u{0}/f/\u{fffd}".into(),
        };
        let plan = Plan {
            version: PLAN_VERSION,
            refused: None,
            held: true,
            settings: "(Benchmark, \"x\")".into(),
            targets: vec![
                PlannedTarget {
                    plots: false,
                    jobs: vec![
                        PlannedJob::Benchmark {
                            id,
                            config: config(),
                        },
                        PlannedJob::GroupEnd {
                            name: "g".into(),
                            members: vec![PlannedMember {
                                title: "g/f".into(),
                                function: Some("f".into()),
                                value: Some("20".into()),
                                typical: f64::NAN,
                            }],
                            waiting: vec![[0, 0]],
                            compare_by_id: true,
                            log_scale: false,
                            requirements: vec![PlannedRequirement {
                                fast: "a".into(),
                                slow: "b".into(),
                                factor: 2.5,
                            }],
                        },
                    ],
                },
                PlannedTarget {
                    plots: true,
                    jobs: Vec::new(),
                },
            ],
        };
        let text = crate::json::to_string(&plan);
        let back: Plan = crate::json::from_str(&text).unwrap();
        // NaN is not equal to itself: compare the rest, then the NaN.
        let PlannedJob::GroupEnd { members, .. } = &back.targets[0].jobs[1] else {
            panic!("{back:?}");
        };
        assert!(members[0].typical.is_nan());
        let mut a = plan.clone();
        let mut b = back.clone();
        for p in [&mut a, &mut b] {
            if let PlannedJob::GroupEnd { members, .. } = &mut p.targets[0].jobs[1] {
                members[0].typical = 0.0;
            }
        }
        assert_eq!(a, b);
    }

    #[test]
    fn a_refused_plan_says_why_and_an_unknown_job_is_an_error() {
        let text = r#"{"version":1,"refused":"because","held":false,"settings":"","targets":[]}"#;
        let plan: Plan = crate::json::from_str(text).unwrap();
        assert_eq!(plan.refused.as_deref(), Some("because"));
        let bad = r#"{"version":1,"refused":null,"held":false,"settings":"","targets":[{"plots":true,"jobs":[{"job":"other"}]}]}"#;
        let err = crate::json::from_str::<Plan>(bad).unwrap_err().to_string();
        assert!(err.contains("unknown job `other`"), "{err}");
    }
}

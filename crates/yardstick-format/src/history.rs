//! One run of the history, as `cargo yardstick history --export DIR` writes
//! it and `cargo yardstick import yardstick DIR` reads it back: one JSON
//! file per run, so that results of many machines can be gathered in a git
//! branch (as airspeed velocity keeps its results) and merged into one
//! history without conflicts.
//!
//! The format is described by `schemas/history-run.v1.json` (JSON Schema,
//! checked by the tests). Adding an optional field keeps version 1; a change
//! that removes or renames a field makes a new version and a new schema file.
//!
//! ```
//! use yardstick_format::history::{ExportedRun, Machine, RUN_VERSION};
//!
//! let json = r#"{"version":1,"uid":"3f2a","machine":{"name":"ci-linux","cpu":"",
//!   "cores":2,"os":"linux x86_64"},"time":1700000000,"commit":null,"branch":null,
//!   "dirty":false,"rustc":"rustc 1.80.0","config":"bench","source":"bench",
//!   "label":null,"benchmarks":[{"name":"fib/20","unit":"ns",
//!   "typical":{"point":12.5,"lower":12.0,"upper":13.0},"iters":[],"values":[]}]}"#;
//! let run: ExportedRun = yardstick_format::json::from_str(json)?;
//! assert_eq!(run.version, RUN_VERSION);
//! assert_eq!(run.machine.name, "ci-linux");
//! run.validate().expect("a valid run");
//! # Ok::<(), yardstick_format::json::Error>(())
//! ```

/// The version of the exported run format (and of its schema file).
pub const RUN_VERSION: u32 = 1;

/// One recorded run with its context and every benchmark's result.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedRun {
    /// The format's version: [`RUN_VERSION`].
    pub version: u32,
    /// The run's identity, the same in every history it is merged into:
    /// importing a run whose `uid` is already there changes nothing.
    pub uid: String,
    /// The machine the run was made on; series never mix machines.
    pub machine: Machine,
    /// When the run was made, in seconds since the Unix epoch.
    pub time: i64,
    /// The git commit measured, if the run was made in a repository.
    pub commit: Option<String>,
    /// The git branch, if on one.
    pub branch: Option<String>,
    /// Whether the work tree had uncommitted changes.
    pub dirty: bool,
    /// `rustc --version`.
    pub rustc: String,
    /// The command line and settings, as text.
    pub config: String,
    /// What produced the run: `bench`, `exec` or an import format.
    pub source: String,
    /// A name given with `--label`, if any.
    pub label: Option<String>,
    /// The shard of the suite this run measured (`hash:2/3`, from
    /// `--partition`; [`crate::partition`]); absent or `null` for a whole
    /// suite. `import yardstick` merges a suite's shards into one run.
    pub shard: Option<String>,
    /// The machine's state over the run (governor, load, steal…), the
    /// same record `cargo yardstick doctor` reads; absent for runs
    /// recorded before it was kept and for imported results.
    pub state: Option<crate::doctor::MachineState>,
    /// How the run's bench binaries were built ([`crate::build`]); absent
    /// for a run without a record.
    pub build: Option<crate::build::BuildFile>,
    /// The benchmarks' results.
    pub benchmarks: Vec<ExportedBenchmark>,
}

crate::json_object!(ExportedRun {
    version,
    uid,
    machine,
    time,
    commit,
    branch,
    dirty,
    rustc,
    config,
    source,
    label,
    shard,
    state (skip),
    build (skip),
    benchmarks
});

/// Where a run was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// The machine's name: `YARDSTICK_MACHINE`, else the host name.
    pub name: String,
    /// The CPU model (empty when unknown).
    pub cpu: String,
    /// Logical cores (0 when unknown).
    pub cores: i64,
    /// Operating system and architecture.
    pub os: String,
}

crate::json_object!(Machine {
    name,
    cpu,
    cores,
    os
});

/// A machine's kind, in words: its name with CPU, cores and OS
/// (`ci-linux (AMD EPYC 7763, 4 cores, linux x86_64)`). Shards of a suite
/// are merged only within one kind: a CI label (`YARDSTICK_MACHINE`) may
/// hand out runners of different CPUs, and their times are not one
/// series.
#[must_use]
pub fn machine_kind(m: &Machine) -> String {
    let cpu = if m.cpu.is_empty() {
        "unknown CPU"
    } else {
        &m.cpu
    };
    format!("{} ({cpu}, {} cores, {})", m.name, m.cores, m.os)
}

/// One benchmark's result in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedBenchmark {
    /// The benchmark's id.
    pub name: String,
    /// Unit of the values (`ns`, `instructions`, …).
    pub unit: String,
    /// The typical per-iteration value with its confidence interval.
    pub typical: Typical,
    /// Iterations of each sample (empty when the source kept none).
    pub iters: Vec<f64>,
    /// Total measured value of each sample, in `unit`.
    pub values: Vec<f64>,
    /// The instructions per iteration `--explain` counted for it in this
    /// run; absent when the run did not explain it.
    pub instructions: Option<Instructions>,
}

crate::json_object!(ExportedBenchmark {
    name,
    unit,
    typical,
    iters,
    values,
    instructions (skip)
});

/// Instructions per iteration Callgrind counted for a benchmark
/// (`--explain`): in the binary of the baseline it was compared with and
/// in the run's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instructions {
    /// The baseline's binary's.
    pub baseline: f64,
    /// The run's binary's.
    pub current: f64,
}

crate::json_object!(Instructions { baseline, current });

/// A point estimate with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Typical {
    /// The estimate.
    pub point: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
}

crate::json_object!(Typical {
    point,
    lower,
    upper
});

impl ExportedRun {
    /// Checks what serde cannot: the version, a usable `uid`, a machine
    /// name, and benchmarks whose numbers are finite with an interval
    /// around the estimate and one value per iteration count.
    ///
    /// # Errors
    ///
    /// A sentence saying what is wrong (without the file name).
    pub fn validate(&self) -> Result<(), String> {
        if self.version != RUN_VERSION {
            return Err(format!(
                "format version {} is not {RUN_VERSION}, the one this yardstick reads",
                self.version
            ));
        }
        let uid_ok = !self.uid.is_empty()
            && self.uid.len() <= 64
            && self
                .uid
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !uid_ok {
            return Err(format!(
                "uid '{}' is not 1 to 64 letters, digits, '-' or '_'",
                self.uid
            ));
        }
        if self.machine.name.trim().is_empty() {
            return Err("the machine has no name".into());
        }
        if !(0..=MAX_CORES).contains(&self.machine.cores) {
            return Err(format!(
                "machine.cores: {} is not a number of cores (0 when unknown, at most {MAX_CORES})",
                self.machine.cores
            ));
        }
        if !(0..=LAST_SECOND).contains(&self.time) {
            return Err(format!(
                "time: {} is not a moment between 1970 and the year 9999 (seconds since the Unix epoch)",
                self.time
            ));
        }
        if let Some(shard) = &self.shard {
            crate::partition::Partition::parse(shard, "shard")?;
        }
        if self.benchmarks.is_empty() {
            return Err("the run has no benchmark".into());
        }
        let mut seen = std::collections::HashMap::new();
        for (i, b) in self.benchmarks.iter().enumerate() {
            if let Some(first) = seen.insert(b.name.as_str(), i) {
                return Err(format!(
                    "benchmarks[{i}]: '{}' is benchmarks[{first}] again; a run has one result per benchmark",
                    crate::names::one_line(&b.name)
                ));
            }
            b.validate().map_err(|e| format!("benchmarks[{i}] {e}"))?;
        }
        Ok(())
    }
}

/// More logical cores than any machine has.
const MAX_CORES: i64 = 1 << 20;
/// 9999-12-31 23:59:59 UTC: a later time is no moment a run was made (the
/// site would show the year 292277026596).
const LAST_SECOND: i64 = 253_402_300_799;

impl ExportedBenchmark {
    fn validate(&self) -> Result<(), String> {
        let t = self.typical;
        if self.name.is_empty() {
            return Err("has an empty name".into());
        }
        let name = crate::names::one_line(&self.name);
        if ![t.point, t.lower, t.upper].iter().all(|v| v.is_finite())
            || t.lower > t.point
            || t.point > t.upper
        {
            return Err(format!(
                "('{name}'): its typical value is not a finite number within a finite interval"
            ));
        }
        if t.lower < 0.0 {
            return Err(format!(
                "('{name}'): typical.lower {} is below zero; no time or count is",
                t.lower
            ));
        }
        if self.iters.len() != self.values.len()
            || self.iters.iter().any(|&i| !(i.is_finite() && i > 0.0))
            || self.values.iter().any(|v| !v.is_finite())
        {
            return Err(format!(
                "('{name}'): iters and values must be finite, as many of each, with positive iteration counts"
            ));
        }
        if let Some(at) = self.values.iter().position(|&v| v < 0.0) {
            return Err(format!(
                "('{name}'): values[{at}] {} is below zero; no time or count is",
                self.values[at]
            ));
        }
        if let Some(i) = self.instructions {
            if ![i.baseline, i.current]
                .iter()
                .all(|v| v.is_finite() && *v >= 0.0)
            {
                return Err(format!(
                    "('{name}'): instructions must be finite counts, zero or more"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> ExportedRun {
        ExportedRun {
            version: RUN_VERSION,
            uid: "a1".into(),
            machine: Machine {
                name: "m".into(),
                cpu: String::new(),
                cores: 0,
                os: "linux".into(),
            },
            time: 0,
            commit: Some("abc".into()),
            branch: None,
            dirty: true,
            rustc: String::new(),
            config: String::new(),
            source: "bench".into(),
            label: None,
            shard: None,
            state: None,
            build: None,
            benchmarks: vec![ExportedBenchmark {
                name: "b".into(),
                unit: "ns".into(),
                typical: Typical {
                    point: 2.0,
                    lower: 1.0,
                    upper: 3.0,
                },
                iters: vec![1.0, 2.0],
                values: vec![2.0, 4.0],
                instructions: Some(Instructions {
                    baseline: 16_014.0,
                    current: 48_020.0,
                }),
            }],
        }
    }

    #[test]
    fn round_trips_and_rejects_what_serde_lets_through() {
        let r = run();
        let text = crate::json::to_string(&r);
        assert_eq!(crate::json::from_str::<ExportedRun>(&text).unwrap(), r);
        assert_eq!(r.validate(), Ok(()));
        let bad = |f: fn(&mut ExportedRun)| {
            let mut r = run();
            f(&mut r);
            r.validate().unwrap_err()
        };
        assert!(bad(|r| r.version = 2).contains("version 2"));
        assert!(bad(|r| r.uid = "../x".into()).contains("uid"));
        assert!(bad(|r| r.machine.name = " ".into()).contains("machine"));
        assert!(bad(|r| r.benchmarks.clear()).contains("no benchmark"));
        assert!(bad(|r| r.shard = Some("hash:4/3".into()))
            .starts_with("shard: 'hash:4/3' names shard 4"));
        assert!(bad(|r| r.benchmarks[0].typical.lower = 2.5).contains("interval"));
        assert!(bad(|r| r.benchmarks[0].iters.pop().map_or((), drop)).contains("as many"));
        assert!(
            bad(|r| r.benchmarks[0].instructions.as_mut().unwrap().current = f64::NAN)
                .contains("instructions")
        );
    }

    /// What the second campaign's `import yardstick` let through; each
    /// refusal names the field.
    #[test]
    fn impossible_values_are_refused_with_the_field_named() {
        let bad = |f: fn(&mut ExportedRun)| {
            let mut r = run();
            f(&mut r);
            r.validate().unwrap_err()
        };
        let below = |r: &mut ExportedRun| {
            r.benchmarks[0].typical = Typical {
                point: -2.0,
                lower: -3.0,
                upper: -1.0,
            }
        };
        assert!(bad(below).starts_with("benchmarks[0] ('b'): typical.lower -3 is below zero"));
        let e = bad(|r| r.benchmarks[0].values[1] = -4.0);
        assert!(
            e.starts_with("benchmarks[0] ('b'): values[1] -4 is below zero"),
            "{e}"
        );
        for time in [i64::MAX, i64::MIN, -1, 253_402_300_800] {
            let mut r = run();
            r.time = time;
            let e = r.validate().unwrap_err();
            assert!(
                e.starts_with(&format!("time: {time} is not a moment")),
                "{e}"
            );
        }
        let mut r = run();
        r.time = 253_402_300_799; // 9999-12-31 23:59:59 UTC
        assert_eq!(r.validate(), Ok(()));
        assert!(bad(|r| r.machine.cores = -1).starts_with("machine.cores: -1 is not"));
        assert!(bad(|r| r.machine.cores = i64::MAX).starts_with("machine.cores: "));
        let twice = |r: &mut ExportedRun| {
            let again = r.benchmarks[0].clone();
            r.benchmarks.push(again);
        };
        assert!(bad(twice).starts_with("benchmarks[1]: 'b' is benchmarks[0] again"));
        let e = bad(|r| {
            r.benchmarks[0].name = "\u{1b}[2J".into();
            r.benchmarks[0].values[0] = -1.0;
        });
        assert!(
            e.starts_with("benchmarks[0] ('\\u{1b}[2J'): values[0]"),
            "{e}"
        );
    }
}

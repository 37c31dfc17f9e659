//! What one run records: its context and, per benchmark, samples and
//! estimates. Importers and `bench` produce these; the history stores them.

use yardstick_stats::{estimates, BootstrapConfig};

/// A typical value with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub point: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
}

impl Interval {
    /// A value measured exactly (an instruction count): no interval.
    #[must_use]
    pub fn exact(v: f64) -> Interval {
        Interval {
            point: v,
            lower: v,
            upper: v,
        }
    }
}

/// One benchmark's result in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchResult {
    /// The benchmark id (`group/function/value`, a command, a test name).
    pub name: String,
    /// Unit of the per-iteration values (`ns`, `instructions`, …).
    pub unit: String,
    /// Iterations of each sample (empty when the source kept no samples).
    pub iters: Vec<f64>,
    /// Total measured value of each sample, in `unit` (same length as
    /// `iters`).
    pub values: Vec<f64>,
    /// The typical per-iteration value (the slope under linear sampling,
    /// else the mean) with its interval.
    pub typical: Interval,
    /// The worker process of each sample, when the harness sampled in
    /// several (runs are then compared process against process).
    pub processes: Option<Vec<u32>>,
}

impl BenchResult {
    /// A result whose typical value is computed from its samples: the mean
    /// of the per-iteration values with a bootstrap interval (fixed seed).
    ///
    /// # Errors
    ///
    /// A sentence when there are no samples or a value is not finite.
    pub fn from_samples(
        name: String,
        unit: String,
        iters: Vec<f64>,
        values: Vec<f64>,
    ) -> Result<BenchResult, String> {
        if iters.is_empty() || iters.len() != values.len() {
            return Err(format!("benchmark '{name}' has no samples"));
        }
        if iters.iter().chain(&values).any(|v| !v.is_finite())
            || iters.iter().any(|&i| i <= 0.0)
            || values.iter().zip(&iters).any(|(v, i)| !(v / i).is_finite())
        {
            return Err(format!(
                "benchmark '{name}' has a sample that is not a finite number or has no iterations"
            ));
        }
        let typical = if iters.len() < 2 {
            Interval::exact(values[0] / iters[0])
        } else {
            let cfg = BootstrapConfig {
                nresamples: 2_000,
                ..BootstrapConfig::default()
            };
            match estimates(&iters, &values, false, &cfg) {
                Ok(e) => Interval {
                    point: e.mean.point,
                    lower: e.mean.lower,
                    upper: e.mean.upper,
                },
                Err(err) => return Err(format!("benchmark '{name}': {err}")),
            }
        };
        if ![typical.point, typical.lower, typical.upper]
            .iter()
            .all(|v| v.is_finite())
        {
            return Err(format!(
                "benchmark '{name}': its mean is not a finite number (the samples overflow)"
            ));
        }
        Ok(BenchResult {
            name,
            unit,
            iters,
            values,
            typical,
            processes: None,
        })
    }

    /// A result known only by its summary (no samples).
    #[must_use]
    pub fn summary(name: String, unit: String, typical: Interval) -> BenchResult {
        BenchResult {
            name,
            unit,
            iters: Vec::new(),
            values: Vec::new(),
            typical,
            processes: None,
        }
    }

    /// The per-iteration values of the samples.
    #[must_use]
    pub fn averages(&self) -> Vec<f64> {
        self.values
            .iter()
            .zip(&self.iters)
            .map(|(v, i)| v / i)
            .collect()
    }
}

/// Where and how a run was made.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunMeta {
    /// Seconds since the Unix epoch.
    pub time: i64,
    /// Git commit hash, if in a repository.
    pub commit: Option<String>,
    /// Git branch, if on one.
    pub branch: Option<String>,
    /// Whether the work tree had uncommitted changes.
    pub dirty: bool,
    /// The machine's name (`YARDSTICK_MACHINE`, else the host name): a
    /// history keeps one series per benchmark and machine.
    pub machine: String,
    /// CPU model.
    pub cpu: String,
    /// Logical cores.
    pub cores: i64,
    /// Operating system.
    pub os: String,
    /// `rustc --version`.
    pub rustc: String,
    /// The configuration: command line and settings, as text.
    pub config: String,
    /// What produced the run: `bench` or the import format.
    pub source: String,
    /// A name given with `--label` (a baseline name), if any.
    pub label: Option<String>,
    /// The shard of the suite this run measured (`hash:2/3`), when it ran
    /// with `--partition`.
    pub shard: Option<String>,
    /// The machine's state over the run (governor, load, steal…;
    /// `crate::machine`), when it was read: runs made here by `bench` and
    /// `exec`, not imported results.
    pub state: Option<yardstick_format::doctor::MachineState>,
    /// How the bench binaries were built (the first saved folder's
    /// `build.json`); `None` for runs without a record (imports, runs of
    /// an earlier yardstick).
    pub build: Option<yardstick_format::build::BuildFile>,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its context.
    pub meta: RunMeta,
    /// Its benchmarks.
    pub results: Vec<BenchResult>,
    /// The benchmarks `--explain` counted in this run (empty without it).
    pub explained: Vec<Explained>,
}

/// One benchmark's instructions per iteration as `--explain` counted them
/// under Callgrind: in the baseline's binary it was compared with, and in
/// this run's.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    /// The benchmark id, as in [`BenchResult::name`].
    pub name: String,
    /// Instructions per iteration of the baseline's binary.
    pub baseline: f64,
    /// Instructions per iteration of this run's binary.
    pub current: f64,
}

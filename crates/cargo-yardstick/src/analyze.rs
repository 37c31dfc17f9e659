//! `cargo yardstick analyze`: every statistic of yardstick-stats over the
//! benchmarks of a raw.csv file.

use std::path::{Path, PathBuf};

use yardstick_stats::complexity::big_o;
use yardstick_stats::hypothesis::{mann_whitney_u, student_ci, welch};
use yardstick_stats::nanobench::err_fraction;
use yardstick_stats::univariate as u;
use yardstick_stats::{
    classify, compare, estimates, outlier_variance, BootstrapConfig, ChangeConfig, Estimate,
    StatsError, Verdict,
};

use crate::rawcsv::{self, Benchmark, InputError};
use yardstick_format::analyze::{
    BenchmarkReport, ChangeJson, ComplexityJson, Document, EstimateJson, MannWhitneyJson,
    OutlierVarianceJson, Percentiles, StudentJson, TukeyJson, WelchJson, VERSION,
};

use clap::Args;

/// `analyze` arguments.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A raw.csv file in the Criterion.rs format (one or more benchmarks).
    pub(crate) file: PathBuf,
    /// A raw.csv file of an earlier run to compare against.
    #[arg(long, value_name = "OLD.csv")]
    pub(crate) baseline: Option<PathBuf>,
    /// Confidence level of every interval, in percent.
    #[arg(long, default_value_t = 95.0, value_name = "PERCENT")]
    pub(crate) confidence: f64,
    /// Bootstrap resamples per estimate.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    pub(crate) nresamples: usize,
    /// Seed of the bootstrap; the same seed gives the same numbers.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub(crate) seed: u64,
    /// Relative changes of the mean within ± this fraction are noise.
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    pub(crate) noise_threshold: f64,
    /// p-value below which a change is significant.
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub(crate) significance_level: f64,
}

/// A validated `analyze` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzeConfig {
    /// The file to analyze.
    pub file: PathBuf,
    /// The baseline file, if any.
    pub baseline: Option<PathBuf>,
    /// Confidence level as a fraction (0.95).
    pub confidence: f64,
    /// Bootstrap resamples.
    pub nresamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Noise threshold as a fraction.
    pub noise_threshold: f64,
    /// Significance level.
    pub significance: f64,
}

/// A statistic with its interval, as the document writes it.
fn estimate_json(e: Estimate) -> EstimateJson {
    EstimateJson {
        point: e.point,
        lower: e.lower,
        upper: e.upper,
        confidence: e.confidence,
    }
}

/// Reads the files named in `cfg` and analyzes them.
///
/// # Errors
///
/// [`InputError`] naming the file and line of bad input.
pub fn run(cfg: &AnalyzeConfig) -> Result<Document, InputError> {
    let benches = rawcsv::read(&cfg.file)?;
    let baseline = match &cfg.baseline {
        Some(path) => Some((path.as_path(), rawcsv::read(path)?)),
        None => None,
    };
    analyze(
        &cfg.file,
        &benches,
        baseline.as_ref().map(|(p, b)| (*p, b.as_slice())),
        cfg,
    )
}

/// Analyzes parsed benchmarks; `baseline` pairs the baseline file's path
/// (for messages) with its benchmarks.
///
/// # Errors
///
/// [`InputError`] when a benchmark cannot be analyzed (fewer than two
/// samples; a baseline with zero mean or a different unit).
pub fn analyze(
    path: &Path,
    benches: &[Benchmark],
    baseline: Option<(&Path, &[Benchmark])>,
    cfg: &AnalyzeConfig,
) -> Result<Document, InputError> {
    let mut reports = Vec::with_capacity(benches.len());
    for bench in benches {
        let mut report = analyze_one(path, bench, cfg)?;
        if let Some((base_path, base)) = baseline {
            if let Some(old) = base.iter().find(|b| {
                b.group == bench.group && b.function == bench.function && b.value == bench.value
            }) {
                report.change = Some(change(path, bench, base_path, old, cfg)?);
            }
        }
        reports.push(report);
    }
    attach_complexity(benches, &mut reports);
    Ok(Document {
        version: VERSION,
        benchmarks: reports,
    })
}

fn stats_error(path: &Path, bench: &Benchmark, e: &StatsError) -> InputError {
    let message = match e {
        StatsError::TooFewSamples { needed, got } => format!(
            "benchmark `{}` has {got} sample{}; at least {needed} are needed",
            bench.id(),
            if *got == 1 { "" } else { "s" }
        ),
        other => format!("benchmark `{}`: {other}", bench.id()),
    };
    InputError::at(path, bench.first_line, message)
}

fn analyze_one(
    path: &Path,
    bench: &Benchmark,
    cfg: &AnalyzeConfig,
) -> Result<BenchmarkReport, InputError> {
    let avg = bench.per_iteration();
    // Flat sampling (every sample the same iteration count) has no slope.
    let linear = bench.iters.iter().any(|&n| n != bench.iters[0]);
    let bcfg = BootstrapConfig {
        nresamples: cfg.nresamples,
        confidence: cfg.confidence,
        seed: cfg.seed,
    };
    let est = estimates(&bench.iters, &bench.values, linear, &bcfg)
        .map_err(|e| stats_error(path, bench, &e))?;
    let pct = |p| u::percentile(&avg, p).unwrap_or(f64::NAN);
    let tukey = classify(&avg);
    let ov = outlier_variance(est.mean.point, est.std_dev.point, avg.len() as f64);
    Ok(BenchmarkReport {
        id: bench.id(),
        unit: bench.unit.clone(),
        n: avg.len(),
        mean: estimate_json(est.mean),
        median: estimate_json(est.median),
        std_dev: estimate_json(est.std_dev),
        mad: estimate_json(est.mad),
        slope: est.slope.map(estimate_json),
        r2: est.r2,
        percentiles: Percentiles {
            min: pct(0.0),
            p25: pct(25.0),
            p50: pct(50.0),
            p75: pct(75.0),
            max: pct(100.0),
        },
        tukey: TukeyJson {
            fences: tukey.fences.as_array(),
            low_severe: tukey.counts.low_severe,
            low_mild: tukey.counts.low_mild,
            high_mild: tukey.counts.high_mild,
            high_severe: tukey.counts.high_severe,
        },
        outlier_variance: OutlierVarianceJson {
            fraction: ov.fraction,
            class: ov.effect.as_str().to_owned(),
        },
        err_pct: err_fraction(&avg).unwrap_or(0.0) * 100.0,
        change: None,
        complexity: None,
    })
}

fn change(
    path: &Path,
    new: &Benchmark,
    base_path: &Path,
    old: &Benchmark,
    cfg: &AnalyzeConfig,
) -> Result<ChangeJson, InputError> {
    if old.unit != new.unit {
        return Err(InputError::at(
            base_path,
            old.first_line,
            format!(
                "benchmark `{}` is measured in `{}` here but in `{}` in {}",
                old.id(),
                old.unit,
                new.unit,
                path.display()
            ),
        ));
    }
    let (o, n) = (old.per_iteration(), new.per_iteration());
    // Size errors are reported against the file that is too small.
    for (p, b, s) in [(base_path, old, &o), (path, new, &n)] {
        if s.len() < 2 {
            return Err(stats_error(
                p,
                b,
                &StatsError::TooFewSamples {
                    needed: 2,
                    got: s.len(),
                },
            ));
        }
    }
    let ccfg = ChangeConfig {
        nresamples: cfg.nresamples,
        confidence: cfg.confidence,
        significance: cfg.significance,
        noise_threshold: cfg.noise_threshold,
        seed: cfg.seed,
    };
    let c = compare(&o, &n, &ccfg).map_err(|e| stats_error(base_path, old, &e))?;
    let w = welch(&n, &o).map_err(|e| stats_error(path, new, &e))?;
    let s = student_ci(&n, &o, cfg.confidence).map_err(|e| stats_error(path, new, &e))?;
    let m = mann_whitney_u(&n, &o).map_err(|e| stats_error(path, new, &e))?;
    Ok(ChangeJson {
        mean: estimate_json(c.mean),
        median: estimate_json(c.median),
        p_value: c.p_value,
        welch: WelchJson {
            t: w.t,
            df: w.df,
            p: w.p,
        },
        student: StudentJson {
            diff: s.diff,
            half_width: s.half_width,
            confidence: s.confidence,
        },
        mann_whitney: MannWhitneyJson { u: m.u, p: m.p },
        verdict: match c.verdict {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::NoChange => "no_change",
            Verdict::WithinNoise => "within_noise",
        }
        .to_owned(),
    })
}

/// Fits Big-O complexities per `(group, function)` over the benchmarks
/// whose `value` is a positive number, using each one's median
/// per-iteration value (nanobench fits the median too).
fn attach_complexity(benches: &[Benchmark], reports: &mut [BenchmarkReport]) {
    let size = |b: &Benchmark| {
        b.value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let mut done: Vec<(&str, &str)> = Vec::new();
    for b in benches {
        let key = (b.group.as_str(), b.function.as_str());
        if done.contains(&key) || size(b).is_none() {
            continue;
        }
        done.push(key);
        let members: Vec<usize> = benches
            .iter()
            .enumerate()
            .filter(|(_, o)| (o.group.as_str(), o.function.as_str()) == key && size(o).is_some())
            .map(|(i, _)| i)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let ns: Vec<f64> = members.iter().filter_map(|&i| size(&benches[i])).collect();
        let ys: Vec<f64> = members.iter().map(|&i| reports[i].median.point).collect();
        let Ok(fits) = big_o(&ns, &ys) else { continue };
        let json: Vec<ComplexityJson> = fits
            .into_iter()
            .map(|f| ComplexityJson {
                name: f.name,
                coefficient: f.coefficient,
                err_pct: f.normalized_rms * 100.0,
            })
            .collect();
        for &i in &members {
            reports[i].complexity = Some(
                json.iter()
                    .map(|c| ComplexityJson {
                        name: c.name.clone(),
                        coefficient: c.coefficient,
                        err_pct: c.err_pct,
                    })
                    .collect(),
            );
        }
    }
}

//! `cargo yardstick calibrate [--runs N] [--home DIR] [CARGO BENCH ARGS] [-- BENCH ARGS]`:
//! measures the machine's run-to-run drift per benchmark with A/A runs.
//!
//! The current tree's benches run N times as separate `cargo bench`
//! processes (with `--discard-baseline`, so no baseline is touched). Each
//! benchmark's typical estimate per run is collected from the harness's
//! messages, and its **relative drift** is the change between two future
//! runs of the same code that 95 % of pairs stay within — a prediction
//! bound from the spread of the N runs — and never less than the largest
//! change actually seen:
//!
//! ```text
//! s = standard deviation (n − 1) of ln(estimates)
//! relative_drift = max(exp(t(0.975, N − 1) · √2 · s) − 1, max / min − 1)
//! ```
//!
//! A comparison against a saved baseline compares one run with another, so
//! the spread that matters is that of a difference of two runs (√2 · s),
//! and `s` from a handful of runs is uncertain, hence Student's t with
//! N − 1 degrees of freedom. The range alone (this command's first rule)
//! underestimates: with 5 runs under a compile on the other core it gave
//! ±7.4 %, and 45 % of later A/A comparisons still crossed it
//! (`compare/trust/run.py`). It is written to `<home>/<benchmark>/drift.json` as
//! `{"version": 1, "relative_drift": 0.06, "runs": 5, …}`, where the
//! harness reads it: a change within the drift is reported as within
//! machine drift rather than as a regression.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::runner::{self, Typical};

/// A validated `calibrate` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrateConfig {
    /// Runs of the suite.
    pub runs: usize,
    /// `--home DIR`, passed on to the benches.
    pub home: Option<PathBuf>,
    /// Everything else, for `cargo bench` (with its `--`).
    pub args: Vec<String>,
}

/// Takes `calibrate`'s own flags (`--runs`, `--home`, before any `--`) out
/// of the arguments.
///
/// # Errors
///
/// One line naming the flag.
pub fn parse(args: Vec<String>) -> Result<CalibrateConfig, String> {
    let mut runs = 5;
    let mut home = None;
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--" {
            rest.push(a);
            rest.extend(it.by_ref());
            break;
        }
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f == "--runs" || f == "--home" => (f.to_owned(), Some(v.to_owned())),
            _ => (a.clone(), None),
        };
        match flag.as_str() {
            "--runs" | "--home" => {
                let v = match inline {
                    Some(v) => v,
                    None => it.next().ok_or_else(|| format!("{flag} needs a value"))?,
                };
                if flag == "--runs" {
                    runs = v
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n >= 2)
                        .ok_or_else(|| format!("--runs must be an integer ≥ 2, got '{v}'"))?;
                } else {
                    home = Some(PathBuf::from(v));
                }
            }
            _ => rest.push(a),
        }
    }
    Ok(CalibrateConfig {
        runs,
        home,
        args: rest,
    })
}

/// The relative drift of one benchmark's estimates over the runs: the 95 %
/// prediction bound of the change between two further runs, and at least
/// `max / min − 1` (see the module). `None` with fewer than two estimates
/// or a value that is not a positive finite number.
#[must_use]
pub fn relative_drift(estimates: &[f64]) -> Option<f64> {
    if estimates.len() < 2 || estimates.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
        return None;
    }
    let min = estimates.iter().copied().fold(f64::INFINITY, f64::min);
    let max = estimates.iter().copied().fold(0.0, f64::max);
    if max == min {
        // No spread at all (exact counts); the logs' mean would leave a
        // rounding residue.
        return Some(0.0);
    }
    let logs: Vec<f64> = estimates.iter().map(|v| v.ln()).collect();
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let s = (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let t = yardstick_stats::distributions::t_quantile(0.975, n - 1.0);
    let predicted = (t * std::f64::consts::SQRT_2 * s).exp() - 1.0;
    Some(predicted.max(max / min - 1.0))
}

/// One benchmark's calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    /// The benchmark id.
    pub id: String,
    /// Its folder under the home directory (where `drift.json` goes).
    pub folder: PathBuf,
    /// Typical estimate per run, in run order.
    pub estimates: Vec<f64>,
    /// Their unit.
    pub unit: String,
    /// The relative drift (see [`relative_drift`]), when measurable.
    pub drift: Option<f64>,
}

/// The folder of a benchmark: its `report_directory` without the trailing
/// `report`, resolved against `base` when relative.
fn folder(t: &Typical, base: &Path) -> PathBuf {
    let r = Path::new(&t.report_directory);
    let dir = if r.file_name().is_some_and(|n| n == "report") {
        r.parent().unwrap_or(r)
    } else {
        r
    };
    base.join(dir)
}

/// Groups the runs' messages by benchmark.
#[must_use]
pub fn collect(runs: &[Vec<Typical>], base: &Path) -> Vec<Drift> {
    let mut by: BTreeMap<String, Drift> = BTreeMap::new();
    for run in runs {
        for t in run {
            let d = by.entry(t.id.clone()).or_insert_with(|| Drift {
                id: t.id.clone(),
                folder: folder(t, base),
                estimates: Vec::new(),
                unit: t.unit.clone(),
                drift: None,
            });
            d.estimates.push(t.estimate);
        }
    }
    by.into_values()
        .map(|mut d| {
            d.drift = relative_drift(&d.estimates);
            d
        })
        .collect()
}

/// Writes `drift.json` into the benchmark's folder, atomically.
///
/// # Errors
///
/// One line naming the file.
pub fn write(d: &Drift, drift: f64) -> Result<PathBuf, String> {
    let path = d.folder.join("drift.json");
    let doc = serde_json::json!({
        "version": 1,
        "relative_drift": drift,
        "runs": d.estimates.len(),
        "definition": "95% prediction bound of the change between two runs: max(exp(t(0.975, runs-1) * sqrt(2) * sd(ln estimates)) - 1, max/min - 1)",
        "estimates": d.estimates,
        "unit": d.unit,
    });
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
    crate::atomic::write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

fn pct(x: f64) -> String {
    format!("±{:.1}%", x * 100.0)
}

/// The plain-text table.
#[must_use]
pub fn table(drifts: &[Drift]) -> String {
    let rows: Vec<[String; 5]> = drifts
        .iter()
        .map(|d| {
            let min = d.estimates.iter().copied().fold(f64::INFINITY, f64::min);
            let max = d
                .estimates
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            [
                d.id.clone(),
                d.estimates.len().to_string(),
                format!("{min:.4} {}", d.unit),
                format!("{max:.4} {}", d.unit),
                d.drift
                    .map_or_else(|| "not measurable (fewer than 2 runs)".to_owned(), pct),
            ]
        })
        .collect();
    let head = ["benchmark", "runs", "fastest", "slowest", "drift"].map(str::to_owned);
    let mut w = head.clone().map(|c| c.chars().count());
    for r in &rows {
        for (w, c) in w.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in std::iter::once(&head).chain(&rows) {
        let line = format!(
            "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// Runs `calibrate`; returns the exit status.
///
/// # Errors
///
/// The exit status and one line.
pub fn run(cfg: &CalibrateConfig) -> Result<u8, (u8, String)> {
    let (cargo_args, bench_args) = runner::split(&cfg.args);
    let cwd = std::env::current_dir().map_err(|e| (1, format!("no working directory: {e}")))?;
    let home = cfg.home.as_ref().map(|h| cwd.join(h));
    let scratch = std::env::temp_dir().join(format!("yardstick-calibrate-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| (1, format!("{}: cannot create: {e}", scratch.display())))?;
    let mut runs = Vec::new();
    let mut all_ok = true;
    for i in 0..cfg.runs {
        eprintln!("calibrate: run {}/{}", i + 1, cfg.runs);
        let file = scratch.join(format!("run-{i}.jsonl"));
        let mut c = Command::new(runner::cargo());
        c.arg("bench").args(cargo_args);
        if !runner::selects_targets(cargo_args) {
            // Only the bench targets (`--bench "*"`) understand the harness's flags; the
            // library's libtest harness would reject them.
            c.args(["--bench", "*"]);
        }
        c.arg("--")
            .args(["--message-format", "json", "--message-file"])
            .arg(&file)
            .arg("--discard-baseline");
        if let Some(h) = &home {
            c.arg("--home").arg(h);
        }
        c.args(bench_args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        let status = c.status().map_err(|e| {
            (
                1,
                format!(
                    "cannot run `{} bench`: {e}; is cargo on PATH?",
                    runner::cargo()
                ),
            )
        })?;
        if !status.success() {
            all_ok = false;
            eprintln!("warning: run {} of cargo bench exited with {status}", i + 1);
        }
        let t = runner::read_typicals(&file).map_err(|e| (1, e));
        let _ = std::fs::remove_file(&file);
        runs.push(t?);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let drifts = collect(&runs, &cwd);
    if drifts.is_empty() {
        return Err((
            2,
            "no benchmark reported a result; nothing was calibrated".into(),
        ));
    }
    let mut written = 0;
    for d in &drifts {
        if let Some(x) = d.drift {
            write(d, x).map_err(|e| (1, e))?;
            written += 1;
        }
    }
    print!("{}", table(&drifts));
    eprintln!(
        "wrote drift.json for {written} of {} benchmarks ({} runs each)",
        drifts.len(),
        cfg.runs
    );
    Ok(u8::from(!all_ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_is_the_prediction_bound_of_a_run_to_run_change() {
        // numpy/scipy: s = np.log([100, 102, 98, 101, 99]).std(ddof=1) =
        // 0.0158135, t.ppf(0.975, 4) = 2.7764451; exp(t·√2·s) − 1 =
        // 0.0640595, wider than the range 102/98 − 1 = 0.0408.
        let d = relative_drift(&[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
        assert!((d - 0.064_059_5).abs() < 1e-6, "{d}");
        // Two runs say little: t.ppf(0.975, 1) = 12.7062; s of ln 10, ln
        // 10.5 = 0.0344999; exp(12.7062·√2·0.0345) − 1 = 0.858812.
        let d = relative_drift(&[10.0, 10.5]).unwrap();
        assert!((d - 0.858_812).abs() < 1e-4, "{d}");
        assert_eq!(relative_drift(&[5.0, 5.0]), Some(0.0));
        assert_eq!(relative_drift(&[5.0]), None);
        assert_eq!(relative_drift(&[5.0, 0.0]), None);
    }

    #[test]
    fn flags_are_taken_out_and_the_rest_kept() {
        let c = parse(
            [
                "--runs", "7", "--bench", "fib", "--home=h", "--", "--runs", "x",
            ]
            .map(String::from)
            .to_vec(),
        )
        .unwrap();
        assert_eq!(c.runs, 7);
        assert_eq!(c.home, Some(PathBuf::from("h")));
        assert_eq!(c.args, ["--bench", "fib", "--", "--runs", "x"]);
        assert!(parse(vec!["--runs".into(), "1".into()]).is_err());
        assert_eq!(parse(Vec::new()).unwrap().runs, 5);
    }

    #[test]
    fn folders_drop_the_report_suffix() {
        let t = Typical {
            id: "g/a".into(),
            estimate: 1.0,
            unit: "ns".into(),
            report_directory: "/h/g/a/report".into(),
        };
        let d = collect(&[vec![t.clone()], vec![t]], Path::new("/cwd"));
        assert_eq!(d[0].folder, PathBuf::from("/h/g/a"));
        assert_eq!(d[0].drift, Some(0.0));
    }
}

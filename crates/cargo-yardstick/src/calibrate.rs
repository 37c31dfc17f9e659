//! `cargo yardstick calibrate [--runs N] [--home DIR] [CARGO BENCH ARGS] [-- BENCH ARGS]`:
//! measures the machine's run-to-run drift per benchmark with A/A runs.
//!
//! The current tree's benches run N times as separate `cargo bench`
//! processes (with `--discard-baseline`, so no baseline is touched). Each
//! benchmark's typical estimate per run is collected from the harness's
//! messages, and its **relative drift** is the change between two future
//! runs of the same code that 95 % of pairs stay within — a prediction
//! bound from the spread of the N runs — and never less than the largest
//! change actually seen ([`yardstick_stats::drift`] has the formula and
//! its reasons). The range alone (this command's first rule) underestimates: with 5 runs under a compile on the other core it gave
//! ±7.4 %, and 45 % of later A/A comparisons still crossed it
//! (`compare/trust/run.py`). It is written to `<home>/<benchmark>/drift.json` as
//! `{"version": 1, "relative_drift": 0.06, "runs": 5, …}`, where the
//! harness reads it: a change within the drift is reported as within
//! machine drift rather than as a regression.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use yardstick_format::drift::DriftFile;
use yardstick_stats::drift::relative_drift;

use crate::runner::{self, Typical};

/// A validated `calibrate` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrateConfig {
    /// Runs of the suite.
    pub runs: usize,
    /// `--home DIR`, passed on to the benches.
    pub home: Option<PathBuf>,
    /// `--layouts[=N]`: measure the layout spread in N layouts instead of
    /// the drift between runs.
    pub layouts: Option<usize>,
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
    let (own, rest) =
        crate::args::take_own_flags(bare_layouts(args), &["--runs", "--home", "--layouts"])?;
    let (mut runs, mut home, mut layouts) = (5, None, None);
    for (flag, v) in own {
        if flag == "--layouts" {
            layouts = Some(
                v.parse::<usize>()
                    .ok()
                    .filter(|n| (2..=64).contains(n))
                    .ok_or_else(|| {
                        format!("--layouts must be an integer from 2 to 64, got '{v}'")
                    })?,
            );
        } else if flag == "--runs" {
            runs = v
                .parse::<usize>()
                .ok()
                .filter(|n| *n >= 2)
                .ok_or_else(|| format!("--runs must be an integer ≥ 2, got '{v}'"))?;
        } else {
            home = Some(PathBuf::from(v));
        }
    }
    Ok(CalibrateConfig {
        runs,
        home,
        layouts,
        args: rest,
    })
}

/// `--layouts` without a number (before any `--`) as `--layouts=8`.
fn bare_layouts(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    while let Some(a) = it.next() {
        if a == "--" {
            out.push(a);
            out.extend(it.by_ref());
            break;
        }
        let numbered = it.peek().is_some_and(|n| n.parse::<usize>().is_ok());
        if a == "--layouts" && !numbered {
            out.push(format!("--layouts={}", crate::calibrate_layouts::DEFAULT));
        } else {
            out.push(a);
        }
    }
    out
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
    let doc = DriftFile {
        version: yardstick_format::drift::VERSION,
        relative_drift: drift,
        runs: d.estimates.len(),
        definition: yardstick_stats::drift::DEFINITION.to_owned(),
        estimates: d.estimates.clone(),
        unit: d.unit.clone(),
    };
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
    if let Some(n) = cfg.layouts {
        return crate::calibrate_layouts::run(&cfg.args, cfg.home.as_deref(), n);
    }
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
        assert_eq!(parse(Vec::new()).unwrap().layouts, None);
    }

    #[test]
    fn layouts_take_an_optional_number() {
        let p = |a: &[&str]| parse(a.iter().map(|s| (*s).to_owned()).collect());
        assert_eq!(p(&["--layouts"]).unwrap().layouts, Some(8));
        let c = p(&["--layouts", "--bench", "fib"]).unwrap();
        assert_eq!(
            (c.layouts, c.args),
            (Some(8), vec!["--bench".to_owned(), "fib".to_owned()])
        );
        assert_eq!(p(&["--layouts", "4"]).unwrap().layouts, Some(4));
        assert_eq!(p(&["--layouts=6"]).unwrap().layouts, Some(6));
        assert_eq!(p(&["--", "--layouts"]).unwrap().layouts, None);
        assert_eq!(
            p(&["--layouts=1"]).unwrap_err(),
            "--layouts must be an integer from 2 to 64, got '1'"
        );
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

//! The pyperf template is read by the real pyperf: `stats`, `hist` and
//! `compare_to` (installed with pip when missing; skipped, saying so, only
//! when there is no python3 or no pip).

mod common;

use std::fs;
use std::process::Command;

use yardstick_report::{pyperf_json, RunResults};

/// `python3` with pyperf importable, installing it with pip if needed;
/// `None` (after printing why) when Python or pip is not there.
fn python_with_pyperf() -> Option<&'static str> {
    let python = "python3";
    let has = |args: &[&str]| {
        Command::new(python)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has(&["--version"]) {
        eprintln!("skipped: python3 is not installed, so pyperf cannot check the pyperf export");
        return None;
    }
    if has(&["-c", "import pyperf"]) {
        return Some(python);
    }
    if !has(&["-m", "pip", "--version"]) {
        eprintln!("skipped: pyperf is not installed and pip is not available to install it");
        return None;
    }
    let out = Command::new(python)
        .args(["-m", "pip", "install", "--quiet", "pyperf"])
        .output()
        .expect("run pip");
    assert!(
        out.status.success(),
        "pip install pyperf failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(has(&["-c", "import pyperf"]), "pyperf still not importable");
    Some(python)
}

fn pyperf(python: &str, args: &[&std::path::Path], command: &str) -> String {
    let out = Command::new(python)
        .args(["-m", "pyperf", command])
        .args(args)
        .output()
        .expect("run pyperf");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "pyperf {command} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The same run with every sample `factor` times slower.
fn slower(results: &RunResults, factor: f64) -> RunResults {
    let mut r = results.clone();
    for b in &mut r.benchmarks {
        for s in &mut b.samples {
            s.value *= factor;
            s.per_iteration *= factor;
        }
    }
    r
}

#[test]
fn pyperf_reads_the_export() {
    let Some(python) = python_with_pyperf() else {
        return;
    };
    let dir = common::fresh_dir("pyperf");
    let base = common::write_suite(&dir.join("home"));
    let new = slower(&base, 1.5);
    let base_file = dir.join("base.json");
    let new_file = dir.join("new.json");
    fs::write(&base_file, pyperf_json(&base)).unwrap();
    fs::write(&new_file, pyperf_json(&new)).unwrap();

    let stats = pyperf(python, &[&base_file], "stats");
    assert!(
        stats.contains(&format!("Number of benchmarks: {}", base.benchmarks.len())),
        "{stats}"
    );
    assert!(stats.contains("parse/json/10"), "{stats}");
    assert!(stats.contains("Mean +- std dev:"), "{stats}");
    // pyperf's own mean of the values is our mean time per iteration.
    let json10 = base
        .benchmarks
        .iter()
        .find(|b| b.id == "parse/json/10")
        .unwrap();
    let section = stats.split("parse/json/10\n").nth(1).unwrap();
    let mean_line = section
        .lines()
        .find(|l| l.starts_with("Mean +- std dev:"))
        .unwrap();
    let mut words = mean_line["Mean +- std dev:".len()..].split_whitespace();
    let value: f64 = words.next().unwrap().parse().unwrap();
    let ns = value
        * match words.next().unwrap() {
            "ns" => 1.0,
            "us" => 1e3,
            "ms" => 1e6,
            "sec" => 1e9,
            u => panic!("unit {u}"),
        };
    let rel = (ns - json10.mean.estimate).abs() / json10.mean.estimate;
    assert!(rel < 0.01, "{mean_line} vs {} ns", json10.mean.estimate);

    let hist = pyperf(python, &[&base_file], "hist");
    assert!(hist.contains("fib 20"), "{hist}");
    assert!(hist.contains('#'), "{hist}");

    let cmp = pyperf(python, &[&base_file, &new_file], "compare_to");
    assert!(cmp.contains("parse/json/10"), "{cmp}");
    assert!(cmp.contains("1.50x slower"), "{cmp}");
}

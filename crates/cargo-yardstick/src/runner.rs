//! Shared by `ab` and `calibrate`: find bench binaries (`ab`), run them with the
//! harness's machine channel (`--message-format json --message-file FILE`)
//! and read back each benchmark's typical estimate.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The cargo to run: `$CARGO` (set by cargo itself, or a stand-in in
/// tests), else `cargo` on PATH.
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Splits `args` at the first `--` into cargo's and the bench binary's.
pub fn split(args: &[String]) -> (&[String], &[String]) {
    match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[]),
    }
}

/// One finished benchmark, as the harness announced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Typical {
    /// The benchmark id.
    pub id: String,
    /// The typical time per iteration (slope, or mean under flat sampling).
    pub estimate: f64,
    /// Its unit.
    pub unit: String,
    /// `<home>/<directory_name>/report`, as written by the harness.
    pub report_directory: String,
}

/// Reads the `benchmark-complete` messages of a message file; other
/// messages are skipped. A missing file reads as no message.
///
/// # Errors
///
/// One line naming the file and line when a line is not a message.
pub fn read_typicals(file: &Path) -> Result<Vec<Typical>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: cannot read: {e}", file.display())),
    };
    parse_typicals(&text).map_err(|(line, e)| format!("{}:{line}: {e}", file.display()))
}

/// [`read_typicals`] on text; the error carries the 1-based line number.
pub fn parse_typicals(text: &str) -> Result<Vec<Typical>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| (i + 1, format!("not JSON: {e}")))?;
        if v["reason"] != "benchmark-complete" {
            continue;
        }
        let field = |name: &str| (i + 1, format!("benchmark-complete without {name}"));
        let id = v["id"].as_str().ok_or_else(|| field("id"))?;
        let estimate = v["typical"]["estimate"]
            .as_f64()
            .ok_or_else(|| field("typical.estimate"))?;
        out.push(Typical {
            id: id.to_owned(),
            estimate,
            unit: v["typical"]["unit"].as_str().unwrap_or("ns").to_owned(),
            report_directory: v["report_directory"].as_str().unwrap_or("").to_owned(),
        });
    }
    Ok(out)
}

/// A benchmark executable and the folder cargo runs it in (its package's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchBinary {
    /// The executable.
    pub executable: PathBuf,
    /// The package's folder, the working directory of `cargo bench`.
    pub package_dir: PathBuf,
    /// The package's enabled features as cargo built the target (its
    /// artifact message's `features`), sorted; `None` when not known.
    pub features: Option<Vec<String>>,
    /// The `opt-level` cargo compiled the target at (its artifact
    /// message's `profile.opt_level`): the harness's own record says the
    /// harness's, which a per-package override can set apart.
    pub opt_level: Option<String>,
}

/// The `bench` targets among the output of
/// `cargo bench --no-run --message-format=json`.
#[must_use]
pub fn bench_binaries(cargo_stdout: &str) -> Vec<BenchBinary> {
    let mut out = Vec::new();
    for line in cargo_stdout.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-artifact" {
            continue;
        }
        let is_bench = v["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "bench"));
        let (Some(exe), true) = (v["executable"].as_str(), is_bench) else {
            continue;
        };
        let package_dir = v["manifest_path"]
            .as_str()
            .and_then(|m| Path::new(m).parent())
            .map_or_else(|| PathBuf::from("."), Path::to_owned);
        let features = v["features"].as_array().map(|f| {
            let mut names: Vec<String> = f
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect();
            names.sort();
            names
        });
        let b = BenchBinary {
            executable: PathBuf::from(exe),
            package_dir,
            features,
            opt_level: v["profile"]["opt_level"].as_str().map(str::to_owned),
        };
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out
}

/// Builds the benches of the package or workspace in `dir` with
/// `cargo bench --no-run` and returns their binaries.
///
/// # Errors
///
/// One line when cargo cannot run or the build fails (cargo's own errors
/// are on stderr, which is inherited).
pub fn build(
    dir: &Path,
    target_dir: &Path,
    cargo_args: &[String],
    env: &[(String, std::ffi::OsString)],
) -> Result<Vec<BenchBinary>, String> {
    let out = Command::new(cargo())
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .args(["bench", "--no-run", "--message-format=json"])
        .args(cargo_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run `{} bench`: {e}; is cargo on PATH?", cargo()))?;
    if !out.status.success() {
        return Err(format!(
            "`cargo bench --no-run` failed in {} ({})",
            dir.display(),
            out.status
        ));
    }
    Ok(bench_binaries(&String::from_utf8_lossy(&out.stdout)))
}

/// Whether cargo's arguments already pick the targets to run.
pub(crate) fn selects_targets(cargo_args: &[String]) -> bool {
    const FLAGS: [&str; 10] = [
        "--bench",
        "--benches",
        "--lib",
        "--bin",
        "--bins",
        "--test",
        "--tests",
        "--example",
        "--examples",
        "--all-targets",
    ];
    cargo_args.iter().any(|a| {
        FLAGS
            .iter()
            .any(|f| a == f || a.starts_with(&format!("{f}=")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bench_artifacts_with_an_executable_are_kept() {
        let out = r#"{"reason":"compiler-artifact","target":{"kind":["lib"]},"executable":null,"manifest_path":"/p/Cargo.toml"}
{"reason":"compiler-artifact","target":{"kind":["bench"]},"profile":{"opt_level":"1","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":false},"features":["simd","default"],"executable":"/t/release/deps/spin-1","manifest_path":"/p/Cargo.toml"}
{"reason":"compiler-artifact","target":{"kind":["lib"]},"executable":"/t/release/deps/p-2","manifest_path":"/p/Cargo.toml"}
{"reason":"build-finished","success":true}
not json"#;
        assert_eq!(
            bench_binaries(out),
            vec![BenchBinary {
                executable: PathBuf::from("/t/release/deps/spin-1"),
                package_dir: PathBuf::from("/p"),
                features: Some(vec!["default".into(), "simd".into()]),
                opt_level: Some("1".into()),
            }]
        );
    }

    #[test]
    fn typicals_are_read_and_bad_lines_named() {
        let text = r#"{"reason":"benchmark-complete","id":"g/a","report_directory":"h/g/a/report","typical":{"estimate":12.5,"lower_bound":12,"upper_bound":13,"unit":"ns"}}
{"reason":"group-complete","group_name":"g","benchmarks":["g/a"],"report_directory":"h/g/report"}
"#;
        let t = parse_typicals(text).unwrap();
        assert_eq!(t.len(), 1);
        assert_eq!((t[0].id.as_str(), t[0].estimate), ("g/a", 12.5));
        assert_eq!(t[0].report_directory, "h/g/a/report");
        assert_eq!(parse_typicals("{}\n{").unwrap_err().0, 2);
        assert!(parse_typicals(r#"{"reason":"benchmark-complete","id":"x"}"#).is_err());
    }
}

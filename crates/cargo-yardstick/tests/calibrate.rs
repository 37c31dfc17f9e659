//! `calibrate` through the real binary with a stand-in cargo whose
//! benchmark drifts from run to run by known amounts.

mod common;
use std::path::Path;

use common::{bin, stderr, stdout};

/// A stand-in for `cargo bench`: the n-th call reports `g/spin` at the n-th
/// of `FAKE_LEVELS` and `g/flat` at 50 ns, with report directories under
/// the `--home` it was given.
fn fake_cargo(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("fake-cargo");
    std::fs::write(
        &script,
        r#"#!/bin/sh
prev=""; file=""; home=""; discard=0
for a in "$@"; do
  if [ "$prev" = "--message-file" ]; then file="$a"; fi
  if [ "$prev" = "--home" ]; then home="$a"; fi
  if [ "$a" = "--discard-baseline" ]; then discard=1; fi
  prev="$a"
done
[ "$discard" = 1 ] || { echo "calibrate must not touch baselines" >&2; exit 9; }
n=$(cat "$FAKE_COUNTER" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$FAKE_COUNTER"
level=$(echo "$FAKE_LEVELS" | cut -d' ' -f"$n")
ci() { echo "{\"estimate\":$1,\"lower_bound\":$1,\"upper_bound\":$1,\"unit\":\"ns\"}"; }
for b in "spin $level" "flat 50"; do
  set -- $b
  echo "{\"reason\":\"benchmark-complete\",\"id\":\"g/$1\",\"report_directory\":\"$home/g/$1/report\",\"iteration_count\":[1],\"measured_values\":[$2],\"unit\":\"ns\",\"throughput\":[],\"typical\":$(ci $2),\"mean\":$(ci $2),\"median\":$(ci $2),\"median_abs_dev\":$(ci 0),\"slope\":null,\"change\":null}" >> "$file"
done
echo '{"reason":"group-complete","group_name":"g","benchmarks":["g/spin","g/flat"],"report_directory":"'"$home"'/g/report"}' >> "$file"
"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

#[cfg(unix)]
#[test]
fn calibrate_writes_the_run_to_run_drift_of_each_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("home");
    let cargo = fake_cargo(dir.path());
    let o = bin()
        .args(["yardstick", "calibrate", "--runs", "5", "--home"])
        .arg(&h)
        .args(["--bench", "spin", "--", "--sample-size", "10"])
        .env("CARGO", &cargo)
        .env("FAKE_COUNTER", dir.path().join("counter"))
        .env("FAKE_LEVELS", "100 102 98 101 99")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |b: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(h.join("g").join(b).join("drift.json")).unwrap();
        let doc = serde_json::from_str(&text).unwrap();
        common::assert_schema("drift.v1.json", &doc);
        doc
    };
    let spin = read("spin");
    assert_eq!(spin["version"], 1);
    assert_eq!(spin["runs"], 5);
    let d = spin["relative_drift"].as_f64().unwrap();
    // The 95 % prediction bound of a run-to-run change, by numpy/scipy:
    // exp(t.ppf(0.975, 4) · √2 · np.log(levels).std(ddof=1)) − 1.
    assert!((d - 0.064_059_5).abs() < 1e-6, "{d}");
    assert_eq!(read("flat")["relative_drift"].as_f64(), Some(0.0));
    let out = stdout(&o);
    assert!(out.starts_with("benchmark"), "{out}");
    let line = out.lines().find(|l| l.starts_with("g/spin")).unwrap();
    assert!(line.ends_with("±6.4%"), "{out}");
    assert!(line.contains(" 5 "), "{out}");
    assert!(stderr(&o).contains("wrote drift.json for 2 of 2 benchmarks (5 runs each)"));
}

#[test]
fn calibrate_rejects_a_single_run() {
    let o = bin().args(["calibrate", "--runs", "1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--runs must be an integer ≥ 2"),
        "{}",
        stderr(&o)
    );
}

//! `exec --report`: each command's runs are saved under the home directory
//! in the Criterion.rs layout, as benchmark `exec/<name>` in the folder
//! `<home>/exec/<name>/` (`new/` with `sample.json`, `estimates.json`,
//! `benchmark.json`, `tukey.json`, `raw.csv`), so that `cargo yardstick
//! report` reads them like any benchmark; and their pages, the `exec` group
//! page and the index are written at once.
//!
//! As in a Criterion.rs run with the default baseline, `base/` holds the
//! previous run of the command: this run is compared with it (its page
//! shows the change, `change/estimates.json` keeps it) and then becomes
//! `base/`.

use std::path::{Path, PathBuf};

use crate::atomic::write_atomic;
use yardstick::frontend::{estimate_file, estimates_file};
use yardstick_format::criterion::{
    raw_csv, BenchmarkRecord, ChangeFile, RawRow, SamplingMode, SavedSample,
};
use yardstick_report::{write_benchmark_from_disk, write_group, write_index, RegenerateOptions};
use yardstick_stats::{classify, compare, estimates, BootstrapConfig, ChangeConfig};

/// The group every exec benchmark belongs to.
pub const GROUP: &str = "exec";

/// One command's runs: its name and wall times in nanoseconds.
pub struct Timed<'a> {
    /// The command's name (`--name`, or the command line).
    pub name: &'a str,
    /// Its runs, in nanoseconds.
    pub ns: &'a [f64],
}

/// Bootstrap settings of the report.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Resamples.
    pub nresamples: usize,
    /// Seed.
    pub seed: u64,
}

use yardstick_format::names::folder_component;

/// `benchmark.json` of command `name`.
#[must_use]
pub fn record(name: &str) -> BenchmarkRecord {
    let full_id = format!("{GROUP}/{name}");
    let title = yardstick_format::names::title(&full_id);
    BenchmarkRecord {
        group_id: GROUP.to_owned(),
        function_id: Some(name.to_owned()),
        value_str: None,
        throughput: None,
        directory_name: format!("{GROUP}/{}", folder_component(name)),
        full_id,
        title,
    }
}

fn json<T: serde::Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).expect("plain data serialises")
}

/// The five files of one run, by name.
fn files(t: &Timed<'_>, s: Settings) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let rec = record(t.name);
    let iters = vec![1.0; t.ns.len()];
    let cfg = BootstrapConfig {
        nresamples: s.nresamples,
        confidence: 0.95,
        seed: s.seed,
    };
    let e = estimates(&iters, t.ns, false, &cfg)
        .map_err(|e| format!("'{}': no report: {e}", t.name))?;
    let est = estimates_file(&e);
    let sample = SavedSample {
        sampling_mode: SamplingMode::Flat,
        iters,
        times: t.ns.to_vec(),
        processes: None,
        measurement: None,
    };
    let raw: Vec<RawRow> =
        t.ns.iter()
            .map(|&v| RawRow {
                group: GROUP.to_owned(),
                function: t.name.to_owned(),
                value: String::new(),
                throughput_num: None,
                throughput_type: None,
                sample_measured_value: v,
                unit: "ns".to_owned(),
                iteration_count: 1,
            })
            .collect();
    Ok(vec![
        ("sample.json", json(&sample)),
        ("estimates.json", json(&est)),
        ("benchmark.json", json(&rec)),
        ("tukey.json", json(&classify(t.ns).fences.as_array())),
        ("raw.csv", raw_csv(&raw).into_bytes()),
    ])
}

/// The previous run's samples (`base/`), when readable.
fn base_sample(dir: &Path) -> Option<SavedSample> {
    let text = std::fs::read(dir.join("base").join("sample.json")).ok()?;
    let s: SavedSample = serde_json::from_slice(&text).ok()?;
    s.validate().ok()?;
    Some(s)
}

/// Saves every command's runs under `home` and writes their pages, the
/// `exec` group page and the index; returns the index's path.
///
/// # Errors
///
/// One line naming the command or the file that could not be written.
pub fn write(home: &Path, timed: &[Timed<'_>], s: Settings) -> Result<PathBuf, String> {
    let opts = RegenerateOptions {
        nresamples: s.nresamples,
        seed: s.seed,
        ..RegenerateOptions::default()
    };
    for t in timed {
        let rec = record(t.name);
        let dir = home.join(&rec.directory_name);
        let files = files(t, s)?;
        let change = base_sample(&dir).map(|base| {
            compare(
                &base.averages(),
                t.ns,
                &ChangeConfig {
                    nresamples: s.nresamples,
                    confidence: 0.95,
                    significance: opts.significance,
                    noise_threshold: opts.noise_threshold,
                    seed: s.seed,
                },
            )
        });
        let change_path = dir.join("change").join("estimates.json");
        match &change {
            Some(Ok(c)) => {
                let file = ChangeFile {
                    mean: estimate_file(&c.mean),
                    median: estimate_file(&c.median),
                };
                write_atomic(&change_path, &json(&file))?;
            }
            Some(Err(e)) => {
                // Runs of zero time (all shell start-up) have no relative
                // change: the page is written without one.
                eprintln!(
                    "warning: '{}' not compared with its previous run: {e}",
                    yardstick_format::names::one_line(t.name)
                );
                let _ = std::fs::remove_file(&change_path);
            }
            None => {}
        }
        for (name, bytes) in &files {
            write_atomic(&dir.join("new").join(name), bytes)?;
        }
        let compared = matches!(change, Some(Ok(_)));
        if !compared {
            for (name, bytes) in &files {
                write_atomic(&dir.join("base").join(name), bytes)?;
            }
        }
        // The page compares `new/` with `base/`, the previous run ...
        write_benchmark_from_disk(home, &rec.directory_name, &opts)
            .map_err(|e| format!("'{}': {e}", t.name))?;
        // ... which this run then replaces.
        if compared {
            for (name, bytes) in &files {
                write_atomic(&dir.join("base").join(name), bytes)?;
            }
        }
    }
    write_group(home, GROUP, false).map_err(|e| e.to_string())?;
    write_index(home).map_err(|e| e.to_string())?;
    Ok(home.join("report").join("index.html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_are_the_harness_rule() {
        assert_eq!(folder_component("sleep 0.1"), "sleep 0.1");
        // FNV-1a 64 of "" is its offset basis, all 64 bits in the name.
        assert_eq!(folder_component(""), "__cbf29ce484222325");
        let f = folder_component("a/b:c");
        assert!(
            f.starts_with("a_b_c_") && f.len() == "a_b_c_".len() + 16,
            "{f}"
        );
        assert_ne!(folder_component("a/b"), folder_component("a:b"));
        assert!(folder_component(&"x".repeat(200)).len() <= 64 + 17);
        let r = record("a/b:c");
        assert_eq!(r.full_id, "exec/a/b:c");
        assert_eq!(r.directory_name, format!("exec/{f}"));
        assert_eq!(record(&"y".repeat(150)).title.len(), 103);
    }

    fn read(path: &Path) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    const S: Settings = Settings {
        nresamples: 500,
        seed: 0,
    };

    #[test]
    fn a_second_run_is_compared_with_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        let first = [100.0, 110.0, 90.0];
        let t = |ns| Timed { name: "cmd", ns };
        write(home, &[t(&first)], S).unwrap();
        let dir = home.join("exec/cmd");
        assert!(!dir.join("change").exists());
        // Twice as slow: the mean goes from 100 to 200, +100 %; the median
        // from 100 to 200 too.
        let second = [200.0, 220.0, 180.0];
        let index = write(home, &[t(&second)], S).unwrap();
        assert_eq!(index, home.join("report/index.html"));
        let c = read(&dir.join("change/estimates.json"));
        assert!(
            (c["mean"]["point_estimate"].as_f64().unwrap() - 1.0).abs() < 1e-12,
            "{c}"
        );
        assert!(
            (c["median"]["point_estimate"].as_f64().unwrap() - 1.0).abs() < 1e-12,
            "{c}"
        );
        let page = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
        assert!(
            page.contains("Change in mean") && page.contains("+100.00%"),
            "{page}"
        );
        assert_eq!(
            read(&dir.join("base/sample.json"))["times"],
            serde_json::json!(second)
        );
    }

    #[test]
    fn runs_of_zero_time_are_reported_without_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        let zero = [0.0; 3];
        for _ in 0..2 {
            write(
                home,
                &[Timed {
                    name: "z",
                    ns: &zero,
                }],
                S,
            )
            .unwrap();
        }
        let dir = home.join("exec/z");
        assert!(!dir.join("change").join("estimates.json").exists());
        assert!(dir.join("report/index.html").is_file());
        assert_eq!(
            read(&dir.join("base/sample.json")),
            read(&dir.join("new/sample.json"))
        );
    }
}

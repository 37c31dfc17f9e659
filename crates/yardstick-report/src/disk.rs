//! Reading saved results back from the home directory, so that every page
//! can be rendered without the benchmark binary.

use std::fs;
use std::path::{Path, PathBuf};

use yardstick_format::change::{VerdictFile, FILE_NAME};
use yardstick_format::criterion::{BenchmarkRecord, ChangeFile, EstimatesFile, SavedSample};

use crate::ReportError;

/// Folders deeper than this under the home directory are not searched
/// (ids have at most three parts, each one folder).
const MAX_DEPTH: usize = 6;

/// One benchmark as saved under the home directory.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredBenchmark {
    /// Its folder, `<home>/<directory_name>`.
    pub dir: PathBuf,
    /// `new/benchmark.json`.
    pub record: BenchmarkRecord,
    /// `new/sample.json`: the last run.
    pub sample: SavedSample,
    /// `new/estimates.json`.
    pub estimates: EstimatesFile,
    /// The unit of the measured values, from `new/raw.csv` (`ns` when that
    /// file is missing).
    pub unit: String,
    /// `change/estimates.json`, if a comparison was ever made.
    pub change: Option<ChangeFile>,
    /// `change/verdict.json`, when it goes with `change` (yardstick wrote
    /// both in the same run).
    pub verdict: Option<VerdictFile>,
}

impl StoredBenchmark {
    /// Reads the benchmark saved in `dir` (the folder holding `new/`).
    ///
    /// # Errors
    ///
    /// [`ReportError::Io`] when a file of `new/` cannot be read and
    /// [`ReportError::Format`] when one is not in its format.
    pub fn load(dir: &Path) -> Result<StoredBenchmark, ReportError> {
        let new = dir.join("new");
        let sample: SavedSample = read_json(&new.join("sample.json"))?;
        sample.validate().map_err(|problem| ReportError::Format {
            path: new.join("sample.json"),
            problem,
        })?;
        let change_path = dir.join("change").join("estimates.json");
        let change = if change_path.exists() {
            Some(read_json(&change_path)?)
        } else {
            None
        };
        // Another tool's later run leaves ours beside its own change: then
        // it is not this change's verdict.
        let verdict = change.as_ref().and_then(|c: &ChangeFile| {
            read_json::<VerdictFile>(&dir.join("change").join(FILE_NAME))
                .ok()
                .filter(|v| v.goes_with(c.mean.point_estimate))
        });
        Ok(StoredBenchmark {
            dir: dir.to_owned(),
            record: read_json(&new.join("benchmark.json"))?,
            estimates: read_json(&new.join("estimates.json"))?,
            unit: unit_of(&new.join("raw.csv")).unwrap_or_else(|| "ns".to_owned()),
            sample,
            change,
            verdict,
        })
    }

    /// The samples of baseline `name` (`base`, or a named one), if saved
    /// and readable.
    #[must_use]
    pub fn baseline(&self, name: &str) -> Option<SavedSample> {
        let s: SavedSample = read_json(&self.dir.join(name).join("sample.json")).ok()?;
        s.validate().ok()?;
        Some(s)
    }

    /// The folder of its group's page (the first part of its folder name),
    /// or `None` when the benchmark's own folder is that folder (a lone
    /// `bench_function`), which has no group page.
    #[must_use]
    pub fn group_dir(&self) -> Option<&str> {
        let d = &self.record.directory_name;
        d.split_once('/').map(|(g, _)| g)
    }
}

/// Every benchmark saved under `home` (every folder with a readable
/// `new/benchmark.json`), sorted by id. Unreadable benchmarks are returned
/// as errors beside the others so one bad file does not hide the rest.
///
/// # Errors
///
/// [`ReportError::Io`] when `home` itself cannot be read.
pub fn discover(home: &Path) -> Result<(Vec<StoredBenchmark>, Vec<ReportError>), ReportError> {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let top = fs::read_dir(home).map_err(|e| ReportError::io(home, e))?;
    drop(top);
    walk(home, 0, &mut found, &mut problems);
    found.sort_by(|a: &StoredBenchmark, b| natural_cmp(&a.record.full_id, &b.record.full_id));
    Ok((found, problems))
}

fn walk(
    dir: &Path,
    depth: usize,
    found: &mut Vec<StoredBenchmark>,
    problems: &mut Vec<ReportError>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if dir.join("new").join("benchmark.json").is_file() {
        match StoredBenchmark::load(dir) {
            Ok(b) => found.push(b),
            Err(e) => problems.push(e),
        }
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Skipped by what they hold, not by name: a function may be
            // called `new`, `base`, `change` or `report` (its folder then
            // holds `new/`, not these files).
            let ours = match name {
                "change" => p.join("estimates.json").is_file(),
                "report" => p.join("index.html").is_file() && !p.join("new").is_dir(),
                _ => false,
            };
            !ours && !name.starts_with('.')
        })
        .collect();
    subdirs.sort();
    for sub in subdirs {
        // A baseline folder (any name) holds sample.json, not benchmarks.
        if sub.join("sample.json").is_file() {
            continue;
        }
        walk(&sub, depth + 1, found, problems);
    }
}

/// Compares ids part by part (split at `/`), numbers by value, so that
/// `fib/2` comes before `fib/10`.
pub(crate) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let mut pa = a.split('/');
    let mut pb = b.split('/');
    loop {
        match (pa.next(), pb.next()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let ord = match (x.parse::<f64>(), y.parse::<f64>()) {
                    (Ok(u), Ok(v)) => u.total_cmp(&v).then_with(|| x.cmp(y)),
                    _ => x.cmp(y),
                };
                if ord.is_ne() {
                    return ord;
                }
            }
        }
    }
}

pub(crate) fn read_json<T: yardstick_format::json::FromJson>(
    path: &Path,
) -> Result<T, ReportError> {
    let bytes = fs::read(path).map_err(|e| ReportError::io(path, e))?;
    yardstick_format::json::from_slice(&bytes).map_err(|e| ReportError::Format {
        path: path.to_owned(),
        problem: format!(
            "not a valid {} file ({e})",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ),
    })
}

/// The `unit` column of the first data row of a raw.csv.
fn unit_of(path: &Path) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let row = text.lines().nth(1)?;
    yardstick_format::csv::fields(row)?
        .into_iter()
        .nth(6)
        .filter(|u| !u.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_named_as_the_layouts_folders_are_found() {
        let home = std::env::temp_dir().join(format!("yardstick-disk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&home);
        let e = r#"{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1}"#;
        let estimates = format!(
            r#"{{"mean":{e},"median":{e},"median_abs_dev":{e},"slope":null,"std_dev":{e}}}"#
        );
        let names = ["base", "change", "new", "report", "plain"];
        for f in names {
            let new = home.join("g").join(f).join("new");
            fs::create_dir_all(&new).unwrap();
            fs::write(
                new.join("sample.json"),
                r#"{"sampling_mode":"Flat","iters":[1,1],"times":[1,2]}"#,
            )
            .unwrap();
            fs::write(new.join("estimates.json"), &estimates).unwrap();
            fs::write(
                new.join("benchmark.json"),
                format!(
                    r#"{{"group_id":"g","function_id":"{f}","value_str":null,"throughput":null,"full_id":"g/{f}","directory_name":"g/{f}","title":"g/{f}"}}"#
                ),
            )
            .unwrap();
        }
        let (found, problems) = discover(&home).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let ids: Vec<&str> = found.iter().map(|b| b.record.full_id.as_str()).collect();
        assert_eq!(ids, ["g/base", "g/change", "g/new", "g/plain", "g/report"]);
        fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn ids_sort_naturally() {
        let mut ids = ["g/f/16", "g/f/4", "g/e/100", "g/f/1", "a"];
        ids.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(ids, ["a", "g/e/100", "g/f/1", "g/f/4", "g/f/16"]);
    }

    #[test]
    fn raw_csv_rows_unquote() {
        assert_eq!(
            yardstick_format::csv::fields("\"a,\"\"b\"\"\",,1,8,bytes,12.5,ns,3").unwrap(),
            ["a,\"b\"", "", "1", "8", "bytes", "12.5", "ns", "3"]
        );
    }
}

//! Results on disk, in the formats of Criterion.rs's guide so that tools
//! reading `target/criterion` (critcmp, cargo-criterion, scripts) keep
//! working.
//!
//! Per benchmark, under `<home>/<directory_name>/`: `new/` (the last run),
//! `base/` and one folder per named baseline, each holding `sample.json`,
//! `estimates.json`, `benchmark.json`, `tukey.json` and `raw.csv`; and
//! `change/estimates.json` (the last comparison). Every file is written to a
//! temporary name and renamed, so an interrupted run never leaves half a file.

pub(crate) mod binaries;
pub(crate) mod build;
mod home;
pub(crate) mod lock;
pub(crate) mod planned;
pub(crate) mod save;

pub(crate) use home::home_directory;
use yardstick_format::binary::BinaryFile;
use yardstick_format::change::VerdictFile;
pub(crate) use yardstick_format::criterion::{
    raw_csv, BenchmarkRecord, ChangeFile, ConfidenceInterval, EstimateFile, EstimatesFile, RawRow,
    SavedSample,
};
use yardstick_format::drift::DriftFile;
use yardstick_format::json::{self, FromJson, ToJson};
use yardstick_format::metrics::{MetricsFile, SavedMetric};
use yardstick_format::relinks::RelinksFile;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A file that could not be read or written, with the reason.
#[derive(Debug)]
pub(crate) struct StoreError {
    pub path: PathBuf,
    pub problem: String,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl StoreError {
    fn io(path: &Path, e: &io::Error) -> StoreError {
        StoreError {
            path: path.to_owned(),
            problem: e.to_string(),
        }
    }
}

/// Writes `bytes` to `path` atomically (the workspace's one writer,
/// [`yardstick_format::atomic`]).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    yardstick_format::atomic::write_file(path, bytes).map_err(|e| StoreError::io(path, &e))
}

fn write_json<T: ToJson + ?Sized>(path: &Path, value: &T) -> Result<(), StoreError> {
    write_atomic(path, json::to_string(value).as_bytes())
}

fn read_json<T: FromJson>(path: &Path) -> Result<T, StoreError> {
    let bytes = fs::read(path).map_err(|e| StoreError::io(path, &e))?;
    json::from_slice(&bytes).map_err(|e| StoreError {
        path: path.to_owned(),
        problem: format!("not a valid {} file ({e})", file_kind(path)),
    })
}

fn file_kind(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Benchmark `id`'s layout spread from `<home>/.layouts/<key>.json`
/// (`cargo yardstick calibrate --layouts`; `key` the bench target's
/// `binary::store_key`), as far as it is trusted now
/// (`LayoutFile::trusted_spread`); `None` when there is none.
pub(crate) fn layout_spread(
    home: &Path,
    key: &str,
    id: &str,
) -> Result<Option<yardstick_format::layout::Trusted>, StoreError> {
    let path = yardstick_format::layout::path(home, key);
    if !path.exists() {
        return Ok(None);
    }
    let doc: yardstick_format::layout::LayoutFile = read_json(&path)?;
    doc.trusted_spread(id, now())
        .map_err(|problem| StoreError { path, problem })
}

/// Seconds since the Unix epoch, the clock of the files' timestamps.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// An estimate in Criterion.rs's form.
pub fn estimate_file(e: &yardstick_stats::Estimate) -> EstimateFile {
    EstimateFile {
        confidence_interval: ConfidenceInterval {
            confidence_level: e.confidence,
            lower_bound: e.lower,
            upper_bound: e.upper,
        },
        point_estimate: e.point,
        standard_error: e.standard_error,
    }
}

/// The estimates in Criterion.rs's form.
pub fn estimates_file(e: &yardstick_stats::Estimates) -> EstimatesFile {
    EstimatesFile {
        mean: estimate_file(&e.mean),
        median: estimate_file(&e.median),
        median_abs_dev: estimate_file(&e.mad),
        slope: e.slope.as_ref().map(estimate_file),
        std_dev: estimate_file(&e.std_dev),
    }
}

/// `metrics.csv`: one row per metric and sample, `metric,unit,sample,value`
/// (the sample's total; the iteration counts are raw.csv's).
fn metrics_csv(metrics: &[crate::metered::MetricResult]) -> String {
    let mut out = String::from("metric,unit,sample,value\n");
    for r in metrics {
        for (i, v) in r.values.iter().enumerate() {
            let v = if v.is_finite() {
                v.to_string()
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{},{},{i},{v}\n",
                r.metric.name(),
                r.metric.unit()
            ));
        }
    }
    out
}

/// `metrics.json`: every extra metric's unit, sample totals and
/// per-iteration estimate (yardstick's own file, versioned).
fn metrics_json(metrics: &[crate::metered::MetricResult]) -> MetricsFile {
    MetricsFile {
        version: yardstick_format::metrics::VERSION,
        metrics: metrics
            .iter()
            .map(|r| SavedMetric {
                name: r.metric.name().to_owned(),
                unit: r.metric.unit().to_owned(),
                per_iteration: r.metric.is_additive(),
                values: r
                    .values
                    .iter()
                    .map(|v| v.is_finite().then_some(*v))
                    .collect(),
                estimate: r.estimate.as_ref().map(estimate_file),
                peak: r.peak,
            })
            .collect(),
    }
}

/// Everything one run writes for one benchmark.
pub(crate) struct RunFiles<'a> {
    pub sample: &'a SavedSample,
    pub estimates: &'a EstimatesFile,
    pub benchmark: &'a BenchmarkRecord,
    pub tukey: [f64; 4],
    pub raw: &'a [RawRow],
    /// Extra metrics (`metrics.json` and `metrics.csv`), when measured.
    pub metrics: &'a [crate::metered::MetricResult],
    /// The bench binary that measured them (`binary.json`), when kept.
    pub binary: Option<&'a BinaryFile>,
    /// How that binary was built, as the folder's own `build.json`: only
    /// when the binary could not be kept with its record (otherwise the
    /// record is kept once beside the binary, `store::build::keep_record`).
    pub build: Option<&'a yardstick_format::build::BuildFile>,
}

/// The folder of one benchmark under the home directory.
#[derive(Debug, Clone)]
pub(crate) struct BenchmarkDir {
    pub root: PathBuf,
    /// The home it is in, where its kept binaries and their build records
    /// are.
    pub home: PathBuf,
}

impl BenchmarkDir {
    pub(crate) fn new(home: &Path, directory_name: &str) -> BenchmarkDir {
        BenchmarkDir {
            root: home.join(directory_name),
            home: home.to_owned(),
        }
    }

    pub(crate) fn sub(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Checks that the folder belongs to `full_id`: its `new/benchmark.json`
    /// (or, without one, any baseline's) records the id it was written for.
    /// Another id there means two ids map to one folder: an error, never a
    /// comparison of one with the other. A folder without a readable record
    /// is taken as this id's (a corrupt file is reported where it is read).
    pub(crate) fn check_owner(&self, full_id: &str) -> Result<(), StoreError> {
        let Ok(entries) = fs::read_dir(&self.root) else {
            return Ok(());
        };
        let records: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path().join("benchmark.json")))
            .filter(|p| p.is_file())
            .collect();
        // new/ first: it is the last run's.
        let new = self.sub("new");
        let (mut records, others): (Vec<_>, Vec<_>) =
            records.into_iter().partition(|p| p.starts_with(&new));
        records.extend(others);
        for path in records {
            if let Ok(record) = read_json::<BenchmarkRecord>(&path) {
                if record.full_id == full_id {
                    return Ok(());
                }
                return Err(StoreError {
                    problem: format!(
                        "this folder holds benchmark '{}', whose folder name is the same as \
                         '{full_id}'s; rename one of them (neither is compared with the other)",
                        record.full_id
                    ),
                    path,
                });
            }
        }
        Ok(())
    }

    /// Checks that no other benchmark's folders are inside this one's, nor
    /// this one inside another's: a lone benchmark `g` keeps `g/new`,
    /// `g/base` (its baseline), `g/change` and `g/report`, which are also
    /// the folders of a group `g`'s members `new`, `base`, `change` and
    /// `report`. Shared, each overwrote the other's files and the report's
    /// index lost the members. The error names both ids; the benchmark
    /// that finds the other already there fails, the other keeps its
    /// folders.
    pub(crate) fn check_nesting(
        &self,
        full_id: &str,
        baseline: Option<&str>,
    ) -> Result<(), StoreError> {
        let clash = |path: PathBuf, other: &str, what: String| StoreError {
            path,
            problem: format!(
                "{what}; benchmarks '{other}' and '{full_id}' would share it, so neither \
                 could be trusted: rename one of them"
            ),
        };
        // This folder is one of another benchmark's own (`g/base`).
        let own = self.root.join("benchmark.json");
        if let Ok(record) = read_json::<BenchmarkRecord>(&own) {
            if record.full_id != full_id {
                let what = format!(
                    "this folder holds results of benchmark '{}'",
                    record.full_id
                );
                return Err(clash(self.root.clone(), &record.full_id, what));
            }
        }
        // A folder this benchmark writes holds another benchmark's folders.
        for name in ["new", "change", "report"].into_iter().chain(baseline) {
            let Ok(entries) = fs::read_dir(self.sub(name)) else {
                continue;
            };
            for entry in entries.flatten() {
                let record = entry.path().join("benchmark.json");
                if let Ok(r) = read_json::<BenchmarkRecord>(&record) {
                    if r.full_id != full_id {
                        let what = format!(
                            "benchmark '{}' keeps its results in this folder, which is '{full_id}'s '{name}' folder",
                            r.full_id
                        );
                        return Err(clash(self.sub(name), &r.full_id, what));
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether a baseline folder has a sample to compare with.
    pub(crate) fn has_baseline(&self, name: &str) -> bool {
        self.sub(name).join("sample.json").exists()
    }

    /// Reads a baseline's samples, checking they make sense.
    pub(crate) fn load_sample(&self, name: &str) -> Result<SavedSample, StoreError> {
        let path = self.sub(name).join("sample.json");
        let sample: SavedSample = read_json(&path)?;
        sample
            .validate()
            .map_err(|problem| StoreError { path, problem })?;
        Ok(sample)
    }

    /// The problems of baseline `name`'s files other than `sample.json`
    /// (which [`load_sample`](Self::load_sample) reads), and of the last
    /// comparison's `change/estimates.json`: each unreadable file, in
    /// words. Tools such as critcmp read these, so a bad one is reported
    /// even though the comparison does not need it.
    pub(crate) fn check_baseline_files(&self, name: &str) -> Vec<String> {
        fn check<T: FromJson>(path: &Path) -> Option<String> {
            path.exists()
                .then(|| read_json::<T>(path).err().map(|e| e.to_string()))
                .flatten()
        }
        let base = self.sub(name);
        let raw = base.join("raw.csv");
        let raw_problem = raw.exists().then(|| match fs::read(&raw) {
            Ok(bytes) if bytes.starts_with(yardstick_format::criterion::RAW_HEADER.as_bytes()) => {
                None
            }
            Ok(_) => Some(format!(
                "{}: not a raw.csv (its first line is not Criterion.rs's header)",
                raw.display()
            )),
            Err(e) => Some(StoreError::io(&raw, &e).to_string()),
        });
        [
            check::<EstimatesFile>(&base.join("estimates.json")),
            check::<BenchmarkRecord>(&base.join("benchmark.json")),
            check::<[f64; 4]>(&base.join("tukey.json")),
            raw_problem.flatten(),
            check::<ChangeFile>(&self.sub("change").join("estimates.json")),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Replaces the folder `name` (`new` or a baseline) by the files of a
    /// run, as one unit: a kill or a concurrent run never leaves
    /// `sample.json` of one run beside `estimates.json` of another.
    pub(crate) fn save(&self, name: &str, files: &RunFiles<'_>) -> Result<(), StoreError> {
        let dir = self.sub(name);
        let json = |file: &str, v: &dyn ToJson| (file.to_owned(), json::to_string(v).into_bytes());
        let mut list = vec![
            json("sample.json", files.sample),
            json("estimates.json", files.estimates),
            json("benchmark.json", files.benchmark),
            json("tukey.json", &files.tukey),
            ("raw.csv".to_owned(), raw_csv(files.raw).into_bytes()),
        ];
        if let Some(b) = files.binary {
            list.push(json("binary.json", b));
        }
        if let Some(b) = files.build {
            list.push(json(yardstick_format::build::FILE_NAME, b));
        }
        if !files.metrics.is_empty() {
            list.push(json("metrics.json", &metrics_json(files.metrics)));
            list.push((
                "metrics.csv".to_owned(),
                metrics_csv(files.metrics).into_bytes(),
            ));
        }
        let refs: Vec<(&str, &[u8])> = list
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        yardstick_format::atomic::replace_dir(&dir, &refs).map_err(|e| StoreError::io(&dir, &e))
    }

    /// Reads a baseline's `metrics.json`: each metric's name and sample
    /// totals (unreadable samples as NaN). `None` when it has none.
    pub(crate) fn load_metrics(
        &self,
        name: &str,
    ) -> Result<Option<Vec<crate::metered::SavedMetric>>, StoreError> {
        let path = self.sub(name).join("metrics.json");
        if !path.exists() {
            return Ok(None);
        }
        let doc: MetricsFile = read_json(&path)?;
        doc.check_version().map_err(|problem| StoreError {
            path: path.clone(),
            problem,
        })?;
        Ok(Some(
            doc.metrics
                .into_iter()
                .map(|m| {
                    let values = m.values.iter().map(|v| v.unwrap_or(f64::NAN)).collect();
                    (m.name, values)
                })
                .collect(),
        ))
    }

    /// Reads baseline `name`'s `binary.json`: the bench binary that
    /// measured it. `None` when it has none (saved by Criterion.rs or an
    /// earlier yardstick).
    pub(crate) fn load_binary(&self, name: &str) -> Result<Option<BinaryFile>, StoreError> {
        let path = self.sub(name).join("binary.json");
        if !path.exists() {
            return Ok(None);
        }
        let doc: BinaryFile = read_json(&path)?;
        doc.checked()
            .map(Some)
            .map_err(|problem| StoreError { path, problem })
    }

    /// The record of the bench target that last saved into this folder
    /// (its `new/` or else any baseline's `binary.json`), when one
    /// recorded it.
    pub(crate) fn owner_record(&self) -> Option<BinaryFile> {
        let mut names = vec!["new".to_owned()];
        names.extend(
            fs::read_dir(&self.root)
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n != "new"),
        );
        names
            .iter()
            .find_map(|n| self.load_binary(n).ok().flatten())
    }

    /// Reads `drift.json`, the run-to-run drift of this benchmark on this
    /// machine that `cargo yardstick calibrate` measured: `{"version": 1,
    /// "relative_drift": 0.06, "runs": 5}`. `None` when there is none.
    pub(crate) fn load_drift(&self) -> Result<Option<f64>, StoreError> {
        let path = self.root.join("drift.json");
        if !path.exists() {
            return Ok(None);
        }
        let doc: DriftFile = read_json(&path)?;
        doc.checked_drift()
            .map(Some)
            .map_err(|problem| StoreError { path, problem })
    }

    /// The log moves earlier rebuilds made (`relinks.json`) that still
    /// count at `now`; empty when there is no file.
    pub(crate) fn recent_relinks(&self, now: i64) -> Result<Vec<f64>, StoreError> {
        let path = self.root.join(yardstick_format::relinks::FILE_NAME);
        if !path.exists() {
            return Ok(Vec::new());
        }
        let doc: RelinksFile = read_json(&path)?;
        doc.recent(now)
            .map_err(|problem| StoreError { path, problem })
    }

    /// Adds a move between two builds to `relinks.json`. A file this
    /// version cannot read is replaced: it holds only what the next
    /// rebuilds measure again.
    pub(crate) fn record_relink(
        &self,
        m: yardstick_format::relinks::Move,
    ) -> Result<(), StoreError> {
        let path = self.root.join(yardstick_format::relinks::FILE_NAME);
        let mut doc = match read_json::<RelinksFile>(&path) {
            Ok(d) if d.version == yardstick_format::relinks::VERSION => d,
            _ => RelinksFile::new(),
        };
        doc.record(m);
        write_json(&path, &doc)
    }

    /// Writes `change/estimates.json`, yardstick's `change/verdict.json`
    /// beside it (the p-value, the verdict and lock-step, which
    /// Criterion.rs's file does not keep), and `change/binary.json` naming
    /// the baseline's binary the change was measured against, when it kept
    /// one (`cargo yardstick explain` runs it; naming it also keeps it
    /// through the retention rule until the next comparison). A stale one
    /// goes.
    pub(crate) fn save_change(
        &self,
        change: &ChangeFile,
        verdict: &VerdictFile,
        baseline_binary: Option<&BinaryFile>,
    ) -> Result<(), StoreError> {
        let dir = self.sub("change");
        write_json(&dir.join(yardstick_format::change::FILE_NAME), verdict)?;
        write_json(&dir.join("estimates.json"), change)?;
        match baseline_binary {
            Some(b) => write_json(&dir.join("binary.json"), b),
            None => match std::fs::remove_file(dir.join("binary.json")) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StoreError::io(&dir, &e)),
                _ => Ok(()),
            },
        }
    }

    /// Moves a corrupt baseline folder aside (to `<name>.corrupt`, or
    /// `<name>.corrupt.N`) so that saving over it loses nothing. Returns the
    /// new place; `None` when there is nothing to move any more, because a
    /// concurrent run has already moved it or saved a readable one there.
    pub(crate) fn set_aside(&self, name: &str) -> Result<Option<PathBuf>, StoreError> {
        let from = self.sub(name);
        if !from.exists() || self.load_sample(name).is_ok() {
            return Ok(None);
        }
        let mut to = self.sub(&format!("{name}.corrupt"));
        let mut n = 1;
        while to.exists() {
            n += 1;
            to = self.sub(&format!("{name}.corrupt.{n}"));
        }
        match fs::rename(&from, &to) {
            Ok(()) => Ok(Some(to)),
            Err(_) if !from.exists() => Ok(None),
            Err(e) => Err(StoreError::io(&from, &e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tempdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "yardstick-store-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_corrupt_relinks_file_is_an_error_naming_it_and_the_next_move_replaces_it() {
        let home = tempdir("relinks");
        let dir = BenchmarkDir::new(&home, "fib/20");
        fs::create_dir_all(&dir.root).unwrap();
        assert_eq!(dir.recent_relinks(0).unwrap(), Vec::<f64>::new());
        let path = dir.root.join("relinks.json");
        fs::write(&path, b"{\"version\": 1, \"moves\": [tru").unwrap();
        let e = dir.recent_relinks(0).unwrap_err().to_string();
        assert!(e.contains("relinks.json"), "{e}");
        let m = yardstick_format::relinks::Move {
            baseline: "a".into(),
            this: "b".into(),
            ratio: 1.06,
            at: 0,
        };
        dir.record_relink(m).unwrap();
        let moves = dir.recent_relinks(0).unwrap();
        assert_eq!(moves.len(), 1);
        assert!((moves[0] - 1.06f64.ln()).abs() < 1e-12);
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let d = tempdir("atomic");
        let p = d.join("a").join("x.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "a temporary file was left behind");
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_folder_of_another_id_is_an_error() {
        let d = tempdir("owner");
        let dir = BenchmarkDir::new(&d, "x_c8556df9");
        dir.check_owner("anything").unwrap();
        let record = |id: &str| BenchmarkRecord {
            group_id: id.into(),
            function_id: None,
            value_str: None,
            throughput: None,
            full_id: id.into(),
            directory_name: "x_c8556df9".into(),
            title: id.into(),
        };
        write_json(&dir.sub("base").join("benchmark.json"), &record("x??/")).unwrap();
        dir.check_owner("x??/").unwrap();
        let e = dir.check_owner("x??\"").unwrap_err();
        assert!(e.problem.contains("holds benchmark 'x??/'"), "{e}");
        // new/ is the last run's and decides.
        write_json(&dir.sub("new").join("benchmark.json"), &record("x??\"")).unwrap();
        dir.check_owner("x??\"").unwrap();
        fs::remove_dir_all(d).unwrap();
    }

    /// The group's member saved first: the lone benchmark `g` finds
    /// `g/new/new/benchmark.json` (member `new`) or a member in the folder
    /// of its baseline, and fails naming both.
    #[test]
    fn a_member_inside_a_lone_benchmarks_folders_is_an_error() {
        let d = tempdir("nesting");
        let record = |id: &str, dir: &str| BenchmarkRecord {
            group_id: "g".into(),
            function_id: id.strip_prefix("g/").map(Into::into),
            value_str: None,
            throughput: None,
            full_id: id.into(),
            directory_name: dir.into(),
            title: id.into(),
        };
        let lone = BenchmarkDir::new(&d, "g");
        lone.check_nesting("g", Some("base")).unwrap();
        let member = BenchmarkDir::new(&d, "g/new");
        write_json(
            &member.sub("new").join("benchmark.json"),
            &record("g/new", "g/new"),
        )
        .unwrap();
        let e = lone.check_nesting("g", Some("base")).unwrap_err();
        assert!(
            e.problem
                .contains("benchmarks 'g/new' and 'g' would share it"),
            "{e}"
        );
        fs::remove_dir_all(d.join("g")).unwrap();
        let member = BenchmarkDir::new(&d, "g/mine");
        write_json(
            &member.sub("new").join("benchmark.json"),
            &record("g/mine", "g/mine"),
        )
        .unwrap();
        lone.check_nesting("g", Some("base")).unwrap();
        let e = lone.check_nesting("g", Some("mine")).unwrap_err();
        assert!(e.problem.contains("'g's 'mine' folder"), "{e}");
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn corrupt_samples_are_errors_naming_the_file() {
        let d = tempdir("corrupt");
        let dir = BenchmarkDir::new(&d, "fib");
        let p = dir.sub("base").join("sample.json");
        write_atomic(&p, b"{\"sampling_mode\":\"Linear\",\"iters\":[1,2],").unwrap();
        let e = dir.load_sample("base").unwrap_err();
        assert!(e.to_string().contains("sample.json"), "{e}");
        write_atomic(
            &p,
            br#"{"sampling_mode":"Linear","iters":[1,2],"times":[5]}"#,
        )
        .unwrap();
        let e = dir.load_sample("base").unwrap_err();
        assert!(e.problem.contains("2 iteration counts but 1 times"), "{e}");
        let aside = dir.set_aside("base").unwrap().unwrap();
        assert!(aside.join("sample.json").exists());
        assert!(!dir.has_baseline("base"));
        fs::remove_dir_all(d).unwrap();
    }
}

//! How many comparisons a run will make, read from the baseline before the
//! first one: the suite's error rate is spent across them as the run goes
//! (`yardstick_stats::online`).

use std::fs;
use std::path::Path;

use yardstick_format::criterion::BenchmarkRecord;

use super::read_json;

/// Folders deeper than this are not benchmark folders: Criterion.rs nests
/// `group/function/value/<baseline>`.
const MAX_DEPTH: usize = 6;

/// The benchmarks under `home` with a baseline `name` that `selects`
/// keeps, whichever bench target saved them: `cargo bench` runs each
/// target as its own process, and the suite a user reads is all of them.
/// An overcount (a target this run does not build) only makes the levels
/// stricter.
pub(crate) fn planned(home: &Path, name: &str, selects: &dyn Fn(&str) -> bool) -> usize {
    let mut count = 0;
    walk(home, name, selects, 0, &mut count);
    count
}

fn walk(dir: &Path, name: &str, selects: &dyn Fn(&str) -> bool, depth: usize, count: &mut usize) {
    let baseline = dir.join(name);
    if baseline.join("benchmark.json").is_file() && counts(&baseline, selects) {
        *count += 1;
    }
    if depth >= MAX_DEPTH {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let child = file_name.to_string_lossy();
        // The binaries, layouts and report are not benchmarks, and a
        // baseline's own folder holds none.
        let skip = child.starts_with('.') || child == "report" || child == name;
        if !skip && entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&entry.path(), name, selects, depth + 1, count);
        }
    }
}

fn counts(baseline: &Path, selects: &dyn Fn(&str) -> bool) -> bool {
    read_json::<BenchmarkRecord>(&baseline.join("benchmark.json"))
        .is_ok_and(|record| selects(&record.full_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(home: &Path, dir: &str, baseline: &str, full_id: &str, target: Option<&str>) {
        let d = home.join(dir).join(baseline);
        fs::create_dir_all(&d).unwrap();
        let record = format!(
            r#"{{"group_id":"{full_id}","function_id":null,"value_str":null,"throughput":null,"full_id":"{full_id}","directory_name":"{dir}","title":"{full_id}"}}"#
        );
        fs::write(d.join("benchmark.json"), record).unwrap();
        if let Some(t) = target {
            let b = format!(
                r#"{{"version":1,"target":"{t}","binary":"{}-10","protocol":1,"measurement":"time"}}"#,
                "0".repeat(16)
            );
            fs::write(d.join("binary.json"), b).unwrap();
        }
    }

    #[test]
    fn counts_every_targets_baselines_that_the_filter_selects() {
        let home = std::env::temp_dir().join(format!("ys-planned-{}", std::process::id()));
        let _ = fs::remove_dir_all(&home);
        folder(&home, "fib/10", "base", "fib/10", Some("bench_a"));
        folder(&home, "fib/20", "base", "fib/20", Some("bench_a"));
        folder(&home, "fib/20", "other", "fib/20", Some("bench_a"));
        folder(&home, "sort", "base", "sort", Some("bench_b"));
        folder(&home, "old", "base", "old", None);
        folder(&home, "fresh", "new", "fresh", Some("bench_a"));
        fs::create_dir_all(home.join(".binaries/bench_a/base")).unwrap();
        let all = |_: &str| true;
        // fib/10, fib/20, sort and `old`; not `fresh` (no `base`).
        assert_eq!(planned(&home, "base", &all), 4);
        assert_eq!(planned(&home, "other", &all), 1);
        let fib = |id: &str| id.starts_with("fib");
        assert_eq!(planned(&home, "base", &fib), 2);
        assert_eq!(planned(&home.join("absent"), "base", &all), 0);
        let _ = fs::remove_dir_all(&home);
    }
}

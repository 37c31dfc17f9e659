//! `import yardstick`'s merging of shards: runs made with `--partition`
//! (one per runner of a CI matrix) become one run per commit and machine
//! kind, as if one runner had measured the whole suite, so that the
//! history's series get one point per commit.
//!
//! Shards are merged when they measured the same commit with the same
//! partition (kind and N) on the same machine kind
//! ([`yardstick_format::history::machine_kind`]). Shards of one commit
//! measured on different machine kinds are kept as separate runs, and a
//! line says so; a missing shard leaves a run that says which; a shard
//! seen twice (a re-run of the workflow) starts another run.

use std::collections::BTreeMap;
use std::path::Path;

use yardstick_format::history::{machine_kind, ExportedRun};
use yardstick_format::partition::Partition;

/// An exported run with the file it came from.
pub type Loaded<'a> = (&'a Path, ExportedRun);

/// The runs to import: whole runs as they were, shards merged. The
/// second value holds the lines to print about them (missing shards,
/// machine kinds kept apart).
///
/// # Errors
///
/// One line naming the benchmark and both files when two shards of one
/// run measured the same benchmark (their partitions disagree).
pub fn merge(runs: Vec<Loaded<'_>>) -> Result<(Vec<ExportedRun>, Vec<String>), String> {
    let mut whole = Vec::new();
    // (commit, kind and N) → machine kind → the shards, in time order.
    type Groups<'a> = BTreeMap<(String, String), BTreeMap<String, Vec<(Partition, Loaded<'a>)>>>;
    let mut groups: Groups<'_> = BTreeMap::new();
    for (file, run) in runs {
        let Some(p) = run
            .shard
            .as_deref()
            .and_then(|s| Partition::from_text(s).ok())
        else {
            whole.push(run);
            continue;
        };
        let suite = format!("{}", Partition { index: 1, ..p }).replacen(":1/", ":*/", 1);
        let commit = run.commit.clone().unwrap_or_else(|| "no commit".to_owned());
        groups
            .entry((commit, suite))
            .or_default()
            .entry(machine_kind(&run.machine))
            .or_default()
            .push((p, (file, run)));
    }
    let mut notes = Vec::new();
    for ((commit, suite), kinds) in groups {
        let short: String = commit.chars().take(10).collect();
        if kinds.len() > 1 {
            let each: Vec<String> = kinds
                .iter()
                .map(|(kind, shards)| format!("{kind}: shards {}", list(shards)))
                .collect();
            notes.push(format!(
                "commit {short} ({suite}): shards measured on {} machine kinds are kept as separate runs; {}",
                kinds.len(),
                each.join("; ")
            ));
        }
        for (kind, mut shards) in kinds {
            shards.sort_by_key(|(_, (_, r))| r.time);
            for set in sets(shards) {
                let (run, note) = one_run(&set)?;
                notes.extend(note.map(|n| format!("commit {short} on {kind}: {n}")));
                whole.push(run);
            }
        }
    }
    Ok((whole, notes))
}

/// `1/3, 3/3`.
fn list(shards: &[(Partition, Loaded<'_>)]) -> String {
    let mut names: Vec<(u32, String)> = shards.iter().map(|(p, _)| (p.index, p.shard())).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Deals shards (in time order) into runs: each goes to the first run
/// that lacks its index, so a workflow run twice makes two runs.
fn sets<'a>(shards: Vec<(Partition, Loaded<'a>)>) -> Vec<Vec<(Partition, Loaded<'a>)>> {
    let mut sets: Vec<Vec<(Partition, Loaded<'a>)>> = Vec::new();
    for s in shards {
        match sets
            .iter_mut()
            .find(|set| set.iter().all(|(p, _)| p.index != s.0.index))
        {
            Some(set) => set.push(s),
            None => sets.push(vec![s]),
        }
    }
    sets
}

/// One run from the shards of one suite run: the first shard's context,
/// every shard's benchmarks, a uid made from the shards' uids (so that
/// importing the same files again changes nothing), and a line when
/// shards are missing.
fn one_run(set: &[(Partition, Loaded<'_>)]) -> Result<(ExportedRun, Option<String>), String> {
    let mut run = set[0].1 .1.clone();
    run.benchmarks.clear();
    let mut owner: BTreeMap<&str, &Path> = BTreeMap::new();
    for (_, (file, shard)) in set {
        for b in &shard.benchmarks {
            if let Some(first) = owner.insert(&b.name, file) {
                return Err(format!(
                    "'{}' was measured by two shards of one run ({} and {}); were they made with different filters?",
                    yardstick_format::names::one_line(&b.name),
                    first.display(),
                    file.display()
                ));
            }
            run.benchmarks.push(b.clone());
        }
    }
    let mut uids: Vec<&str> = set.iter().map(|(_, (_, r))| r.uid.as_str()).collect();
    uids.sort_unstable();
    run.uid = format!(
        "shards-{:016x}",
        yardstick_format::names::fnv1a(uids.join("\n").as_bytes())
    );
    let n = set[0].0.count;
    let missing: Vec<String> = (1..=n)
        .filter(|k| !set.iter().any(|(p, _)| p.index == *k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    run.shard = None;
    let note = (!missing.is_empty()).then(|| {
        format!(
            "shard{} {} missing; the run holds shards {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            list(set)
        )
    });
    Ok((run, note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use yardstick_format::history::{ExportedBenchmark, Machine, Typical, RUN_VERSION};

    fn shard(uid: &str, shard: &str, cpu: &str, names: &[&str]) -> ExportedRun {
        ExportedRun {
            version: RUN_VERSION,
            uid: uid.into(),
            machine: Machine {
                name: "ci".into(),
                cpu: cpu.into(),
                cores: 4,
                os: "linux x86_64".into(),
            },
            time: 10,
            commit: Some("abc".into()),
            branch: None,
            dirty: false,
            rustc: String::new(),
            config: String::new(),
            source: "bench".into(),
            label: None,
            shard: Some(shard.into()),
            state: None,
            build: None,
            benchmarks: names
                .iter()
                .map(|n| ExportedBenchmark {
                    name: (*n).into(),
                    unit: "ns".into(),
                    typical: Typical {
                        point: 1.0,
                        lower: 1.0,
                        upper: 1.0,
                    },
                    iters: Vec::new(),
                    values: Vec::new(),
                    instructions: None,
                })
                .collect(),
        }
    }

    #[test]
    fn shards_of_one_commit_and_machine_kind_become_one_run() {
        let f = Path::new("s.json");
        let runs = vec![
            (f, shard("u1", "hash:1/3", "X", &["a", "d"])),
            (f, shard("u2", "hash:2/3", "X", &["b"])),
            (f, shard("u3", "hash:3/3", "X", &["c"])),
        ];
        let (merged, notes) = merge(runs.clone()).unwrap();
        assert_eq!(merged.len(), 1, "{notes:?}");
        assert!(notes.is_empty(), "{notes:?}");
        let names: Vec<&str> = merged[0]
            .benchmarks
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(names, ["a", "d", "b", "c"]);
        assert_eq!(merged[0].shard, None);
        merged[0].validate().unwrap();
        // The same files again: the same uid, so the import is idempotent.
        let (again, _) = merge(runs.into_iter().rev().collect()).unwrap();
        assert_eq!(again[0].uid, merged[0].uid);
    }

    #[test]
    fn machine_kinds_are_kept_apart_and_missing_shards_named() {
        let f = Path::new("s.json");
        let runs = vec![
            (f, shard("u1", "count:1/3", "X", &["a"])),
            (f, shard("u2", "count:2/3", "Y", &["b"])),
            (f, shard("u3", "count:3/3", "X", &["c"])),
        ];
        let (merged, notes) = merge(runs).unwrap();
        assert_eq!(merged.len(), 2);
        assert_eq!(
            notes,
            [
                "commit abc (count:*/3): shards measured on 2 machine kinds are kept as separate runs; \
                 ci (X, 4 cores, linux x86_64): shards 1/3, 3/3; ci (Y, 4 cores, linux x86_64): shards 2/3",
                "commit abc on ci (X, 4 cores, linux x86_64): shard 2/3 missing; the run holds shards 1/3, 3/3",
                "commit abc on ci (Y, 4 cores, linux x86_64): shards 1/3, 3/3 missing; the run holds shards 2/3",
            ]
        );
    }

    #[test]
    fn a_benchmark_in_two_shards_is_refused() {
        let (a, b) = (Path::new("a.json"), Path::new("b.json"));
        let runs = vec![
            (a, shard("u1", "hash:1/2", "X", &["x"])),
            (b, shard("u2", "hash:2/2", "X", &["x"])),
        ];
        let e = merge(runs).unwrap_err();
        assert!(
            e.starts_with("'x' was measured by two shards of one run (a.json and b.json)"),
            "{e}"
        );
    }
}

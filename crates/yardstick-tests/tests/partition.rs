//! `--partition` on the fixture bench binary: the shards' `--list`s are
//! disjoint and together the whole list; groups compared within
//! themselves stay whole; a measured shard measures its own benchmarks
//! only; bad values get one line naming the flag.

mod common;
use std::collections::BTreeSet;

use common::{home, run, QUICK};

/// Interleaved alternatives (`pair/*`) and a group with ratios and a
/// requirement (`scaling/*`) besides the plain benchmarks.
const ENV: &[(&str, &str)] = &[("FIXTURE_INTERLEAVE", "1"), ("FIXTURE_SCALING", "2")];

fn ids(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(str::to_owned)
        .collect()
}

fn list(h: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--list", "--format", "terse"];
    args.extend(extra);
    let r = run(h, &args, ENV);
    assert_eq!(r.code, 0, "{}", r.stderr);
    ids(&r.stdout)
}

#[test]
fn every_benchmark_lands_in_exactly_one_shard() {
    let h = home("partition-list");
    let all = list(&h, &[]);
    assert!(all.len() > 20, "{all:?}");
    for kind in ["count", "hash"] {
        let shards: Vec<Vec<String>> = (1..=3)
            .map(|k| list(&h, &["--partition", &format!("{kind}:{k}/3")]))
            .collect();
        let mut union: Vec<String> = shards.concat();
        union.sort();
        let mut expected = all.clone();
        expected.sort();
        assert_eq!(union, expected, "{kind}: each benchmark exactly once");
        for shard in &shards {
            assert!(!shard.is_empty(), "{kind}: {shards:?}");
            // A group compared within itself is in one shard, whole.
            for group in ["pair/", "scaling/"] {
                let here = shard.iter().filter(|id| id.starts_with(group)).count();
                let total = all.iter().filter(|id| id.starts_with(group)).count();
                assert!(here == 0 || here == total, "{kind} {group}: {shard:?}");
            }
        }
    }
    // count: the units dealt round-robin in the listing's order, after the
    // filter: the 7 benchmarks of `odd names`, 4 and 3 at N = 2.
    let odd = list(&h, &["odd names"]);
    let first = list(&h, &["odd names", "--partition", "count:1/2"]);
    let second = list(&h, &["odd names", "--partition", "count:2/2"]);
    let every_other = |from: usize| {
        odd.iter()
            .skip(from)
            .step_by(2)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(first, every_other(0));
    assert_eq!(second, every_other(1));
    // `sizes/sum/64` and `sizes/sum/256` feed one Big-O fit: one unit.
    let sizes = list(&h, &["sizes", "--partition", "count:1/2"]);
    assert_eq!(sizes, ["sizes/sum/64", "sizes/sum/256"]);
}

#[test]
fn a_shard_measures_its_own_benchmarks_only() {
    let h = home("partition-measure");
    let mut args = QUICK.to_vec();
    args.extend(["fast|empty|sizes", "--partition", "count:2/3"]);
    let r = run(&h, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed = list(&h, &["fast|empty|sizes", "--partition", "count:2/3"]);
    let measured: BTreeSet<String> = std::fs::read_dir(&h)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "report" && !n.starts_with('.'))
        .collect();
    // Each listed id's first component was measured, and nothing else.
    let groups: BTreeSet<String> = listed
        .iter()
        .map(|id| id.split('/').next().unwrap().to_owned())
        .collect();
    assert_eq!(measured, groups, "{listed:?}");
}

#[test]
fn bad_partitions_get_one_line_naming_the_flag() {
    let h = home("partition-bad");
    for (value, why) in [
        ("hash:0/3", "it names shard 0, outside 1 to 3"),
        ("count:4/3", "it names shard 4, outside 1 to 3"),
        ("foo:1/2", "it has an unknown kind 'foo'"),
        ("hash:1", "it has no /N"),
    ] {
        let r = run(&h, &["--list", "--partition", value], &[]);
        assert_eq!(r.code, 2, "{value}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "invalid value '{value}' for --partition: expected hash:K/N or count:K/N"
            )),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(why), "{}", r.stderr);
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
}

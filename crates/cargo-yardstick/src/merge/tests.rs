use super::*;
use yardstick_format::ab::AbRow;
use yardstick_format::history::Machine;

/// A measured row: B/A = `ratio` in [`lower`, `upper`] with p-value `p`.
pub(crate) fn measured(id: &str, ratio: f64, lower: f64, upper: f64, p: f64) -> AbRow {
    AbRow {
        id: id.into(),
        outcome: "measured".into(),
        message: None,
        a: Some(1000.0),
        b: Some(1000.0 * ratio),
        ratio: Some(ratio),
        lower: Some(lower),
        upper: Some(upper),
        p_value: Some(p),
        rounds: 48,
        pairs: 8,
        seconds: 1.0,
        layout_spread: None,
    }
}

/// A shard's document: `shard` (`hash:1/3`, or none for a whole suite) on
/// machine `cpu`, with `rows`.
pub(crate) fn doc(shard: Option<&str>, cpu: &str, rows: Vec<AbRow>) -> AbResult {
    AbResult {
        version: RESULT_VERSION,
        status: "ok".into(),
        error: None,
        shard: shard.map(str::to_owned),
        machine: Machine {
            name: "ci".into(),
            cpu: cpu.into(),
            cores: 4,
            os: "linux x86_64".into(),
        },
        a: "main (1a2b3c4d5e)".into(),
        b: "pr (6f7a8b9c0d)".into(),
        pairs: 8,
        round_ms: 2.0,
        timeout: 2.5,
        seconds: 3.0,
        confidence: 0.95,
        rows,
        layouts: 4,
        layout_note: None,
    }
}

fn files(docs: Vec<AbResult>) -> Vec<(PathBuf, Result<AbResult, String>)> {
    docs.into_iter()
        .enumerate()
        .map(|(i, d)| (PathBuf::from(format!("shard-{}.json", i + 1)), Ok(d)))
        .collect()
}

/// The verdict of every row, by id.
fn verdicts(m: &Merged) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = m
        .sections
        .iter()
        .flat_map(|(_, _, rows)| rows.iter().map(|r| (r.id.clone(), r.verdict())))
        .collect();
    v.sort();
    v
}

/// Three shards whose changes survive Benjamini–Hochberg within their
/// shard but not across the suite. Per shard (m = 2): p = 0.01, 0.02 and
/// 0.03 adjust to 0.02, 0.04 and 0.06, so shards 1 and 2 would each report
/// a regression. Over the suite (m = 6),
/// `scipy.stats.false_discovery_control([0.01, 0.9, 0.02, 0.8, 0.03, 0.7])`
/// is `[0.06, 0.9, 0.06, 0.9, 0.06, 0.9]`: none is at most 0.05, so none
/// remains, as one run with these p-values says.
pub(crate) fn disagreeing_shards() -> Vec<AbResult> {
    vec![
        doc(
            Some("hash:1/3"),
            "X",
            vec![
                measured("parse/a", 1.10, 1.02, 1.20, 0.01),
                measured("parse/b", 1.00, 0.98, 1.02, 0.9),
            ],
        ),
        doc(
            Some("hash:2/3"),
            "X",
            vec![
                measured("sort/a", 1.08, 1.01, 1.16, 0.02),
                measured("sort/b", 1.00, 0.97, 1.03, 0.8),
            ],
        ),
        doc(
            Some("hash:3/3"),
            "X",
            vec![
                measured("fmt/a", 1.06, 1.005, 1.12, 0.03),
                measured("fmt/b", 0.99, 0.96, 1.02, 0.7),
            ],
        ),
    ]
}

#[test]
fn false_discovery_control_spans_the_whole_suite() {
    // Each shard alone: its change survives in shards 1 and 2.
    for (i, shard) in disagreeing_shards().into_iter().enumerate() {
        let m = merge(files(vec![doc(None, "X", shard.rows)]), None).unwrap();
        let slower = verdicts(&m)
            .iter()
            .filter(|(_, v)| v.ends_with(": slower"))
            .count();
        assert_eq!(slower, usize::from(i < 2), "shard {}", i + 1);
    }
    // Merged: none survives, as in one run with all six p-values.
    let merged = merge(files(disagreeing_shards()), Some(3)).unwrap();
    let all: Vec<AbRow> = disagreeing_shards()
        .into_iter()
        .flat_map(|d| d.rows)
        .collect();
    let one_run = merge(files(vec![doc(None, "X", all)]), None).unwrap();
    assert_eq!(verdicts(&merged), verdicts(&one_run));
    let alone = "a change alone, within chance across the suite (false-discovery control)";
    let all_verdicts = verdicts(&merged);
    let changed: Vec<&str> = all_verdicts
        .iter()
        .filter(|(_, v)| v == alone)
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(changed, ["fmt/a", "parse/a", "sort/a"]);
    assert_eq!(merged.fdr, one_run.fdr);
    assert!(merged
        .fdr
        .as_deref()
        .unwrap()
        .starts_with("3 of 6 benchmarks changed one by one; "));
    assert!(merged.problems.is_empty());
    assert_eq!(
        merged.merged_from,
        "Merged from 3 of 3 shards (hash): 1/3, 2/3, 3/3."
    );
}

#[test]
fn missing_failed_and_unreadable_shards_are_named() {
    let mut docs = disagreeing_shards();
    docs[1].status = "failed".into();
    docs[1].error = Some("building pr (6f7a8b9c0d): cargo failed".into());
    docs[1].rows.clear();
    let mut read = files(vec![docs.remove(0), docs.remove(0)]);
    read.push((
        PathBuf::from("shard-3.json"),
        Err("cannot read it: no such file".into()),
    ));
    let m = merge(read, None).unwrap();
    assert_eq!(
        m.problems,
        [
            "shard-3.json: cannot read it: no such file",
            "shard 2/3 failed (shard-2.json): building pr (6f7a8b9c0d): cargo failed",
            "shard 3/3: missing (no file names it)",
        ]
    );
    assert_eq!(m.doc.status, "failed");
    let text = render(&m, true);
    assert!(
        text.contains("**Incomplete, so this summary fails:**"),
        "{text}"
    );
    // With --expect and no readable file, every shard is named.
    let read = vec![(PathBuf::from("a.json"), Err("it is empty".to_owned()))];
    let m = merge(read, Some(2)).unwrap();
    assert_eq!(m.problems.len(), 3, "{:?}", m.problems);
}

#[test]
fn contradicting_shards_are_refused() {
    let err = |docs: Vec<AbResult>, expect| merge(files(docs), expect).err().unwrap();
    let mut docs = disagreeing_shards();
    docs[2].shard = Some("hash:3/4".into());
    assert!(err(docs, None)
        .starts_with("shard-3.json is shard hash:3/4 but shard-1.json is shard hash:1/3"));
    let mut docs = disagreeing_shards();
    docs[2].shard = Some("hash:1/3".into());
    assert_eq!(
        err(docs, None),
        "shard 1/3 is in both shard-1.json and shard-3.json; give each shard once"
    );
    let mut docs = disagreeing_shards();
    docs[2].rows.push(measured("parse/a", 1.0, 0.9, 1.1, 0.5));
    assert!(err(docs, None).starts_with("'parse/a' is in both shard-1.json and shard-3.json"));
    let mut docs = disagreeing_shards();
    docs[2].b = "other (0000000000)".into();
    assert!(err(docs, None).contains("shards of one suite compare the same revisions"));
    assert_eq!(
        err(disagreeing_shards(), Some(4)),
        "--expect 4, but the shard files name 3 shards"
    );
    let mut docs = disagreeing_shards();
    docs[0].shard = None;
    assert!(err(docs, None).contains("compared the whole suite (no --partition)"));
}

#[test]
fn machine_kinds_get_a_table_each() {
    let mut docs = disagreeing_shards();
    docs[1].machine.cpu = "Y".into();
    let m = merge(files(docs), None).unwrap();
    let kinds: Vec<(&str, &str)> = m
        .sections
        .iter()
        .map(|(k, s, _)| (k.as_str(), s.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("ci (X, 4 cores, linux x86_64)", "1/3, 3/3"),
            ("ci (Y, 4 cores, linux x86_64)", "2/3"),
        ]
    );
    let text = render(&m, true);
    assert!(
        text.contains("Shards measured on 2 machine kinds"),
        "{text}"
    );
    assert!(
        text.contains("#### On ci (Y, 4 cores, linux x86_64) (shards 2/3)"),
        "{text}"
    );
}

/// The target: a 60-benchmark suite dealt by `hash:K/3`, each
/// shard's file merged: every benchmark exactly once in the summary.
#[test]
fn sixty_benchmarks_in_three_shards_are_all_in_the_summary() {
    use yardstick_format::partition::{Partition, Selector};
    let ids: Vec<String> = (0..60).map(|i| format!("suite/b{i:02}")).collect();
    let docs: Vec<AbResult> = (1..=3)
        .map(|k| {
            let shard = format!("hash:{k}/3");
            let mut s = Selector::new(Partition::parse(&shard, "test").unwrap());
            let rows = ids
                .iter()
                .filter(|id| s.admits(id))
                .map(|id| measured(id, 1.0, 0.99, 1.01, 0.5))
                .collect();
            doc(Some(&shard), "X", rows)
        })
        .collect();
    assert!(docs.iter().all(|d| !d.rows.is_empty()));
    let m = merge(files(docs), Some(3)).unwrap();
    let text = render(&m, true);
    let mut listed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    listed.sort_unstable();
    assert_eq!(listed, ids.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(m.problems.is_empty());
}

use super::*;

/// A benchmark measured over worker pairs: pair `k` ran the rounds of
/// `pairs[k]` (ratios B/A), A at 100 ns in every round.
fn measured(pairs: &[&[f64]]) -> Measured {
    let mut m = Measured {
        a: Vec::new(),
        b: Vec::new(),
        pair: Vec::new(),
        iters: 1000,
        seconds: 1.25,
        layouts: 0,
    };
    for (k, rounds) in pairs.iter().enumerate() {
        for r in *rounds {
            m.a.push(100.0);
            m.b.push(100.0 * r);
            m.pair.push(k);
        }
    }
    m
}

/// Pairs whose every round has the ratio of `medians[k]`.
fn row(id: &str, medians: &[f64]) -> Row {
    let rounds: Vec<Vec<f64>> = medians.iter().map(|&r| vec![r; 6]).collect();
    let pairs: Vec<&[f64]> = rounds.iter().map(Vec::as_slice).collect();
    paired(id, &measured(&pairs), 0.95)
}

#[test]
fn every_verdict_in_words() {
    let slower = row("slower", &[1.03; 8]);
    assert_eq!(slower.verdict(), "B is 1.030× A [1.030, 1.030]: slower");
    assert!(slower.regressed(0.0) && slower.regressed(0.03) && !slower.regressed(0.05));
    let faster = row("faster", &[0.5; 8]);
    assert_eq!(faster.verdict(), "B is 0.500× A [0.500, 0.500]: faster");
    assert!(!faster.regressed(0.0));
    // scipy.stats.ttest_1samp(log([.99, 1.01] * 3), 0).pvalue = 0.9915.
    let same = row("same", &[0.99, 1.01, 0.99, 1.01, 0.99, 1.01]);
    assert_eq!(same.verdict(), "no difference detected");
    // Every round of the one pair slower: still no interval, as the
    // pair's own offset cannot be told from B's.
    assert_eq!(
        row("one", &[2.0]).verdict(),
        "too few worker pairs (1) for an interval"
    );
    let only = |outcome| Row {
        id: "x".into(),
        outcome,
    };
    assert_eq!(only(Outcome::OnlyA).verdict(), "only in A");
    assert_eq!(only(Outcome::OnlyB).verdict(), "only in B");
    let failed = only(Outcome::Failed(
        "B's worker: the worker process exited: boom".into(),
    ));
    assert_eq!(
        failed.verdict(),
        "failed: B's worker: the worker process exited: boom"
    );
    assert!(!failed.regressed(0.0));
}

#[test]
fn the_interval_is_over_pairs_not_rounds() {
    // Two pairs disagree: every round of pair 0 says 1.02, every round of
    // pair 1 says 0.99. Pooled, 60 rounds would look precise; over two
    // pairs the interval is wide (t with 1 degree of freedom) and nothing
    // is detected. A pair's rounds reduce to their median: the outlier in
    // pair 0 does not move it.
    let mut p0 = vec![1.02; 30];
    p0[3] = 40.0;
    let m = measured(&[&p0, &[0.99; 30]]);
    let r = paired("x", &m, 0.95);
    assert_eq!(r.verdict(), "no difference detected");
    let Outcome::Measured(p) = &r.outcome else {
        panic!("measured")
    };
    assert_eq!((p.rounds, p.pairs), (60, 2));
    // scipy: exp(mean(log([1.02, .99]))) = 1.0048880534666536.
    let i = p.interval.unwrap();
    assert!((i.ratio - 1.004_888_053_466_653_6).abs() < 1e-12);
    assert!(i.lower < 0.9 && i.upper > 1.1);
}

#[test]
fn a_lone_change_among_many_is_held_to_the_false_discovery_rate() {
    // Ten benchmarks: one whose six pairs say 1.01, 1.02, 0.995, 1.015,
    // 1.008, 1.012 (p = 0.034128741544642, scipy
    // ttest_1samp(log(...), 0)), nine with no change. Alone it is a change;
    // Benjamini–Hochberg over ten gives it 10 · 0.0341 = 0.341 > 0.05: it
    // does not survive.
    let edge = [1.01, 1.02, 0.995, 1.015, 1.008, 1.012];
    let mut rows = vec![row("edge", &edge)];
    for i in 0..9 {
        rows.push(row(
            &format!("flat{i}"),
            &[0.99, 1.01, 0.99, 1.01, 0.99, 1.01],
        ));
    }
    if let Outcome::Measured(p) = &rows[0].outcome {
        assert!((p.p_value.unwrap() - 0.034_128_741_544_642_28).abs() < 1e-7);
        assert!(p.interval.unwrap().is_significant());
    }
    let line = control(&mut rows, 0.05).unwrap();
    assert_eq!(
        line,
        "1 of 10 benchmarks changed one by one; with the false-discovery rate across them held at 5%, 0 remain (the others are what chance alone flags among this many)"
    );
    assert_eq!(
        rows[0].verdict(),
        "a change alone, within chance across the suite (false-discovery control)"
    );
    assert!(!rows[0].regressed(0.0));
    // A clear change survives among the same nine (every pair at 1.1:
    // p = 0).
    rows[0] = row("clear", &[1.1; 6]);
    let line = control(&mut rows, 0.05).unwrap();
    assert!(line.ends_with("1 remains (about 0.05 of them expected to be false): clear"));
    assert!(rows[0].regressed(0.0));
    // Nothing to control with a single benchmark.
    assert_eq!(control(&mut rows[..1], 0.05), None);
}

#[test]
fn the_printed_forms() {
    let mut rows = vec![
        row("fib/20", &[1.1; 3]),
        // scipy, units [.99, 1.01, 1.0]: exp of the mean log and of its
        // t interval: 0.99997, (0.975431, 1.025119).
        row("parse", &[0.99, 1.01, 1.0]),
        Row {
            id: "gone".into(),
            outcome: Outcome::OnlyA,
        },
        Row {
            id: "boom".into(),
            outcome: Outcome::Failed("A's worker: panicked".into()),
        },
    ];
    let fdr = control(&mut rows, 0.05);
    let h = Header {
        a: "main (0123456789)".into(),
        b: "the working tree (HEAD 0123456789 + uncommitted changes)".into(),
        how: "Lock-step.".into(),
    };
    let md = markdown(&h, &rows, fdr.as_deref());
    let expected = "### yardstick ab: A = main (0123456789), B = the working tree (HEAD 0123456789 + uncommitted changes)

Lock-step.

| benchmark | A | B | B/A [95%] | rounds/pairs | verdict |
|---|---:|---:|---|---:|---|
| `fib/20` | 100.0000 ns | 110.0000 ns | 1.100× [1.100, 1.100] | 18/3 (1.2 s) | B is 1.100× A [1.100, 1.100]: slower |
| `parse` | 100.0000 ns | 100.0000 ns | 1.000× [0.975, 1.025] | 18/3 (1.2 s) | no difference detected |
| `gone` | — | — | — | — | only in A |
| `boom` | — | — | — | — | failed: A's worker: panicked |

1 of 2 benchmarks changed one by one; with the false-discovery rate across them held at 5%, 1 remains (about 0.05 of them expected to be false): fib/20
";
    assert_eq!(md, expected);
    let t = terminal(&h, &rows, fdr.as_deref());
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[3],
        "benchmark            A            B  B/A [95%]              rounds/pairs  verdict"
    );
    assert_eq!(
        lines[4],
        "fib/20     100.0000 ns  110.0000 ns  1.100× [1.100, 1.100]  18/3 (1.2 s)  B is 1.100× A [1.100, 1.100]: slower"
    );
    assert_eq!(
        lines[6],
        "gone                 —            —  —                      —             only in A"
    );
}

use super::*;

/// `n` rounds with A at 100 ns and B at 100·r ns, r cycling through
/// `ratios`.
fn measured(ratios: &[f64], n: usize) -> Measured {
    let a = vec![100.0; n];
    let b = (0..n).map(|i| 100.0 * ratios[i % ratios.len()]).collect();
    Measured {
        a,
        b,
        iters: 1000,
        seconds: 1.25,
    }
}

fn row(id: &str, ratios: &[f64], n: usize) -> Row {
    paired(id, &measured(ratios, n), 0.95)
}

#[test]
fn every_verdict_in_words() {
    let slower = row("slower", &[1.03], 20);
    assert_eq!(slower.verdict(), "B is 1.030× A [1.030, 1.030]: slower");
    assert!(slower.regressed(0.0) && slower.regressed(0.03) && !slower.regressed(0.05));
    let faster = row("faster", &[0.5], 20);
    assert_eq!(faster.verdict(), "B is 0.500× A [0.500, 0.500]: faster");
    assert!(!faster.regressed(0.0));
    // Half the rounds above 1, half below: the sign test sees nothing.
    let same = row("same", &[0.99, 1.01], 20);
    assert_eq!(same.verdict(), "no difference detected");
    assert_eq!(
        row("few", &[2.0], 5).verdict(),
        "too few rounds (5) for an interval"
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
fn a_lone_change_among_many_is_held_to_the_false_discovery_rate() {
    // Ten benchmarks: one with 15 of 20 rounds slower (sign-test p =
    // 0.0414, scipy binomtest(15, 20)), nine with no change (p = 1). Alone
    // it is a change; Benjamini–Hochberg over ten gives it 10 · 0.0414 =
    // 0.414 > 0.05: it does not survive.
    let mut rows = vec![row("edge", &[1.1, 1.1, 1.1, 0.9], 20)];
    for i in 0..9 {
        rows.push(row(&format!("flat{i}"), &[0.99, 1.01], 20));
    }
    if let Outcome::Measured(p) = &rows[0].outcome {
        assert!((p.p_value.unwrap() - 0.041_389_465_332_031_25).abs() < 1e-12);
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
    // A clear change survives among the same nine (p = 2 · 0.5^20).
    rows[0] = row("clear", &[1.1], 20);
    let line = control(&mut rows, 0.05).unwrap();
    assert!(line.ends_with("1 remain (about 0.05 of them expected to be false): clear"));
    assert!(rows[0].regressed(0.0));
    // Nothing to control with a single benchmark.
    assert_eq!(control(&mut rows[..1], 0.05), None);
}

#[test]
fn the_printed_forms() {
    let mut rows = vec![
        row("fib/20", &[1.1], 20),
        row("parse", &[0.99, 1.01], 20),
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

| benchmark | A | B | B/A [95%] | rounds | verdict |
|---|---:|---:|---|---:|---|
| `fib/20` | 100.0000 ns | 110.0000 ns | 1.100× [1.100, 1.100] | 20 (1.2 s) | B is 1.100× A [1.100, 1.100]: slower |
| `parse` | 100.0000 ns | 100.0000 ns | 1.000× [0.990, 1.010] | 20 (1.2 s) | no difference detected |
| `gone` | — | — | — | — | only in A |
| `boom` | — | — | — | — | failed: A's worker: panicked |

1 of 2 benchmarks changed one by one; with the false-discovery rate across them held at 5%, 1 remain (about 0.05 of them expected to be false): fib/20
";
    assert_eq!(md, expected);
    let t = terminal(&h, &rows, fdr.as_deref());
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[3],
        "benchmark            A            B  B/A [95%]              rounds      verdict"
    );
    assert_eq!(
        lines[4],
        "fib/20     100.0000 ns  110.0000 ns  1.100× [1.100, 1.100]  20 (1.2 s)  B is 1.100× A [1.100, 1.100]: slower"
    );
    assert_eq!(
        lines[6],
        "gone                 —            —  —                      —           only in A"
    );
}

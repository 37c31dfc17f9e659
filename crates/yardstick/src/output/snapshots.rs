//! Snapshot tests of every per-benchmark format the harness prints:
//! Criterion.rs's lines (quiet, normal, verbose, with throughput and a
//! change), libtest's bencher line, tasty-bench, rebar3_bench's statistics
//! block and nanobench's table row. The samples are fixed numbers (a fake
//! measurement) and the bootstrap is seeded, so the text is the same on
//! every machine; a change of format shows as a reviewed diff of
//! `snapshots/*.snap` (`cargo insta review`, or `INSTA_UPDATE=always`).

use std::time::Duration;

use super::{Completed, Style, Terminal};
use crate::analysis::{analyse, Analysis};
use crate::cli::{OutputFormat, Verbosity};
use crate::config::{ActualSamplingMode, BenchmarkConfig};
use crate::measurement::DurationFormatter;
use crate::metered::MetricResult;
use crate::meters::Metric;
use crate::Throughput;

/// Linear sampling, sample i running 10·(i+1) iterations at about 100 ns
/// each, with a fixed ±3 % pattern and one slow outlier.
fn samples(level: f64) -> (Vec<f64>, Vec<f64>) {
    let wobble = [0.0, 0.02, -0.01, 0.03, -0.02, 0.01, -0.03, 0.0, 0.02, -0.01];
    let iters: Vec<f64> = (1..=20).map(|i| f64::from(i) * 10.0).collect();
    let values = iters
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let outlier = if i == 13 { 0.4 } else { 0.0 };
            n * level * (1.0 + wobble[i % wobble.len()] + outlier)
        })
        .collect();
    (iters, values)
}

fn config() -> BenchmarkConfig {
    BenchmarkConfig {
        nresamples: 2_000,
        ..BenchmarkConfig::default()
    }
}

/// The analysis of a run at 100 ns, compared with `baseline_level`'s run
/// when given.
fn analysis(baseline_level: Option<f64>) -> (Analysis, Option<Vec<f64>>) {
    let saved = baseline_level.map(|l| {
        let (iters, times) = samples(l);
        crate::store::SavedSample {
            sampling_mode: ActualSamplingMode::Linear,
            iters,
            times,
            processes: None,
            measurement: None,
        }
    });
    let baseline = saved.as_ref().map(crate::store::SavedSample::averages);
    let (iters, values) = samples(100.0);
    let new = crate::analysis::Samples::in_one_process(ActualSamplingMode::Linear, iters, values);
    let a = analyse(new, saved.as_ref(), &config(), false).expect("valid samples");
    (a, baseline)
}

fn completed<'a>(
    a: &'a Analysis,
    baseline: Option<&'a [f64]>,
    throughput: Option<Throughput>,
    metrics: &'a [MetricResult],
) -> Completed<'a> {
    Completed {
        title: "parse/json/small",
        analysis: a,
        throughput,
        formatter: &DurationFormatter,
        unit: "ns",
        significance: 0.05,
        confidence: 0.95,
        noise_threshold: 0.01,
        baseline,
        ratio_to_baseline: baseline.map(|_| 1.05),
        failure: None,
        elapsed: Duration::from_millis(2_130),
        metrics,
        drift: None,
        optimised_away: false,
    }
}

fn render(format: OutputFormat, verbosity: Verbosity, c: &Completed<'_>) -> String {
    let t = Terminal::new(Style { enabled: false }, verbosity, format);
    t.lines(c).join("\n") + "\n"
}

#[test]
fn criterion_lines() {
    let (a, _) = analysis(None);
    let c = completed(&a, None, None, &[]);
    insta::assert_snapshot!(
        "criterion_quiet",
        render(OutputFormat::Criterion, Verbosity::Quiet, &c)
    );
    insta::assert_snapshot!(
        "criterion_normal",
        render(OutputFormat::Criterion, Verbosity::Normal, &c)
    );
    insta::assert_snapshot!(
        "criterion_verbose",
        render(OutputFormat::Criterion, Verbosity::Verbose, &c)
    );
}

#[test]
fn criterion_lines_with_a_change_and_throughput() {
    let (a, base) = analysis(Some(80.0));
    let c = completed(&a, base.as_deref(), Some(Throughput::Bytes(1024)), &[]);
    insta::assert_snapshot!(
        "criterion_change_throughput",
        render(OutputFormat::Criterion, Verbosity::Normal, &c)
    );
    let (same, base) = analysis(Some(100.0));
    let c = completed(&same, base.as_deref(), None, &[]);
    insta::assert_snapshot!(
        "criterion_no_change",
        render(OutputFormat::Criterion, Verbosity::Normal, &c)
    );
}

#[test]
fn criterion_lines_with_metrics() {
    let (a, _) = analysis(None);
    let cpu = MetricResult {
        metric: Metric::CpuThread,
        estimate: Some(*a.typical()),
        peak: None,
        values: a.values.clone(),
        change: None,
        baseline_per_iteration: None,
    };
    let c = completed(&a, None, None, std::slice::from_ref(&cpu));
    insta::assert_snapshot!(
        "criterion_metrics",
        render(OutputFormat::Criterion, Verbosity::Normal, &c)
    );
}

#[test]
fn bencher_tasty_stats_and_table() {
    let (a, base) = analysis(Some(95.0));
    let c = completed(&a, base.as_deref(), None, &[]);
    for (name, format) in [
        ("bencher", OutputFormat::Bencher),
        ("tasty", OutputFormat::TastyFlat),
        ("stats", OutputFormat::Stats),
        ("table", OutputFormat::Table),
    ] {
        insta::assert_snapshot!(name, render(format, Verbosity::Normal, &c));
    }
}

/// Flat samples in five processes, four each: process `p` runs at
/// `level · (1 + offsets[p])` ns per iteration, ±0.1 % inside the process.
fn in_processes(level: f64, offsets: [f64; 5]) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (p, off) in offsets.iter().enumerate() {
        for i in 0..4 {
            let wobble = [0.001, -0.001, 0.0005, -0.0005][i];
            out.0.push(100.0);
            out.1.push(100.0 * level * (1.0 + off + wobble));
            out.2.push(p as u32);
        }
    }
    out
}

/// A run in processes compared with a baseline in processes (or, with
/// `old_in_processes` false, a baseline sampled in one process).
fn analysis_in_processes(
    new: (f64, [f64; 5]),
    old: (f64, [f64; 5]),
    old_in_processes: bool,
) -> (Analysis, Vec<f64>) {
    let (iters, times, procs) = in_processes(old.0, old.1);
    let saved = crate::store::SavedSample {
        sampling_mode: ActualSamplingMode::Flat,
        iters,
        times,
        processes: old_in_processes.then_some(procs),
        measurement: None,
    };
    let (iters, values, procs) = in_processes(new.0, new.1);
    let new = crate::analysis::Samples {
        mode: ActualSamplingMode::Flat,
        iters,
        values,
        processes: Some(procs),
    };
    let a = analyse(new, Some(&saved), &config(), false).expect("valid samples");
    (a, saved.averages())
}

#[test]
fn every_verdict_wording() {
    let quiet = [0.0, 0.001, -0.001, 0.002, -0.002];
    let still = [0.0, 0.0002, -0.0002, 0.0001, -0.0001];
    let noisy = [0.06, -0.06, 0.05, -0.05, 0.0];
    let mut out = String::new();
    let mut show = |title: &str, a: &Analysis, base: &[f64], drift: Option<f64>| {
        let mut c = completed(a, Some(base), None, &[]);
        c.drift = drift;
        out.push_str(&format!("--- {title}\n"));
        out.push_str(&render(OutputFormat::Criterion, Verbosity::Normal, &c));
    };
    let (a, _) = analysis(Some(120.0));
    let base = samples(120.0).1;
    show("improved, one process", &a, &base, None);
    let (a, base) = analysis_in_processes((110.0, quiet), (100.0, quiet), true);
    show("regressed, in processes", &a, &base, None);
    // +3.4 %: significant, but the interval reaches inside the ±1 %.
    let (a, base) = analysis_in_processes((103.4, still), (100.0, still), true);
    show("within the noise threshold", &a, &base, None);
    show("within the machine's drift", &a, &base, Some(0.03));
    let (a, base) = analysis_in_processes((100.0, noisy), (100.0, noisy), true);
    show("too noisy to tell", &a, &base, None);
    let (a, base) = analysis_in_processes((100.0, quiet), (100.0, quiet), false);
    show("baseline in one process", &a, &base, None);
    for (title, a, base) in lockstep_cases(quiet) {
        show(title, &a, &base, None);
    }
    insta::assert_snapshot!("criterion_every_verdict", out);
}

/// The lock-step verdicts, in the order the snapshot shows them: the same
/// build and two builds, within and beyond the allowance, counted, over
/// sampled layouts, and no change.
fn lockstep_cases(quiet: [f64; 5]) -> Vec<(&'static str, Analysis, Vec<f64>)> {
    let lockstep = |units: &[f64]| lockstep_in(quiet, units, None, true, 0);
    let slower = [1.021, 1.019, 1.02, 1.022, 1.018, 1.02, 1.021, 1.019];
    let (a, base) = lockstep(&slower);
    let mut cases = vec![("lock-step, regressed, the same build", a, base)];
    cases.extend(two_builds_cases(quiet, &slower));
    cases.extend(layouts_sampled_cases(quiet, &slower));
    let (a, base) = lockstep_in(quiet, &slower, Some(0.031), false, 0);
    cases.push(("lock-step, within the layout spread", a, base));
    cases.extend(learned_allowance_cases(&slower, quiet));
    let (a, base) = lockstep(&[1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0]);
    cases.push(("lock-step, no change", a, base));
    cases
}

/// A lock-step comparison with the baseline's binary over eight units'
/// median ratios `units` (the label says sixteen pairs, as a first look
/// runs), judged as `runner::lockstep` judges it.
fn lockstep_in(
    quiet: [f64; 5],
    units: &[f64],
    layout_spread: Option<f64>,
    same_build: bool,
    layouts: usize,
) -> (Analysis, Vec<f64>) {
    let (mut a, base) = analysis_in_processes((100.0, quiet), (100.0, quiet), true);
    let (i, p) = yardstick_stats::paired::units_t_ratio(units, 0.95).expect("8 units");
    let how = crate::analysis::Lockstep {
        layout_spread,
        layouts_measured: layout_spread.is_some(),
        same_build,
        layouts,
        ..crate::analysis::Lockstep::of(16, 128)
    };
    a.judge_lockstep(&i, p, how, &config());
    (a, base)
}

/// Two builds whose layouts were not sampled, within and beyond the
/// default allowance: as judged, and with both sides counted the same or
/// other (what `runner::code_changed` sets within the allowance,
/// `runner::allowance::check_instructions` past it).
fn two_builds_cases(quiet: [f64; 5], slower: &[f64; 8]) -> Vec<(&'static str, Analysis, Vec<f64>)> {
    let much_slower = slower.map(|r| r + 0.06);
    let counted = |units: &[f64],
                   verdict: Option<yardstick_stats::Verdict>,
                   same: Option<f64>,
                   changed: Option<(f64, f64)>| {
        let (mut a, base) = lockstep_in(quiet, units, None, false, 0);
        if let Some(v) = verdict {
            a.change.as_mut().expect("a change").verdict = v;
        }
        if changed.is_some() && verdict.is_none() {
            a.judge_alone(0.025, crate::analysis::lockstep_threshold(&config()));
        }
        a.lockstep = a.lockstep.map(|l| crate::analysis::Lockstep {
            same_instructions: same,
            instructions_changed: changed,
            ..l
        });
        (a, base)
    };
    let other = Some((942_770.0, 968_226.0));
    let more = Some((942_770.0, 1_036_800.0));
    [
        (
            "lock-step, two builds, within the allowance",
            &slower[..],
            None,
            None,
            None,
        ),
        (
            "lock-step, two builds, within the allowance, the same instructions",
            slower,
            None,
            Some(11_021.0),
            None,
        ),
        (
            "lock-step, two builds, within the allowance but other instructions",
            slower,
            None,
            None,
            other,
        ),
        (
            "lock-step, two builds, beyond the allowance",
            &much_slower,
            None,
            None,
            None,
        ),
        (
            "lock-step, two builds, beyond the allowance, the same instructions",
            &much_slower,
            Some(yardstick_stats::Verdict::WithinNoise),
            Some(11_021.0),
            None,
        ),
        (
            "lock-step, two builds, beyond the allowance, other instructions",
            &much_slower,
            Some(yardstick_stats::Verdict::Regressed),
            None,
            more,
        ),
    ]
    .into_iter()
    .map(|(title, units, verdict, same, changed)| {
        let (a, base) = counted(units, verdict, same, changed);
        (title, a, base)
    })
    .collect()
}

/// Two builds over sampled code layouts: as judged, with no function
/// differing, and with most of them differing (held at the suite's level
/// it is the build's change).
fn layouts_sampled_cases(
    quiet: [f64; 5],
    slower: &[f64; 8],
) -> Vec<(&'static str, Analysis, Vec<f64>)> {
    let sampled = |layouts, same_code, rewritten| {
        let (mut a, base) = lockstep_in(quiet, slower, None, false, layouts);
        a.lockstep = a.lockstep.map(|l| crate::analysis::Lockstep {
            same_code,
            rewritten,
            ..l
        });
        (a, base)
    };
    let most = yardstick_format::change::RewrittenFile {
        changed: 2486,
        functions: 3402,
    };
    let (a, base) = sampled(4, None, None);
    let mut cases = vec![("lock-step, two builds, code layouts sampled", a, base)];
    let (a, base) = sampled(16, Some(true), None);
    cases.push((
        "lock-step, two builds, code layouts sampled, no function changed",
        a,
        base,
    ));
    let (a, base) = sampled(16, Some(false), Some(most));
    cases.push((
        "lock-step, two builds, code layouts sampled, most functions changed",
        a,
        base,
    ));
    cases
}

/// A benchmark five earlier rebuilds moved by about 6 % (the allowance
/// learned from them, held at ±8 %), judged at it: within it, past it with
/// the same instructions on both sides, and within it but wholly beyond
/// the default ±5 % with other instructions (what
/// `runner::allowance::check_instructions` sets in the last two).
fn learned_allowance_cases(
    slower: &[f64; 8],
    quiet: [f64; 5],
) -> Vec<(&'static str, Analysis, Vec<f64>)> {
    let learned = crate::analysis::Lockstep {
        layout_spread: Some(0.08),
        learned_from: 5,
        ..crate::analysis::Lockstep::of(16, 128)
    };
    let judged = |shift: f64, verdict: Option<yardstick_stats::Verdict>| {
        let (mut a, base) = analysis_in_processes((100.0, quiet), (100.0, quiet), true);
        let units = slower.map(|r| r + shift);
        let (i, p) = yardstick_stats::paired::units_t_ratio(&units, 0.95).expect("8 units");
        a.judge_lockstep(&i, p, learned, &config());
        if let (Some(ch), Some(v)) = (a.change.as_mut(), verdict) {
            ch.verdict = v;
        }
        (a, base)
    };
    // +7 %.
    let (within, base) = judged(0.05, None);
    let mut cases = vec![(
        "lock-step, within what earlier rebuilds moved it",
        within,
        base,
    )];
    // −17 %, past the learned ±8 %, both sides counting the same.
    let (mut same, base) = judged(-0.19, Some(yardstick_stats::Verdict::WithinNoise));
    same.lockstep = same.lockstep.map(|l| crate::analysis::Lockstep {
        same_instructions: Some(11_021.0),
        ..l
    });
    cases.push(("lock-step, past it but the same instructions", same, base));
    // +7 % again, the two sides' instructions differ (+2.7 %).
    let (mut other, base) = judged(0.05, Some(yardstick_stats::Verdict::Regressed));
    other.lockstep = other.lockstep.map(|l| crate::analysis::Lockstep {
        instructions_changed: Some((942_770.0, 968_226.0)),
        ..l
    });
    cases.push((
        "lock-step, within the learned allowance but other instructions",
        other,
        base,
    ));
    cases
}

/// A verdict that holds the suite's error rate: the same moderate change
/// (p ≈ 0.01 over eight pairs) judged alone, at its share of 5 % over 63
/// comparisons (LOND's first level, 0.05/64), and, its code layouts
/// sampled and its instructions changed, alone again at 0.05 less the
/// first look's half of the share (what `runner::code_changed` sets), also
/// when only the bytes of the instructions it executes changed; and the
/// same with its layouts not sampled, where the ±5 % allowance would have
/// excused the 1.5 %.
#[test]
fn a_verdict_held_to_the_suite_error_rate() {
    let units = [1.02, 1.0, 1.03, 1.01, 1.0, 1.025, 1.005, 1.015];
    let (i, p) = yardstick_stats::paired::units_t_ratio(&units, 0.95).expect("8 units");
    assert!(p > 0.001 && p < 0.05, "{p}");
    let mut out = String::new();
    let same_build = crate::analysis::Lockstep {
        same_build: true,
        ..crate::analysis::Lockstep::of(16, 128)
    };
    let code_changed = crate::analysis::Lockstep {
        pairs: 32,
        rounds: 256,
        same_build: false,
        layouts: 16,
        instructions_changed: Some((942_770.0, 968_226.0)),
        counted_first: Some(yardstick_format::change::CountedFile {
            baseline: 942_770.0,
            current: 968_226.0,
            code_changed: false,
            longer_rounds: true,
            rounds_factor: Some(4.0),
        }),
        ..same_build
    };
    let cases = [
        ("0.05", 0.05, same_build),
        ("0.05/64", 0.05 / 64.0, same_build),
        (
            "0.05 - 0.05/128, its code changed",
            0.05 - 0.05 / 128.0,
            code_changed,
        ),
        (
            "0.05 - 0.05/128, the bytes it executes changed, not its count",
            0.05 - 0.05 / 128.0,
            crate::analysis::Lockstep {
                instructions_changed: Some((52_114.0, 52_114.0)),
                counted_first: Some(yardstick_format::change::CountedFile {
                    baseline: 52_114.0,
                    current: 52_114.0,
                    code_changed: true,
                    longer_rounds: true,
                    // Every benchmark of its binary changed.
                    rounds_factor: Some(1.5),
                }),
                ..code_changed
            },
        ),
        (
            "0.05 - 0.05/128, most of the build's functions changed",
            0.05 - 0.05 / 128.0,
            crate::analysis::Lockstep {
                instructions_changed: None,
                counted_first: None,
                same_code: Some(false),
                rewritten: Some(yardstick_format::change::RewrittenFile {
                    changed: 2486,
                    functions: 3402,
                }),
                pairs: 16,
                rounds: 128,
                ..code_changed
            },
        ),
        (
            "0.05 - 0.05/128, its code changed, its layouts not sampled",
            0.05 - 0.05 / 128.0,
            crate::analysis::Lockstep {
                layouts: 0,
                pairs: 16,
                rounds: 128,
                ..code_changed
            },
        ),
    ];
    for (label, level, how) in cases {
        let quiet = [0.0, 0.001, -0.001, 0.002, -0.002];
        let (mut a, base) = analysis_in_processes((100.0, quiet), (100.0, quiet), true);
        let cfg = BenchmarkConfig {
            significance_level: level,
            ..config()
        };
        a.judge_lockstep(&i, p, how, &cfg);
        a.suite = Some(crate::analysis::SuiteJudgement {
            alpha: 0.05,
            level,
            planned: 63,
            one_by_one: a.verdict_at(0.05).expect("a change"),
            alone: false,
        });
        if how.instructions_changed.is_some() || how.rewritten.is_some() {
            // What `runner::code_changed` sets.
            a.judge_alone(level, crate::analysis::lockstep_threshold(&cfg));
        }
        let mut c = completed(&a, Some(&base), None, &[]);
        c.significance = level;
        out.push_str(&format!("--- judged at {label}\n"));
        out.push_str(&render(OutputFormat::Criterion, Verbosity::Normal, &c));
    }
    insta::assert_snapshot!("criterion_suite_verdict", out);
}

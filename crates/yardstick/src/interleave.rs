//! Alternatives measured in alternating rounds within one run, and compared
//! by the ratio of their times in the same round.
//!
//! Between two runs a shared machine drifts by several percent, so two
//! separate runs cannot tell a 3 % difference from noise. Here every round
//! runs each alternative for the same number of iterations, in a balanced
//! order (a random permutation, then its reverse — ABBA for two — drawn
//! anew for every block of two rounds: `yardstick_stats::paired::balanced_block`,
//! the schedule `cargo yardstick ab` uses too), so drift hits all of them alike and
//! cancels in the per-round ratio to the first alternative. The interval is
//! the sign test's for the median ratio
//! ([`yardstick_stats::paired`]): no normality assumed, and a round hit by
//! an interruption cannot drag it.

use std::time::{Duration, Instant};

use yardstick_stats::paired::{balanced_block, iterations_per_round, sign_test_ratio};
use yardstick_stats::rng::Rng;

use crate::analysis::PairedResult;
use crate::cli::Mode;
use crate::measurement::Measurement;
use crate::routine::{run_once, NotIterated};
use crate::{adaptive, state, Bencher, Criterion};

type Alternative<'a, M> = (String, Box<dyn FnMut(&mut Bencher<'_, M>) + 'a>);

/// Rounds before the interval is trusted.
const MIN_ROUNDS: usize = 10;

/// Each alternative's share of a round aims at this long.
const ROUND_SHARE_NS: f64 = 2e5;

/// A set of alternatives to compare in alternating rounds; made by
/// [`Criterion::compare_interleaved`].
///
/// ```no_run
/// # use yardstick as criterion;
/// use criterion::{black_box, Criterion};
///
/// let mut c = Criterion::default();
/// let data: Vec<u64> = (0..1000).rev().collect();
/// let results = c
///     .compare_interleaved("sort")
///     .alternative("std", |b| b.iter(|| { let mut v = data.clone(); v.sort(); v }))
///     .alternative("unstable", |b| b.iter(|| { let mut v = data.clone(); v.sort_unstable(); v }))
///     .run();
/// for r in &results {
///     println!("{}", r.verdict());
/// }
/// ```
pub struct Comparison<'c, 'a, M: Measurement> {
    criterion: &'c mut Criterion<M>,
    name: String,
    alternatives: Vec<Alternative<'a, M>>,
}

impl<M: Measurement> Criterion<M> {
    /// Starts a comparison of alternatives measured in alternating rounds
    /// (see [`Comparison`]). The first alternative added is the reference.
    pub fn compare_interleaved<'a>(&mut self, name: impl Into<String>) -> Comparison<'_, 'a, M> {
        Comparison {
            criterion: self,
            name: name.into(),
            alternatives: Vec::new(),
        }
    }
}

impl<'a, M: Measurement> Comparison<'_, 'a, M> {
    /// Adds an alternative; the first is the reference.
    pub fn alternative<F>(&mut self, id: impl Into<String>, f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>) + 'a,
    {
        self.alternatives.push((id.into(), Box::new(f)));
        self
    }

    /// Test mode: each alternative runs once.
    fn test_each(&mut self, terminal: &crate::output::Terminal, ids: &[String]) {
        for (id, (_, f)) in ids.iter().zip(&mut self.alternatives) {
            terminal.test_start(id);
            match state::catch_panic(|| run_once(&self.criterion.measurement, f.as_mut(), 1)) {
                Ok(Ok(_)) => terminal.test_success(),
                Ok(Err(e)) => fail(terminal, id, &e.to_string()),
                Err(e) => fail(terminal, id, &e),
            }
        }
    }

    /// Runs the rounds (until every ratio is within the target precision or
    /// the time-out passes), prints the verdicts and returns them. In test
    /// mode each alternative runs once; in list mode they are listed.
    pub fn run(&mut self) -> Vec<PairedResult> {
        // Alternatives in one process already cancel drift; a worker process
        // serving another benchmark leaves them to its parent.
        if crate::worker::active() {
            return Vec::new();
        }
        let ids: Vec<String> = self
            .alternatives
            .iter()
            .map(|(a, _)| format!("{}/{a}", self.name))
            .collect();
        let run = &self.criterion.run;
        if run.ignored || !ids.iter().any(|id| run.filter.matches(id)) {
            return Vec::new();
        }
        // The alternatives are compared round by round: one shard measures
        // them all, dealt under the comparison's name.
        if !state::in_shard(run, &self.name) {
            return Vec::new();
        }
        let terminal = run.terminal();
        match run.mode.clone() {
            Mode::List => {
                ids.iter().for_each(|id| terminal.list(id));
                return Vec::new();
            }
            Mode::Test | Mode::Profile(_) => {
                self.test_each(&terminal, &ids);
                return Vec::new();
            }
            Mode::Benchmark => {}
        }
        if self.alternatives.len() < 2 {
            fail(
                &terminal,
                &self.name,
                "an interleaved comparison needs at least two alternatives",
            );
            return Vec::new();
        }
        let config = self.criterion.config.clone();
        let m = &self.criterion.measurement;
        terminal.benchmark_start(&self.name);
        let outcome = state::catch_panic(|| rounds(m, &mut self.alternatives, &config));
        let per_round = match outcome {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                fail(&terminal, &self.name, &e.to_string());
                return Vec::new();
            }
            Err(e) => {
                fail(&terminal, &self.name, &e);
                return Vec::new();
            }
        };
        let results = compare(&ids, &per_round, config.confidence_level);
        let end = crate::output::sink::PairedEnd {
            name: &self.name,
            ids: &ids,
            per_round: &per_round,
            results: &results,
            confidence: config.confidence_level,
        };
        state::paired_done(run, &end);
        results
    }
}

fn fail(terminal: &crate::output::Terminal, id: &str, message: &str) {
    terminal.failure(id, message);
    state::record_failure(id);
}

/// Runs rounds until every alternative's ratio to the first is within the
/// target precision or the time-out passes; returns the time per iteration
/// of each alternative in each round.
fn rounds<M: Measurement>(
    m: &M,
    alternatives: &mut [Alternative<'_, M>],
    config: &crate::config::BenchmarkConfig,
) -> Result<Vec<Vec<f64>>, NotIterated> {
    let mut slowest: f64 = 0.0;
    for (_, f) in alternatives.iter_mut() {
        let warm = config.warm_up_time.min(Duration::from_millis(500));
        slowest = slowest.max(adaptive::warm_up(m, f.as_mut(), warm)?);
    }
    let iters = iterations_per_round(ROUND_SHARE_NS, slowest);
    let k = alternatives.len();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut rng = Rng::new(crate::analysis::SEED);
    let start = Instant::now();
    let timeout = config.timeout * k as u32;
    loop {
        for round in balanced_block(k, &mut rng) {
            for i in round {
                let (value, _) = run_once(m, alternatives[i].1.as_mut(), iters)?;
                times[i].push(value / iters as f64);
            }
        }
        let rounds_done = times[0].len();
        if rounds_done >= MIN_ROUNDS {
            let precise = (1..k).all(|i| {
                let ratios: Vec<f64> = times[i].iter().zip(&times[0]).map(|(b, a)| b / a).collect();
                sign_test_ratio(&ratios, config.confidence_level)
                    .is_some_and(|r| (r.upper - r.lower) / 2.0 / r.ratio <= config.target_precision)
            });
            if precise || start.elapsed() >= timeout {
                return Ok(times);
            }
        }
    }
}

/// Each alternative after the first, compared with the first round by round.
fn compare(ids: &[String], times: &[Vec<f64>], confidence: f64) -> Vec<PairedResult> {
    (1..ids.len())
        .map(|i| {
            let ratios: Vec<f64> = times[i].iter().zip(&times[0]).map(|(b, a)| b / a).collect();
            PairedResult {
                id: ids[i].clone(),
                reference: ids[0].clone(),
                ratio: sign_test_ratio(&ratios, confidence),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_per_round_so_drift_cancels() {
        // The machine slows down 20 % halfway; B always costs 1.05 A in the
        // same round. Whole-run means would mix the drift in; per-round
        // ratios do not.
        let a: Vec<f64> = (0..40)
            .map(|i| if i < 20 { 100.0 } else { 120.0 })
            .collect();
        let b: Vec<f64> = a.iter().map(|t| t * 1.05).collect();
        let ids = ["x/a".to_owned(), "x/b".to_owned()];
        let r = compare(&ids, &[a, b], 0.95);
        let ratio = r[0].ratio.unwrap();
        assert!((ratio.ratio - 1.05).abs() < 1e-12);
        assert!((ratio.lower - 1.05).abs() < 1e-12 && (ratio.upper - 1.05).abs() < 1e-12);
        assert_eq!(r[0].verdict(), "x/b is 1.050× x/a [1.050, 1.050]: slower");
    }

    #[test]
    fn equal_alternatives_show_no_difference() {
        let a: Vec<f64> = (0..30).map(|i| 100.0 + f64::from(i % 7)).collect();
        let b: Vec<f64> = (0..30).map(|i| 100.0 + f64::from((i + 3) % 7)).collect();
        let ids = ["x/a".to_owned(), "x/b".to_owned()];
        let r = compare(&ids, &[a, b], 0.95);
        assert!(
            r[0].verdict()
                .starts_with("x/b: no difference detected from x/a"),
            "{}",
            r[0].verdict()
        );
    }

    #[test]
    fn rounds_run_balanced_blocks_with_equal_iterations() {
        use crate::measurement::WallTime;
        use std::cell::RefCell;
        // Every call logs (alternative, iterations); the last calls are the
        // rounds, after each alternative's own warm-up.
        let log: RefCell<Vec<(usize, u64)>> = RefCell::new(Vec::new());
        let alternative = |i: usize| -> Alternative<'_, WallTime> {
            let log = &log;
            (
                format!("x/{i}"),
                Box::new(move |b: &mut Bencher<'_, WallTime>| {
                    log.borrow_mut().push((i, b.iters));
                    b.iter(|| (0..std::hint::black_box(50u64)).sum::<u64>());
                }),
            )
        };
        let mut alternatives = vec![alternative(0), alternative(1), alternative(2)];
        let config = crate::config::BenchmarkConfig {
            warm_up_time: Duration::from_millis(20),
            timeout: Duration::from_millis(30),
            ..Default::default()
        };
        let times = rounds(&WallTime, &mut alternatives, &config).unwrap();
        drop(alternatives);
        let k = 3;
        let n_rounds = times[0].len();
        assert!(n_rounds >= MIN_ROUNDS && n_rounds % 2 == 0, "{n_rounds}");
        assert!(times.iter().all(|t| t.len() == n_rounds));
        let log = log.into_inner();
        let calls = &log[log.len() - n_rounds * k..];
        // One iteration count for every call of every round.
        assert!(calls.iter().all(|c| c.1 == calls[0].1), "{calls:?}");
        let mut orders = std::collections::BTreeSet::new();
        for block in calls.chunks(2 * k) {
            let first: Vec<usize> = block[..k].iter().map(|c| c.0).collect();
            let second: Vec<usize> = block[k..].iter().map(|c| c.0).collect();
            // Each round runs every alternative once…
            let mut sorted = first.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2], "{block:?}");
            // …and the second round of a block is the first reversed (ABBA).
            let reversed: Vec<usize> = first.iter().rev().copied().collect();
            assert_eq!(second, reversed, "{block:?}");
            orders.insert(first);
        }
        // The order is drawn afresh per block, not fixed once.
        assert!(orders.len() >= 2, "{orders:?}");
    }
}

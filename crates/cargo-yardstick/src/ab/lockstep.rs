//! The lock-step engine of `ab`: the bench binaries of A and B run as
//! long-lived worker processes (`yardstick::worker::Worker`), and each
//! benchmark is measured in short alternating rounds of the same iteration
//! count on both sides.
//!
//! Rounds come in blocks of two, a random order of A and B then its reverse
//! (AB BA or BA AB: `yardstick_stats::paired::balanced_block`, the schedule
//! interleaved groups use too), so a drift within a block hits both sides alike; the
//! per-round ratio B/A cancels what the two share. Blocks are spread over a
//! few worker pairs (each pair a fresh A process and a fresh B process), so
//! the processes' own offsets (heap layout, address-space randomisation) are
//! sampled several times instead of being frozen into one pair's ratio.

use std::process::Command;
use std::time::{Duration, Instant};

use yardstick::worker::{Worker, WorkerError};
use yardstick_stats::paired::{balanced_block, iterations_per_round};
use yardstick_stats::paired::{unit_medians, units_t_ratio, RatioInterval};
use yardstick_stats::rng::Rng;

/// How long a worker may take to reach a benchmark (its setup code runs).
const ADVANCE_LIMIT: Duration = Duration::from_secs(120);

/// The first pair's warm-up: the shortest, and the longest (the doubling
/// iteration counts overshoot it by up to twice). It also sets the
/// iteration count of the rounds.
const WARM_UP_MIN: Duration = Duration::from_millis(10);
const WARM_UP_MAX: Duration = Duration::from_millis(50);

/// The other pairs' warm-up: only their own caches and pages need warming
/// (the machine's clock is warm), and the rounds' median shrugs off a cold
/// first round. Warming eight pairs as long as the first took 2 s of a
/// 2.5 s budget on a loaded machine.
const WARM_UP_AGAIN_MIN: Duration = Duration::from_millis(1);
const WARM_UP_AGAIN_MAX: Duration = Duration::from_millis(4);

/// The engine's knobs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Worker pairs kept alive; blocks of rounds go to them in turn.
    pub pairs: usize,
    /// What one side's share of a round aims at.
    pub round: Duration,
    /// Stop once the interval's half width is within this share of the
    /// ratio…
    pub precision: f64,
    /// …or after this long on the benchmark.
    pub timeout: Duration,
    /// Rounds every pair must have before the precision is looked at.
    pub min_rounds: usize,
    /// Confidence of the interval.
    pub confidence: f64,
    /// The seed of the block orders.
    pub seed: u64,
    /// How long one warm-up or one round may take before the worker is
    /// considered hung and killed.
    pub hang_limit: Duration,
}

/// One benchmark measured in lock-step.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Time per iteration of A in each round.
    pub a: Vec<f64>,
    /// Time per iteration of B in each round, paired with `a`.
    pub b: Vec<f64>,
    /// The worker pair of each round (0-based), paired with `a`.
    pub pair: Vec<usize>,
    /// Iterations per round (the same on both sides).
    pub iters: u64,
    /// Wall time spent on the benchmark, warm-ups included.
    pub seconds: f64,
}

impl Measured {
    /// The per-round ratios B/A.
    #[must_use]
    pub fn ratios(&self) -> Vec<f64> {
        self.b.iter().zip(&self.a).map(|(b, a)| b / a).collect()
    }

    /// The interval of B/A over the worker pairs (Student's t over each
    /// pair's median ratio) and its p-value for "B/A = 1"; `None` with
    /// fewer than two pairs.
    #[must_use]
    pub fn interval_and_p(&self, confidence: f64) -> Option<(RatioInterval, f64)> {
        units_t_ratio(&unit_medians(&self.ratios(), &self.pair), confidence)
    }

    /// [`Measured::interval_and_p`]'s interval.
    #[must_use]
    pub fn interval(&self, confidence: f64) -> Option<RatioInterval> {
        self.interval_and_p(confidence).map(|(i, _)| i)
    }
}

/// A side's worker processes are made by this (a bench binary with its
/// arguments and working directory).
pub type Spawner<'a> = &'a dyn Fn() -> Command;

/// The worker pairs of one pair of bench binaries.
pub struct Engine<'a> {
    spawn: [Spawner<'a>; 2],
    pairs: Vec<Option<[Worker; 2]>>,
    settings: Settings,
    rng: Rng,
}

/// A side's name in messages.
const SIDE: [&str; 2] = ["A", "B"];

/// The ids of the benchmarks of one side's binary, in its order.
///
/// # Errors
///
/// One line when the worker cannot start or list.
pub fn list(spawn: Spawner<'_>) -> Result<Vec<String>, String> {
    let mut w = Worker::spawn(spawn()).map_err(|e| e.to_string())?;
    w.ids(ADVANCE_LIMIT).map_err(|e| e.to_string())
}

impl<'a> Engine<'a> {
    /// An engine over A's and B's binaries; workers start on first use.
    #[must_use]
    pub fn new(a: Spawner<'a>, b: Spawner<'a>, settings: Settings) -> Engine<'a> {
        let pairs = (0..settings.pairs.max(1)).map(|_| None).collect();
        Engine {
            rng: Rng::new(settings.seed),
            spawn: [a, b],
            pairs,
            settings,
        }
    }

    /// Pair `k`, both waiting at `id`, started (again) if need be.
    fn ready(&mut self, k: usize, id: &str) -> Result<&mut [Worker; 2], String> {
        for attempt in 0..2 {
            if !self.pairs[k]
                .as_ref()
                .is_some_and(|p| !p.iter().any(Worker::is_gone))
            {
                let a = Worker::spawn((self.spawn[0])()).map_err(|e| format!("A: {e}"))?;
                let b = Worker::spawn((self.spawn[1])()).map_err(|e| format!("B: {e}"))?;
                self.pairs[k] = Some([a, b]);
            }
            let pair = self.pairs[k].as_mut().expect("started above");
            let mut both = true;
            for (s, w) in pair.iter_mut().enumerate() {
                match w.advance_to(id, ADVANCE_LIMIT) {
                    Ok(true) => {}
                    // Walked past it (the binary's order differs from the
                    // list's): a fresh pair on the next attempt.
                    Ok(false) => both = false,
                    Err(e) => {
                        self.pairs[k] = None;
                        return Err(format!("{}'s worker: {e}", SIDE[s]));
                    }
                }
            }
            if both {
                return Ok(self.pairs[k].as_mut().expect("kept"));
            }
            self.pairs[k] = None;
            if attempt == 1 {
                break;
            }
        }
        Err(format!(
            "a worker never reached {id}: its ids differ between runs"
        ))
    }

    /// Measures benchmark `id` (present in both binaries).
    ///
    /// # Errors
    ///
    /// One line when a worker fails: the routine panics, the worker hangs
    /// (killed after a time limit) or exits. Its pair is replaced for the
    /// next benchmark.
    pub fn measure(&mut self, id: &str) -> Result<Measured, String> {
        let start = Instant::now();
        let result = self.rounds(id, start);
        if result.is_err() {
            // Whatever state the other workers are in, the next benchmark
            // starts from fresh pairs where one failed.
            for p in &mut self.pairs {
                if p.as_ref().is_some_and(|p| p.iter().any(Worker::is_gone)) {
                    *p = None;
                }
            }
        }
        result
    }

    fn fail(&mut self, k: usize, side: usize, e: &WorkerError) -> String {
        if !matches!(e, WorkerError::Failed(_)) {
            self.pairs[k] = None;
        }
        format!("{}'s worker: {e}", SIDE[side])
    }

    fn rounds(&mut self, id: &str, start: Instant) -> Result<Measured, String> {
        let n_pairs = self.pairs.len();
        let mut slowest: f64 = 0.0;
        let hang = self.settings.hang_limit;
        for k in 0..n_pairs {
            let pair = self.ready(k, id)?;
            let mut failure = None;
            let (min, max) = if k == 0 {
                (WARM_UP_MIN, WARM_UP_MAX)
            } else {
                (WARM_UP_AGAIN_MIN, WARM_UP_AGAIN_MAX)
            };
            for (s, w) in pair.iter_mut().enumerate() {
                match w.warm_up(min, max, hang) {
                    // The iteration count comes from the long warm-ups.
                    Ok(t) if k == 0 => slowest = slowest.max(t),
                    Ok(_) => {}
                    Err(e) => {
                        failure = Some((s, e));
                        break;
                    }
                }
            }
            if let Some((s, e)) = failure {
                return Err(self.fail(k, s, &e));
            }
        }
        let round_ns = self.settings.round.as_nanos() as f64;
        let iters = iterations_per_round(round_ns, slowest);
        let mut m = Measured {
            a: Vec::new(),
            b: Vec::new(),
            pair: Vec::new(),
            iters,
            seconds: 0.0,
        };
        let mut block = 0;
        loop {
            let k = block % n_pairs;
            block += 1;
            for order in balanced_block(2, &mut self.rng) {
                let mut got = [0.0; 2];
                for s in order {
                    let pair = self.pairs[k].as_mut().ok_or("a worker pair is gone")?;
                    match pair[s].sample(vec![iters], Duration::ZERO, 1, self.settings.hang_limit) {
                        Ok((_, v)) if v.len() == 1 => got[s] = v[0] / iters as f64,
                        Ok(_) => return Err(format!("{}'s worker: no sample", SIDE[s])),
                        Err(e) => return Err(self.fail(k, s, &e)),
                    }
                }
                m.a.push(got[0]);
                m.b.push(got[1]);
                m.pair.push(k);
            }
            if self.done(&m, start) {
                m.seconds = start.elapsed().as_secs_f64();
                return Ok(m);
            }
        }
    }

    /// Whether the interval is precise enough, or the time is up; never
    /// before every pair has `min_rounds`.
    fn done(&self, m: &Measured, start: Instant) -> bool {
        let s = &self.settings;
        let fewest = (0..self.pairs.len())
            .map(|k| m.pair.iter().filter(|&&p| p == k).count())
            .min()
            .unwrap_or(0);
        if fewest < s.min_rounds {
            return false;
        }
        precise(m.interval(s.confidence).as_ref(), s.precision) || start.elapsed() >= s.timeout
    }
}

/// Whether an interval's half width is within `precision` of its ratio.
#[must_use]
pub fn precise(i: Option<&RatioInterval>, precision: f64) -> bool {
    i.is_some_and(|r| (r.upper - r.lower) / 2.0 / r.ratio <= precision)
}

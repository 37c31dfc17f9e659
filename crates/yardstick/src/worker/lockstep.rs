//! The lock-step engine: two bench binaries (two builds of the same
//! benchmarks) run as worker processes, and each benchmark present in both
//! is measured in short alternating rounds of the same iteration count on
//! both sides. It serves `cargo bench`'s comparison with the baseline's
//! binary and `cargo yardstick ab` alike.
//!
//! Rounds come in blocks of two, a random order of A and B then its
//! reverse (AB BA or BA AB: `yardstick_stats::paired::balanced_block`), so
//! a drift within a block hits both sides alike; the per-round ratio B/A
//! cancels what the two share. Blocks are spread over several worker pairs
//! (each pair a fresh A process and a fresh B process), so the processes'
//! own offsets (heap layout, address-space randomisation) are sampled
//! several times instead of being frozen into one pair's ratio; each pair's
//! median ratio is one observation of Student's t interval.
//!
//! The design is fixed before the first round: the number of pairs, and
//! the blocks per pair from the time budget and the round's length. No
//! rule looks at the interval to decide when to stop, because one that
//! stops when the interval first looks narrow picks the moments the spread
//! was underestimated: in eight A/A tries of the earlier, precision-stopped
//! engine, the one false alarm came from a try that stopped after 94
//! rounds when its interval first reached ±0.5 %, where the others ran
//! 450–500. A fixed design keeps the interval's stated coverage.
//!
//! Memory: the workers of a pair each hold what the benchmark's setup
//! builds. While all the pairs together stay under a budget they stay
//! alive and walk along the benchmarks with the parent (a spawn per pair
//! per run); past it, one pair is alive at a time and each is started for
//! its share of the rounds and ended after it.

use std::process::Command;
use std::time::{Duration, Instant};

use yardstick_stats::layouts;
use yardstick_stats::paired::{balanced_block, iterations_per_round};
use yardstick_stats::paired::{unit_medians, units_in_order, units_t_ratio, RatioInterval};
use yardstick_stats::rng::Rng;

use super::next_pair::{Preparing, Retired};
use super::warming::{Limits, Warming};
use super::{Worker, WorkerError};

/// One side's share of a round of `cargo bench`'s comparison (and `ab`'s
/// default): long enough that the clock's cost vanishes, short enough that
/// most rounds miss the machine's interruptions (`cargo yardstick doctor`
/// counts them over windows of this length). `cargo bench` shortens it a
/// little where a suite's short measurement time leaves a budget under the
/// blocks' floor (`runner::lockstep::round_for`).
pub const ROUND: Duration = Duration::from_millis(2);

/// Blocks each worker pair runs whatever the budget, at rounds of
/// [`ROUND`] (`cargo bench`, `calibrate --layouts`) or `ab --round-ms`;
/// longer routines need fewer ([`Settings::design`]): a median of fewer
/// short rounds is mostly noise. Not two: at base64's 0.36 s budget two blocks (0.26 s
/// of rounds instead of 0.38 s) found hex's +1.2 % in `hex_encode` 13
/// times in 40 runs given that budget, three blocks 25 in 40.
pub const MIN_BLOCKS: usize = 3;

/// How long a worker may take to reach a benchmark (its setup code runs).
const ADVANCE_LIMIT: Duration = Duration::from_secs(120);

/// The first pair's warm-up: the shortest, and the longest (the doubling
/// iteration counts overshoot it by up to twice). It also sets the
/// iteration count of the rounds.
const WARM_UP_MIN: Duration = Duration::from_millis(10);
const WARM_UP_MAX: Duration = Duration::from_millis(50);

/// The other pairs' warm-up: only their own caches and pages need warming
/// (the machine's clock is warm), and the rounds' median shrugs off a cold
/// first round. Not shorter: at most 1 ms a side (and 5 ms for the first
/// pair) took a base64 small input's measuring from 0.54 s to 0.43 s, but
/// two 20-run cells of hex with +1.2 % in `hex_encode` and the layouts
/// sampled then flagged 7 of the 320 other lines, against 0 of 160 with
/// these warm-ups in the same hour.
const WARM_UP_AGAIN_MIN: Duration = Duration::from_millis(1);
const WARM_UP_AGAIN_MAX: Duration = Duration::from_millis(4);

/// The resident memory one pair's two workers may hold, on average, before
/// one pair at a time is kept alive: small benchmarks (a few MB a worker)
/// keep every pair, a benchmark whose setup builds 200 MB keeps one.
pub const MEMORY_PER_PAIR: u64 = 32 << 20;

/// [`MEMORY_PER_PAIR`] for eight pairs (`ab`'s, the sampling workers'):
/// what all the pairs' workers may hold together.
pub const DEFAULT_MEMORY_BUDGET: u64 = 8 * MEMORY_PER_PAIR;

/// The engine's knobs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Worker pairs; each pair's median ratio is one observation.
    pub pairs: usize,
    /// What one side's share of a round aims at.
    pub round: Duration,
    /// The time the rounds of one benchmark aim at; with `round` and
    /// `pairs` it fixes the blocks per pair.
    pub budget: Duration,
    /// Blocks (two rounds each) every pair runs, whatever the budget, when
    /// its rounds are [`Settings::round`] long; longer rounds need fewer
    /// ([`Settings::design`]).
    pub min_blocks: usize,
    /// The fewest worker pairs a slow routine (one block a pair) whose
    /// rounds would overrun twice the budget is cut to
    /// ([`Settings::design`]); `pairs` keeps them all.
    pub min_pairs: usize,
    /// Confidence of the interval.
    pub confidence: f64,
    /// The seed of the block orders.
    pub seed: u64,
    /// How long one warm-up or one round may take before the worker is
    /// considered hung and killed.
    pub hang_limit: Duration,
    /// Resident memory all the pairs' workers together may hold; past it
    /// one pair is alive at a time.
    pub memory_budget: u64,
    /// Code layouts each side's spawner spreads its pairs over (pair `k`
    /// runs layout `k % layouts`), 0 or 1 for a single layout: with two or
    /// more, the layouts are the interval's units.
    pub layouts: usize,
}

impl Settings {
    /// The design for rounds of `round_ns` a side: how many worker pairs,
    /// and how many blocks each runs.
    ///
    /// The blocks fill the budget spread over the pairs (a block is four
    /// sides' rounds), at least enough that each pair's rounds span
    /// `min_blocks` blocks of `round` (with three of 2 ms: three blocks of
    /// rounds under 3 ms, two up to 6 ms, one from there on). A pair's
    /// median of six 2 ms rounds shrugs off an interrupted one, and a round
    /// of one 60 ms iteration already averages the interruptions that many
    /// rounds would, so one block of those does (base64's 30 MB inputs ran
    /// 96 such rounds a benchmark, twice Criterion.rs's time for them, for
    /// a pair median no steadier). A routine that slow (one block a pair)
    /// whose design still overruns twice the budget sheds pairs down to
    /// `min_pairs`: it gets fewer observations, not a run many times longer
    /// than the suite asked for. Routines of short rounds keep their pairs
    /// whatever the budget (the floor of sixteen pairs of three blocks of
    /// 2 ms rounds is 384 ms, over a 1 s measurement's 120 ms): their pairs
    /// are what finds a change at a suite's share of the level.
    #[must_use]
    pub fn design(&self, round_ns: f64) -> Design {
        let round_ns = round_ns.max(1.0);
        let aim = self.round.as_nanos() as f64;
        let floor = ((self.min_blocks as f64 * aim / round_ns).ceil() as usize)
            .clamp(1, self.min_blocks.max(1));
        let budget = self.budget.as_nanos() as f64;
        let pairs = self.pairs.max(2);
        let pairs = if floor == 1 {
            let fit_pairs = (2.0 * budget / (4.0 * round_ns)).floor() as usize;
            fit_pairs.clamp(self.min_pairs.clamp(2, pairs), pairs)
        } else {
            pairs
        };
        let fit = (budget / (4.0 * round_ns * pairs as f64)).floor() as usize;
        Design {
            pairs,
            blocks: fit.max(floor),
        }
    }
}

/// Worker pairs and blocks per pair of one benchmark ([`Settings::design`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Design {
    /// Worker pairs; each pair's median ratio is one observation.
    pub pairs: usize,
    /// Blocks (two rounds each) per pair.
    pub blocks: usize,
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
    /// Code layouts the pairs were spread over (pair `k` ran layout
    /// `k % layouts`); 0 or 1 for one layout.
    pub layouts: usize,
}

impl Measured {
    /// The per-round ratios B/A.
    #[must_use]
    pub fn ratios(&self) -> Vec<f64> {
        self.b.iter().zip(&self.a).map(|(b, a)| b / a).collect()
    }

    /// The interval of B/A and its p-value for "B/A = 1": Student's t over
    /// each pair's median ratio, or with several code layouts over each
    /// layout's mean of its pairs' (pairs of one layout share its offset;
    /// `yardstick_stats::layouts`). `None` with fewer than two units.
    #[must_use]
    pub fn interval_and_p(&self, confidence: f64) -> Option<(RatioInterval, f64)> {
        let (medians, layout) = self.pair_medians();
        if self.layouts < 2 {
            return units_t_ratio(&medians, confidence);
        }
        units_t_ratio(&layouts::by_layout(&medians, &layout), confidence)
    }

    /// Each pair's median ratio and its layout, in order of first round.
    fn pair_medians(&self) -> (Vec<f64>, Vec<usize>) {
        let medians = unit_medians(&self.ratios(), &self.pair);
        (medians, self.pair_layouts())
    }

    /// The layout each pair ran, in the pairs' order.
    fn pair_layouts(&self) -> Vec<usize> {
        units_in_order(&self.pair)
            .iter()
            .map(|p| p % self.layouts.max(1))
            .collect()
    }

    /// What relinking moves this comparison by, when it ran on several
    /// code layouts (`yardstick_stats::layouts::spread`).
    #[must_use]
    pub fn layout_spread(&self) -> Option<layouts::Spread> {
        if self.layouts < 2 {
            return None;
        }
        let (medians, layout) = self.pair_medians();
        layouts::spread(&medians, &layout)
    }

    /// [`Measured::interval_and_p`]'s interval.
    #[must_use]
    pub fn interval(&self, confidence: f64) -> Option<RatioInterval> {
        self.interval_and_p(confidence).map(|(i, _)| i)
    }

    /// The code layouts the rounds ran on (0 for one layout): a first
    /// look of eight pairs uses eight of sixteen.
    #[must_use]
    pub fn layouts_used(&self) -> usize {
        if self.layouts < 2 {
            return 0;
        }
        let used: std::collections::BTreeSet<usize> = self.pair_layouts().into_iter().collect();
        used.len()
    }

    /// The number of distinct worker pairs the rounds came from.
    #[must_use]
    pub fn pairs(&self) -> usize {
        units_in_order(&self.pair).len()
    }
}

/// A side's worker processes are made by this, given the pair's number (a
/// bench binary with its arguments and working directory).
pub type Spawner<'a> = &'a (dyn Fn(usize) -> Command + Sync);

/// The worker pairs of one pair of bench binaries.
pub struct Engine<'a> {
    spawn: [Spawner<'a>; 2],
    pairs: Vec<Option<[Worker; 2]>>,
    settings: Settings,
    rng: Rng,
    /// One pair alive at a time (the workers are large).
    one_at_a_time: bool,
    /// The one CPU every worker runs on (`super::cpu`).
    cpu: Option<usize>,
    /// The other CPUs, where the next pair is set up (`super::next_pair`).
    spare: Vec<usize>,
    /// Pairs being started off the measuring CPU: the next one when pairs
    /// run one at a time, every missing one otherwise.
    next: Option<Preparing>,
    /// Live pairs walking and warming up off the measuring CPU
    /// (`super::warming`), each taken before its first block.
    warming: Option<Warming>,
    /// Pairs told to quit, not yet exited.
    retired: Retired,
}

/// A side's name in messages.
const SIDE: [&str; 2] = ["A", "B"];

/// Why a benchmark was not measured in lock-step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// B's own routine failed in its worker: it panicked (the worker's
    /// error says where), or it hung and was killed. Measured alone it
    /// fails the same way, so `cargo bench` reports the benchmark failed
    /// rather than measuring it again.
    RoutineOfB(String),
    /// Anything else (A's routine, a worker that could not start, walk or
    /// stay alive), in one line naming the side.
    Other(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::RoutineOfB(e) => write!(f, "{}'s worker: {e}", SIDE[1]),
            Failure::Other(line) => f.write_str(line),
        }
    }
}

impl From<String> for Failure {
    fn from(line: String) -> Failure {
        Failure::Other(line)
    }
}

/// The ids of the benchmarks of one side's binary, in its order.
///
/// # Errors
///
/// One line when the worker cannot start or list.
pub fn list(spawn: Spawner<'_>) -> Result<Vec<String>, String> {
    let mut w = Worker::spawn(spawn(0)).map_err(|e| e.to_string())?;
    w.ids(ADVANCE_LIMIT).map_err(|e| e.to_string())
}

impl<'a> Engine<'a> {
    /// An engine over A's and B's binaries; workers start on first use.
    #[must_use]
    pub fn new(a: Spawner<'a>, b: Spawner<'a>, settings: Settings) -> Engine<'a> {
        let pairs = (0..settings.pairs.max(2)).map(|_| None).collect();
        let cpu = super::cpu::measuring_cpu();
        Engine {
            rng: Rng::new(settings.seed),
            spawn: [a, b],
            pairs,
            settings,
            one_at_a_time: false,
            spare: cpu.map(super::cpu::spare_cpus).unwrap_or_default(),
            cpu,
            next: None,
            warming: None,
            retired: Retired::default(),
        }
    }

    /// The rounds' time and a side's share of a round for the next
    /// benchmarks (a suite's groups can ask for different measurement
    /// times).
    pub fn set_budget(&mut self, budget: Duration, round: Duration) {
        self.settings.budget = budget;
        self.settings.round = round;
    }

    /// Whether one pair is alive at a time (the workers were found large).
    #[must_use]
    pub fn one_pair_at_a_time(&self) -> bool {
        self.one_at_a_time
    }

    /// Side `side`'s worker of pair `k`, on the workers' one CPU
    /// (`super::cpu`).
    fn command(&self, side: usize, k: usize) -> Command {
        let mut c = (self.spawn[side])(k);
        if let Some(cpu) = self.cpu {
            super::cpu::pin(&mut c, &[cpu]);
        }
        c
    }

    /// Starts pairs `ks` off the measuring CPU, one after the other, each
    /// walking to `id` and setting up while others measure
    /// (`super::next_pair`); nothing without a CPU to spare.
    fn prepare(&mut self, ks: &[usize], id: &str) {
        if self.cpu.is_none() || self.spare.is_empty() || ks.is_empty() {
            return;
        }
        if let Some(old) = self.next.take() {
            old.end(&mut self.retired);
        }
        let plans = ks
            .iter()
            .map(|&k| {
                let commands = [0, 1].map(|s| {
                    let mut c = (self.spawn[s])(k);
                    super::cpu::pin(&mut c, &self.spare);
                    c
                });
                (k, commands, in_turn(k))
            })
            .collect();
        self.next = Some(Preparing::start(plans, id, ADVANCE_LIMIT));
    }

    /// Pair `k`, prepared by [`Engine::prepare`], set up and moved onto the
    /// measuring CPU; left to [`Engine::ready`] to start when it is not.
    fn take_prepared(&mut self, k: usize) {
        let Some(cpu) = self.cpu else { return };
        let Some(next) = self.next.as_mut().filter(|n| n.has(k)) else {
            return;
        };
        // The setup's limit is a warm-up's, which it used to be part of.
        let limit = self.settings.hang_limit;
        if let Some(pair) = next.finish(k, cpu, &self.spare, limit, &mut self.retired) {
            self.pairs[k] = Some(pair);
        }
        if next.is_done() {
            if let Some(done) = self.next.take() {
                done.end(&mut self.retired);
            }
        }
    }

    /// Hands every other pair to [`Warming`] when all of them are alive
    /// and the last benchmark kept them (a large one retired them): they
    /// walk to `id` and warm up on the spare CPUs while pair 0 warms up
    /// here.
    fn warm_the_others(&mut self, id: &str) {
        let others = 1..self.pairs.len();
        if self.one_at_a_time || self.cpu.is_none() || self.spare.is_empty() {
            return;
        }
        if !others.clone().all(|k| self.alive(k)) {
            return;
        }
        let plans = others
            .filter_map(|k| Some((k, self.pairs[k].take()?, in_turn(k))))
            .collect();
        let limits = Limits {
            min: WARM_UP_AGAIN_MIN,
            max: WARM_UP_AGAIN_MAX,
            walk: ADVANCE_LIMIT,
            hang: self.settings.hang_limit,
        };
        self.warming = Some(Warming::start(plans, id, &self.spare, limits));
    }

    /// Whether pair `k` is with [`Warming`].
    fn warming_has(&self, k: usize) -> bool {
        self.warming.as_ref().is_some_and(|w| w.has(k))
    }

    /// Pair `k` from [`Warming`], if it is there, on the measuring CPU and
    /// warmed at `id`: warmed the usual way here if it could not be there
    /// (a fresh pair, meeting whatever failed again).
    fn take_warmed(&mut self, k: usize, id: &str) -> Result<(), Failure> {
        let (Some(cpu), true) = (self.cpu, self.warming_has(k)) else {
            return Ok(());
        };
        match self.warming.as_mut().and_then(|w| w.take(k, cpu)) {
            Some((pair, true)) => self.pairs[k] = Some(pair),
            not_warmed => {
                if let Some((pair, _)) = not_warmed {
                    self.retired.end(pair, &self.spare);
                }
                self.warm(k, id, false)?;
            }
        }
        Ok(())
    }

    /// Ends [`Warming`]: the pairs not taken come back to the measuring
    /// CPU for the next benchmark, or end when the pairs run one at a time
    /// (they may hold a large setup).
    fn end_warming(&mut self) {
        let (Some(warming), Some(cpu)) = (self.warming.take(), self.cpu) else {
            return;
        };
        for (k, pair) in warming.end() {
            if !self.one_at_a_time && super::move_pair(&pair, &[cpu]) {
                self.pairs[k] = Some(pair);
            } else {
                self.retired.end(pair, &self.spare);
            }
        }
    }

    /// Ends pair `k`, if started, without waiting for its exit.
    fn retire(&mut self, k: usize) {
        if let Some(pair) = self.pairs[k].take() {
            self.retired.end(pair, &self.spare);
        }
    }

    /// Whether pair `k` is started and neither of its workers is gone.
    fn alive(&self, k: usize) -> bool {
        self.pairs[k]
            .as_ref()
            .is_some_and(|p| !p.iter().any(Worker::is_gone))
    }

    /// Pair `k`, both waiting at `id`, started (again) if need be.
    fn ready(&mut self, k: usize, id: &str) -> Result<&mut [Worker; 2], String> {
        for attempt in 0..2 {
            if !self.alive(k) {
                let mut started: [Option<Worker>; 2] = [None, None];
                for s in in_turn(k) {
                    let w = Worker::spawn(self.command(s, k))
                        .map_err(|e| format!("{}: {e}", SIDE[s]))?;
                    started[s] = Some(w);
                }
                self.pairs[k] = Some(started.map(|w| w.expect("both spawned")));
            }
            let pair = self.pairs[k].as_mut().expect("started above");
            let mut both = true;
            for s in in_turn(k) {
                match pair[s].advance_to(id, ADVANCE_LIMIT) {
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
    /// A [`Failure`] when a worker fails: the routine panics, the worker
    /// hangs (killed after a time limit) or exits. B's routine failing is
    /// [`Failure::RoutineOfB`]. The failed pair is replaced for the next
    /// benchmark.
    pub fn measure(&mut self, id: &str) -> Result<Measured, Failure> {
        let start = Instant::now();
        let result = self.rounds(id, start);
        if let Some(next) = self.next.take() {
            // Left over by a failure: its workers end.
            next.end(&mut self.retired);
        }
        // The pairs the design did not use, or all of them after a failure.
        self.end_warming();
        if result.is_err() || self.one_at_a_time {
            // Whatever state the other workers are in, the next benchmark
            // starts from fresh pairs where one failed; large workers are
            // never kept.
            for k in 0..self.pairs.len() {
                let gone = self.pairs[k]
                    .as_ref()
                    .is_some_and(|p| p.iter().any(Worker::is_gone));
                if self.one_at_a_time || gone {
                    self.retire(k);
                }
            }
        }
        result
    }

    fn fail(&mut self, k: usize, side: usize, e: &WorkerError) -> Failure {
        if !matches!(e, WorkerError::Failed(_)) {
            self.pairs[k] = None;
        }
        let routine = matches!(e, WorkerError::Failed(_) | WorkerError::TimedOut { .. });
        if routine && side == 1 {
            Failure::RoutineOfB(e.to_string())
        } else {
            Failure::Other(format!("{}'s worker: {e}", SIDE[side]))
        }
    }

    /// Warms pair `k` up at `id`; the slower side's time per iteration.
    fn warm(&mut self, k: usize, id: &str, first: bool) -> Result<f64, Failure> {
        let hang = self.settings.hang_limit;
        let (min, max) = if first {
            (WARM_UP_MIN, WARM_UP_MAX)
        } else {
            (WARM_UP_AGAIN_MIN, WARM_UP_AGAIN_MAX)
        };
        let pair = self.ready(k, id)?;
        let mut slowest: f64 = 0.0;
        let mut failure = None;
        for s in in_turn(k) {
            match pair[s].warm_up(min, max, hang) {
                Ok(t) => slowest = slowest.max(t),
                Err(e) => {
                    failure = Some((s, e));
                    break;
                }
            }
        }
        match failure {
            Some((s, e)) => Err(self.fail(k, s, &e)),
            None => Ok(slowest),
        }
    }

    /// Whether the pairs' workers together would hold more than the
    /// memory budget, judged from pair `k`'s.
    fn too_large(&self, k: usize) -> bool {
        let Some(pair) = &self.pairs[k] else {
            return false;
        };
        let one: u64 = pair.iter().filter_map(Worker::resident_bytes).sum();
        one.saturating_mul(self.pairs.len() as u64) > self.settings.memory_budget
    }

    fn rounds(&mut self, id: &str, start: Instant) -> Result<Measured, Failure> {
        // A fresh first pair (the binary's first benchmark, or every one
        // after a large benchmark, whose pairs are never kept) sets up with
        // a CPU a side rather than one side after the other here.
        if !self.alive(0) {
            self.prepare(&[0], id);
            self.take_prepared(0);
        }
        self.warm_the_others(id);
        let slowest = self.warm(0, id, true)?;
        // Judged again at every benchmark, on its first pair: after a
        // large benchmark that pair is fresh (walked past the large setup,
        // not through it), and a small benchmark behind a large one lets
        // every pair live again. base64's 20 small decodes come after its
        // 30 MB encodes, and one pair at a time (two spawns a pair, and a
        // walk from the start) took them from 0.5 s each to 1.0 s.
        self.one_at_a_time = self.too_large(0);
        if self.one_at_a_time {
            self.end_warming();
        }
        let iters = iterations_per_round(self.settings.round.as_nanos() as f64, slowest);
        let round_ns = iters as f64 * slowest;
        let Design { pairs, blocks } = self.settings.design(round_ns);
        let n_pairs = pairs.min(self.pairs.len());
        if let Some(w) = &self.warming {
            w.only(n_pairs);
        }
        let mut m = Measured {
            a: Vec::new(),
            b: Vec::new(),
            pair: Vec::new(),
            iters,
            seconds: 0.0,
            layouts: self.settings.layouts,
        };
        if self.one_at_a_time {
            for k in 0..n_pairs {
                if k > 0 {
                    self.retire(k - 1);
                    self.take_prepared(k);
                }
                // Pair k + 1 sets up beside pair k's warm-up and rounds.
                if k + 1 < n_pairs {
                    self.prepare(&[k + 1], id);
                }
                if k > 0 {
                    self.warm(k, id, false)?;
                }
                for _ in 0..blocks {
                    self.block(k, &mut m)?;
                }
            }
        } else {
            // Missing pairs (the first benchmark, or one after benchmarks
            // whose pairs ran one at a time) start one after the other off
            // the measuring CPU while the first ones warm up. Live ones are
            // all with `self.warming`, each taken before its first block.
            if self.warming.is_none() {
                let missing: Vec<usize> = (1..n_pairs).filter(|&k| !self.alive(k)).collect();
                self.prepare(&missing, id);
                for k in 1..n_pairs {
                    self.take_prepared(k);
                    self.warm(k, id, false)?;
                }
            }
            // Blocks go to the pairs in turn, so each pair's rounds span
            // the whole measurement.
            for b in 0..blocks * n_pairs {
                let k = b % n_pairs;
                self.take_warmed(k, id)?;
                self.block(k, &mut m)?;
            }
        }
        m.seconds = start.elapsed().as_secs_f64();
        Ok(m)
    }

    /// One balanced block (two rounds) on pair `k`.
    fn block(&mut self, k: usize, m: &mut Measured) -> Result<(), Failure> {
        let iters = m.iters;
        for order in balanced_block(2, &mut self.rng) {
            let mut got = [0.0; 2];
            for s in order {
                let pair = self.pairs[k]
                    .as_mut()
                    .ok_or_else(|| Failure::Other("a worker pair is gone".into()))?;
                match pair[s].sample(vec![iters], Duration::ZERO, 1, self.settings.hang_limit) {
                    Ok((_, v)) if v.len() == 1 => got[s] = v[0] / iters as f64,
                    Ok(_) => return Err(format!("{}'s worker: no sample", SIDE[s]).into()),
                    Err(e) => return Err(self.fail(k, s, &e)),
                }
            }
            m.a.push(got[0]);
            m.b.push(got[1]);
            m.pair.push(k);
        }
        Ok(())
    }
}

/// The order pair `k`'s sides are started, walked and warmed in: A first
/// in even pairs, B first in odd ones. Whichever goes first starts with
/// the other's process not yet there and warms up longer before the first
/// round; alternating leaves neither side that place in every pair.
fn in_turn(k: usize) -> [usize; 2] {
    if k % 2 == 0 {
        [0, 1]
    } else {
        [1, 0]
    }
}

/// Whether an interval's half width is within `precision` of its ratio.
#[must_use]
pub fn precise(i: Option<&RatioInterval>, precision: f64) -> bool {
    i.is_some_and(|r| (r.upper - r.lower) / 2.0 / r.ratio <= precision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn both_sides_workers_start_on_the_one_cpu() {
        let Some(cpu) = super::super::cpu::measuring_cpu() else {
            eprintln!("skipped: this process may run on one CPU only");
            return;
        };
        let grep = |_k: usize| {
            let mut c = Command::new("grep");
            c.args(["Cpus_allowed_list", "/proc/self/status"]);
            c
        };
        let engine = Engine::new(&grep, &grep, settings(10, 2));
        for side in 0..2 {
            let out = engine.command(side, 1).output().expect("grep runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                text.split_whitespace().last(),
                Some(cpu.to_string().as_str()),
                "{text}"
            );
        }
    }

    fn settings(budget_ms: u64, pairs: usize) -> Settings {
        Settings {
            pairs,
            round: Duration::from_millis(2),
            budget: Duration::from_millis(budget_ms),
            min_blocks: 3,
            min_pairs: 8,
            confidence: 0.95,
            seed: 1,
            hang_limit: Duration::from_secs(10),
            memory_budget: 1 << 28,
            layouts: 0,
        }
    }

    fn design(budget_ms: u64, pairs: usize, round_ms: f64) -> (usize, usize) {
        let d = settings(budget_ms, pairs).design(round_ms * 1e6);
        (d.pairs, d.blocks)
    }

    #[test]
    fn the_design_fills_the_budget_with_whole_blocks() {
        // 8 pairs × 4 sides × 2 ms = 64 ms a sweep: 600 ms holds 9.
        assert_eq!(design(600, 8, 2.0), (8, 9));
        // 16 pairs × 4 × 2 ms × 3 blocks = 384 ms, over 360 ms: the floor
        // of three blocks, every pair kept, and so at 120 ms.
        assert_eq!(design(360, 16, 2.0), (16, 3));
        assert_eq!(design(120, 16, 2.0), (16, 3));
        // 3.5 ms rounds: two blocks already span 14 ms of each side's
        // rounds (the floor's 3 × 2 × 2 ms = 12 ms).
        assert_eq!(design(360, 16, 3.5), (16, 2));
    }

    #[test]
    fn a_slow_routine_runs_one_block_on_fewer_pairs() {
        // 63 ms rounds: one block (4 × 63 = 252 ms a pair); twice 360 ms
        // holds two pairs, so the pairs' floor, 8: 2.0 s of rounds where
        // sixteen pairs of three blocks took 12.1 s.
        assert_eq!(design(360, 16, 63.0), (8, 1));
        // 10 ms rounds: 720 / 40 = 18 pairs fit, all sixteen run one block.
        assert_eq!(design(360, 16, 10.0), (16, 1));
        // 25 ms rounds: 720 / 100 = 7.2, so 8 pairs; 360 / (4 × 25 × 8)
        // is under one block.
        assert_eq!(design(360, 16, 25.0), (8, 1));
        // `ab`'s pairs are the user's: min_pairs = pairs sheds none.
        let mut s = settings(360, 4);
        s.min_pairs = 4;
        assert_eq!(
            s.design(63e6),
            Design {
                pairs: 4,
                blocks: 1
            }
        );
    }

    #[test]
    fn half_the_pairs_start_with_each_side() {
        let first: Vec<usize> = (0..16).map(|k| in_turn(k)[0]).collect();
        assert_eq!(first.iter().filter(|&&s| s == 0).count(), 8);
        for k in 0..16 {
            let mut both = in_turn(k);
            both.sort_unstable();
            assert_eq!(both, [0, 1], "pair {k} runs each side once");
        }
        // Pairs 0..8 are the first look: it alternates too.
        assert_eq!(first[..8].iter().filter(|&&s| s == 1).count(), 4);
    }

    #[test]
    fn pairs_are_counted_once_each() {
        let m = Measured {
            a: vec![1.0; 6],
            b: vec![1.0; 6],
            pair: vec![0, 1, 0, 2, 1, 2],
            iters: 1,
            seconds: 0.0,
            layouts: 0,
        };
        assert_eq!(m.pairs(), 3);
    }

    #[test]
    fn a_second_look_runs_the_next_layouts_when_there_are_sixteen() {
        // Pair k runs layout k % layouts: with sixteen layouts the second
        // look's pairs 8..15 add eight new ones; with eight they repeat.
        let rounds = |pairs: usize, layouts: usize| Measured {
            a: vec![1.0; 2 * pairs],
            b: vec![1.0; 2 * pairs],
            pair: (0..pairs).flat_map(|k| [k, k]).collect(),
            iters: 1,
            seconds: 0.0,
            layouts,
        };
        assert_eq!(rounds(8, 16).layouts_used(), 8);
        assert_eq!(rounds(16, 16).layouts_used(), 16);
        assert_eq!(rounds(16, 8).layouts_used(), 8);
        assert_eq!(rounds(16, 0).layouts_used(), 0);
    }
}

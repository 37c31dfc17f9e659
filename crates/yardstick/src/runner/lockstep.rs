//! The comparison with the baseline's own binary: when the baseline was
//! saved with the bench binary that measured it, that binary and this one
//! run as worker pairs and the benchmark is measured in lock-step
//! (`worker::lockstep`), so that the machine's drift between the runs,
//! which no cross-run rule can tell from a change on a shared machine,
//! cancels. This run's samples are then its own side's rounds.
//!
//! Both binaries run with this run's arguments, environment and working
//! directory: what a benchmark reads from outside its binary (a variable,
//! a data file) is the same on both sides, so a change made there compares
//! equal by construction.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use yardstick_format::binary::BinaryFile;
use yardstick_format::change::RewrittenFile;
use yardstick_stats::paired::RatioInterval;
use yardstick_stats::sequential::TwoLooks;

use crate::analysis::{Lockstep, Samples};
use crate::config::{ActualSamplingMode, BenchmarkConfig};
use crate::explain::each::Counts;
use crate::store::{BenchmarkDir, SavedSample};
use crate::worker::lockstep::{self, Engine, Failure, Measured, Settings};
use crate::worker::Unavailable;

/// Worker pairs per benchmark and look: Student's t with 15 degrees of
/// freedom. Eight (7) left published suites' layout-sensitive benchmarks
/// without a verdict at a suite's share of the level, where t's critical
/// value at 0.1 % is 5.4 with 7 and 4.1 with 15, and the standard error
/// falls by √2: hex's `hex_encode` at +3 % (sixteen layouts, at rest) was
/// found 7 of 10 times with eight pairs, 9 of 10 with sixteen, in the same
/// time (the rounds' budget is shared, so each pair runs half as many).
const PAIRS: usize = 16;

/// The fewest worker pairs of a benchmark whose rounds, one block a pair,
/// overrun twice its budget (`Settings::design`): eight, `ab`'s default;
/// a second look adds as many again. A 30 MB base64 input's 63 ms routine
/// runs 8 pairs of one block, 2 s of rounds, against Criterion.rs's
/// hundred iterations (6.3 s).
const MIN_PAIRS: usize = 8;

/// [`PAIRS`], or `YARDSTICK_LOCKSTEP_PAIRS` (2 to 64; hidden, for the
/// trust experiment's designs).
fn pairs() -> usize {
    static PAIRS_SET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PAIRS_SET.get_or_init(|| {
        std::env::var("YARDSTICK_LOCKSTEP_PAIRS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .map_or(PAIRS, |n| n.clamp(2, 64))
    })
}

/// The rounds' time per benchmark at Criterion.rs's default measurement
/// time (with spawns and warm-ups, about 0.8 s a benchmark: under an
/// eighth of Criterion.rs's 3 s warm-up and 5 s of measurement).
const BUDGET: Duration = Duration::from_millis(600);

/// The longest rounds' time of one benchmark, whatever measurement time a
/// suite asks for: the blocks per pair stay a count a loop can run.
const BUDGET_MAX: Duration = Duration::from_secs(3600);

/// The rounds' time of a benchmark of `config`: [`BUDGET`] in proportion
/// to the measurement time it asks for (Criterion.rs's 5 s by default). A
/// suite that shortens its measurement to 3 s (to run faster) gets 0.36 s
/// of rounds, and one that lengthens it for a noisy benchmark gets more:
/// the run keeps to about an eighth of Criterion.rs's time either way. The
/// blocks' floor (`min_blocks`) still holds under a short one.
fn budget(config: &BenchmarkConfig) -> Duration {
    let default = BenchmarkConfig::default().measurement_time.as_secs_f64();
    held(BUDGET.as_secs_f64() * config.measurement_time.as_secs_f64() / default)
}

/// `secs` as a rounds' time, at most [`BUDGET_MAX`].
fn held(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs).map_or(BUDGET_MAX, |d| d.min(BUDGET_MAX))
}

/// The shortest side's share of a round a short budget gets: three
/// quarters of [`lockstep::ROUND`]. Only 1.875 ms was measured: hex with
/// +1.2 % in `hex_encode` at a 3 s measurement time and the setup found it
/// 19 of 20 times (0 of 160 other lines flagged) against 17 of 20 (1 of
/// 160) at 2 ms, the same hour.
const ROUND_MIN: Duration = Duration::from_micros(1500);

/// The rounds' length for `budget`: [`lockstep::ROUND`], or shorter (down
/// to [`ROUND_MIN`]) so that the floor of short routines' rounds, every
/// pair's `MIN_BLOCKS` blocks of four rounds, fits the budget. A suite that
/// shortens its measurement to 3 s (base64's) gives 0.36 s of rounds, under
/// the 0.384 s of sixteen pairs' three blocks of 2 ms: its rounds of
/// 1.875 ms take what it asked for, with every pair's median still over six.
fn round_for(budget: Duration) -> Duration {
    let floor_rounds = (pairs() * lockstep::MIN_BLOCKS * 4) as u32;
    (budget / floor_rounds).clamp(ROUND_MIN, lockstep::ROUND)
}

/// What the comparison with the baseline's binary found.
#[derive(Debug, Clone)]
pub(crate) struct Compared {
    /// B/A: this run's time over the baseline binary's.
    pub interval: RatioInterval,
    /// Its p-value for "B/A = 1".
    pub p_value: f64,
    /// Worker pairs and rounds.
    pub how: Lockstep,
    /// The baseline binary's side of the rounds, as a saved sample: what
    /// the report and the other outputs show as the baseline.
    pub baseline: SavedSample,
    /// Why the comparison ran on the builds as linked although one side
    /// has code layouts (one line, said once a run).
    pub layouts_note: Option<String>,
    /// The rounds, for a second look ([`look_again`]).
    pub measured: Measured,
    /// Why the benchmarks' instructions were not counted first (said once
    /// a run).
    pub counts_note: Option<String>,
}

/// Why a benchmark was not measured in lock-step: said as one line.
pub(crate) type Fallback = String;

/// A baseline binary in use this run: its engine and its benchmarks.
struct Binary {
    path: PathBuf,
    ids: BTreeSet<String>,
    engine: Engine<'static>,
    /// The sides' spawners (pair `k` runs layout `k` of each side), for a
    /// second look's pairs, numbered after the first look's.
    sides: [lockstep::Spawner<'static>; 2],
    settings: Settings,
    layouts_note: Option<String>,
    /// This run's binary is the baseline's (the same content hash).
    same_build: bool,
    /// The benchmarks' instructions on both sides, counted before the
    /// first was measured (`explain::each`; empty between identical
    /// builds, without Valgrind, or when counting failed).
    counts: HashMap<String, Counts>,
    /// Why they were not counted, when counting failed (said once a run).
    counts_note: Option<String>,
    /// The factor of the rounds' time for each benchmark whose code
    /// changed ([`changed_code_factor`]).
    changed_factor: f64,
    /// Whether every function of the baseline's build is in this one with
    /// the same bytes (`None`: not compared).
    same_code: Option<bool>,
    /// How many of the baseline's functions differ, when at least
    /// [`REWRITTEN_SHARE`] of them do.
    rewritten: Option<RewrittenFile>,
}

/// The baseline binaries of this run by path, and why those that cannot be
/// used cannot. The engines' workers walk the benchmarks in step with this
/// process, so they are the process's, as the sampling pool is.
static BINARIES: Mutex<Option<HashMap<PathBuf, Result<Binary, String>>>> = Mutex::new(None);

/// This binary or the baseline's, with this run's arguments, its program
/// name included: both sides run from kept copies named by their hash, and
/// a front-end may name benchmarks after the program (divan's groups are
/// `<bench target>::<path>`), so both must see this run's.
fn command(exe: &Path, pair: usize) -> Command {
    let mut c = Command::new(exe);
    #[cfg(unix)]
    if let Some(name) = std::env::args_os().next() {
        std::os::unix::process::CommandExt::arg0(&mut c, name);
    }
    c.args(std::env::args_os().skip(1))
        .env("YARDSTICK_WORKER_INDEX", pair.to_string());
    c
}

fn settings(config: &BenchmarkConfig, layouts: usize) -> Settings {
    Settings {
        pairs: pairs(),
        round: round_for(budget(config)),
        budget: budget(config),
        min_blocks: lockstep::MIN_BLOCKS,
        min_pairs: MIN_PAIRS,
        confidence: config.confidence_level,
        seed: u64::from(std::process::id()),
        // As the sampling workers' watchdog.
        hang_limit: config.timeout.saturating_mul(3) + Duration::from_secs(2),
        // As much a pair as eight pairs get: a benchmark keeps its pairs
        // alive as it did with eight.
        memory_budget: lockstep::MEMORY_PER_PAIR * pairs() as u64,
        layouts,
    }
}

/// Starts using the baseline binary `record` names: lists its benchmarks
/// (which also shows that it starts and speaks this protocol) and makes
/// its engine, over both builds' code layouts when both have them.
fn open(
    home: &Path,
    record: &BinaryFile,
    measurement: &str,
    config: &BenchmarkConfig,
) -> Result<Binary, String> {
    use crate::store::binaries;
    let path = binaries::path_of(home, record);
    if !binaries::hold(&path) {
        return Err(
            "the baseline's binary is gone (cleaned up, or another target directory)".into(),
        );
    }
    // Its name is its content's: a file truncated or overwritten since it
    // was kept is not the binary that measured the baseline; and a file
    // another user could have written is not run at all.
    binaries::verified(&path).map_err(|e| format!("the baseline's binary is refused: {e}"))?;
    // Used now: the retention rule keeps the most recently used.
    yardstick_format::binary::mark_used(&path);
    // This side runs from its own kept copy: a program's path is on its
    // stack, so paths of different lengths shift every stack address and
    // alignment, and with them the time of stack-heavy code (a routine
    // dropping large values read 5 % slower from the longer path, on the
    // same bytes). Kept copies' paths differ only in their hash. That copy
    // is checked as the baseline's is: run unchecked, another build put in
    // its place would be measured as this one.
    let this = binaries::this_record(home, measurement);
    let exe = match &this {
        Some(record) => {
            let exe = binaries::path_of(home, record);
            binaries::verified(&exe)
                .map_err(|e| format!("this run's kept binary is refused: {e}"))?;
            exe
        }
        None => std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?,
    };
    // Two builds run over their code layouts, up to one for each pair of
    // both looks (with `init`'s sixteen, the first look's pairs run one
    // each, and a second look's run them again: a layout's unit is then
    // the mean of its two pairs). The same build needs none: its
    // layouts are the same bytes on both sides, and the binary as linked
    // leaves the pairs' own offsets as the only spread.
    let same_build = this.as_ref().is_some_and(|t| t.binary == record.binary);
    let layouts = if same_build {
        Err(None)
    } else {
        binaries::paired_layouts(home, record, this.as_ref(), 2 * pairs())
    };
    let (a_files, b_files, layouts_note) = match layouts {
        Ok(p) => (p.baseline, p.this, None),
        Err(note) => (vec![path.clone()], vec![exe.clone()], note),
    };
    let layouts = if a_files.len() >= 2 { a_files.len() } else { 0 };
    let [a, b] = [a_files, b_files].map(spawner);
    let ids =
        lockstep::list(a).map_err(|e| format!("the baseline's binary does not run here: {e}"))?;
    let settings = settings(config, layouts);
    // Both builds' code tells code that only moved without running
    // anything (`explain::code`: by the relocations the setup's linker
    // keeps, or by where x86-64's displacements point): after a neutral
    // edit (a function nothing calls, a new static) no function differs,
    // and counting every benchmark under Callgrind (1.9 s for hex's nine,
    // 21–23 s of base64's runs without the setup) would find each the
    // same; after other flags most differ, and it would find each
    // changed.
    let builds = (!same_build)
        .then(|| crate::explain::code::Builds::read(&path, &exe))
        .flatten();
    let functions = builds.as_ref().map(|b| b.changed_functions());
    let same_code = functions.map(|(changed, _)| changed == 0);
    let rewritten = functions.and_then(rewritten);
    let (counts, counts_note) = if same_build || same_code == Some(true) || rewritten.is_some() {
        (HashMap::new(), None)
    } else {
        let time = count_time(ids.len(), budget(config));
        counted_first(&path, &exe, &ids, builds.as_ref(), time)
    };
    let changed = counts.values().filter(|c| c.changed()).count();
    let changed_factor = changed_code_factor(changed, counts.len());
    Ok(Binary {
        changed_factor,
        path,
        ids: ids.into_iter().collect(),
        engine: Engine::new(a, b, settings.clone()),
        sides: [a, b],
        settings,
        layouts_note,
        same_build,
        counts,
        counts_note,
        same_code,
        rewritten,
    })
}

/// The share of the baseline's functions that, when they differ in this
/// build, make the change the build's (other compiler flags, another
/// toolchain or opt-level): every benchmark's code changed, so the count
/// before measuring would single none out and longer rounds would add
/// their time to all of them. Measured on hex's bench binary: a neutral
/// edit changes none of its 3,402 functions, +1.2 % compiled into one
/// benchmark changes one, and one codegen unit instead of sixteen
/// changes 2,488 (73 %; 67 % the other way).
const REWRITTEN_SHARE: f64 = 0.5;

/// `(changed, functions)` as kept when at least [`REWRITTEN_SHARE`] of
/// the baseline's functions differ.
fn rewritten((changed, functions): (usize, usize)) -> Option<RewrittenFile> {
    (changed > 0 && changed as f64 >= REWRITTEN_SHARE * functions as f64)
        .then_some(RewrittenFile { changed, functions })
}

/// How many times the rounds' time a comparison gets when its code
/// changed: there a change of code can be, and a small one needs a smaller
/// standard error than [`BUDGET`] gives. crc32fast's `baseline/16384`
/// with +1 % compiled in, with the setup: found 7 times in 20 with
/// [`BUDGET`], 19 in 20 with four times it for that benchmark alone (the
/// guide's trust page). The same time spread over four times the worker
/// pairs instead found it 8 times in 10, at 33 s a run against 27, and
/// hex's `hex_encode` 5 times in 16 against 4 in 14: longer rounds stay.
pub(crate) const CHANGED_CODE_BUDGET: f64 = 4.0;

/// What the benchmarks of one binary whose code changed may add to its
/// rounds' time together, as a share of its benchmarks' usual time: with
/// every benchmark changed (a library function all of them call, new
/// compiler flags) each of a binary of nine gets 1.5 times [`budget`], not
/// four: hex's suite with every function changed took 0.19–0.28 of
/// Criterion.rs's time instead of 0.33–0.36 (the guide's trust page). A
/// binary may always add [`CHANGED_CODE_BUDGET`] − 1 budgets, so one
/// changed benchmark gets four times its time in any binary.
const CHANGED_CODE_POOL: f64 = 0.5;

/// The factor of the rounds' time a benchmark whose code changed gets, when
/// `changed` of the `benchmarks` of its binary did: [`CHANGED_CODE_BUDGET`],
/// less when together they would add more than [`CHANGED_CODE_POOL`] of
/// the binary's usual time (and more than one benchmark's extra); 1 when
/// none changed.
fn changed_code_factor(changed: usize, benchmarks: usize) -> f64 {
    if changed == 0 {
        return 1.0;
    }
    let pool = (CHANGED_CODE_POOL * benchmarks as f64).max(CHANGED_CODE_BUDGET - 1.0);
    (1.0 + pool / changed as f64).min(CHANGED_CODE_BUDGET)
}

/// The instructions of `ids` in the baseline's binary and this one, when
/// Valgrind runs here (`explain::each`); empty otherwise, with why when
/// counting failed.
fn counted_first(
    baseline: &Path,
    this: &Path,
    ids: &[String],
    builds: Option<&crate::explain::code::Builds>,
    time: Duration,
) -> (HashMap<String, Counts>, Option<String>) {
    if super::allowance::valgrind().is_err() {
        return (HashMap::new(), None);
    }
    let pair = crate::explain::each::Pair {
        baseline,
        current: this,
        args: std::env::args_os().skip(1).collect(),
        builds,
        time,
    };
    match crate::explain::each::count_both(&pair, ids) {
        Ok(c) => {
            let note = not_counted_note(&c, ids.len(), time);
            (c.counts, note)
        }
        Err(e) => (
            HashMap::new(),
            Some(format!("instructions not counted before measuring ({e}): a comparison whose code changed gets no longer rounds")),
        ),
    }
}

/// The shortest time the count before measuring is given: Valgrind's
/// start (about 0.6 s a side) and a small suite's whole count (hex's nine
/// benchmarks: 1.9 s).
const COUNT_TIME_MIN: Duration = Duration::from_secs(10);

/// The time the count before measuring may take in a binary of
/// `benchmarks` whose rounds take `budget` each: as long as the longer
/// rounds it can hand out ([`CHANGED_CODE_POOL`] of the binary's rounds),
/// at least [`COUNT_TIME_MIN`]. base64's 88 benchmarks build inputs of up
/// to 30 MB before their loops, and counting them under Callgrind (their
/// setup runs in the count) took 74 s of a 349 s run after every edit
/// without the setup; they get 16 s.
fn count_time(benchmarks: usize, budget: Duration) -> Duration {
    budget
        .mul_f64(CHANGED_CODE_POOL * benchmarks as f64)
        .max(COUNT_TIME_MIN)
}

/// The one line saying which benchmarks the count before measuring left
/// out of `total`, when it left any: too slow under Callgrind, or not
/// reached in its `time`.
fn not_counted_note(
    c: &crate::explain::each::Counted,
    total: usize,
    time: Duration,
) -> Option<String> {
    let slow = c.too_slow.split_first().map(|(first, rest)| {
        let more = match rest.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        format!("for {first}{more}: an iteration takes too long under Callgrind")
    });
    let late = (c.not_reached > 0).then(|| {
        let which = match c.not_reached {
            n if n >= total => format!("all {total} benchmarks"),
            n => format!("the last {n} of {total} benchmarks"),
        };
        format!(
            "for {which}: the count may take as long as the longer rounds it can give ({:.0} s here)",
            time.as_secs_f64()
        )
    });
    let why = match (slow, late) {
        (Some(s), Some(l)) => format!("{s}; {l}"),
        (s, l) => s.or(l)?,
    };
    Some(format!(
        "instructions not counted before measuring {why}, so a change of their code gets no longer rounds"
    ))
}

/// The factor of [`budget`] benchmark `id` of `binary` gets: its binary's
/// [`changed_code_factor`] when its code changed, else 1.
fn factor_of(binary: &Binary, id: &str) -> f64 {
    if binary.counts.get(id).is_some_and(Counts::changed) {
        binary.changed_factor
    } else {
        1.0
    }
}

/// The rounds' time of benchmark `id` of `binary`: [`budget`] times
/// [`factor_of`].
fn budget_of(binary: &Binary, id: &str, config: &BenchmarkConfig) -> Duration {
    held(budget(config).as_secs_f64() * factor_of(binary, id))
}

/// A side's workers: pair `k` runs `files[k % files.len()]` (one file: the
/// build as linked; several: its code layouts), as worker `k`.
fn spawner(files: Vec<PathBuf>) -> lockstep::Spawner<'static> {
    // The engines live as long as the process (see BINARIES).
    Box::leak(Box::new(move |k: usize| {
        command(&files[k % files.len()], k)
    }))
}

/// Measures benchmark `id` in lock-step with the binary `record` names.
/// `Err` says in one line why not: the caller compares with the saved
/// numbers instead, or (this run's own routine failed in its worker: a
/// panic, a hang) reports the benchmark failed without running it again.
pub(crate) fn measure(
    home: &Path,
    record: &BinaryFile,
    id: &str,
    measurement: &str,
    config: &BenchmarkConfig,
) -> Result<(Samples, Compared), Unavailable> {
    let path = crate::store::binaries::path_of(home, record);
    let mut guard = BINARIES.lock().unwrap_or_else(|e| e.into_inner());
    let binaries = guard.get_or_insert_with(HashMap::new);
    let binary = binaries
        .entry(path.clone())
        .or_insert_with(|| open(home, record, measurement, config))
        .as_mut()
        .map_err(|e| Unavailable::Fallback(e.clone()))?;
    debug_assert_eq!(binary.path, path);
    if !binary.ids.contains(id) {
        return Err(Unavailable::Fallback(
            "the baseline's binary has no benchmark of this id".into(),
        ));
    }
    // Groups of one binary can ask for different measurement times.
    let budget = budget_of(binary, id, config);
    binary.engine.set_budget(budget, round_for(budget));
    let m = binary.engine.measure(id).map_err(|e| match e {
        Failure::RoutineOfB(e) => Unavailable::Failed(e),
        e @ Failure::Other(_) => {
            Unavailable::Fallback(format!("the lock-step comparison failed ({e})"))
        }
    })?;
    compared(m, binary, id, measurement, config).map_err(Unavailable::Fallback)
}

/// Whether a first look at `how`, with `p_value`, calls for a second
/// ([`look_again`]): where `looks` finds it ambiguous, unless nothing the
/// second could find can be there or it would cost every benchmark.
///
/// Between identical builds (the same content hash) nothing the build did
/// can have changed, so a second look only takes the benchmark's time again
/// and gives the machine one more try at a verdict. A build whose code was
/// rewritten (most functions differ) has every first look judged alone
/// (`runner::code_changed`), and a second would take the run's time for
/// every benchmark.
pub(crate) fn wants_second_look(how: &Lockstep, p_value: f64, looks: &TwoLooks) -> bool {
    !how.same_build && how.rewritten.is_none() && looks.look_again(p_value)
}

/// A second look at benchmark `id` ([`yardstick_stats::sequential`]): as
/// many fresh worker pairs again, their rounds pooled with `first`'s. The
/// fresh pairs walk to the benchmark from the start and end after it.
pub(crate) fn look_again(
    home: &Path,
    record: &BinaryFile,
    id: &str,
    measurement: &str,
    config: &BenchmarkConfig,
    first: &Compared,
) -> Result<(Samples, Compared), Fallback> {
    let path = crate::store::binaries::path_of(home, record);
    let mut guard = BINARIES.lock().unwrap_or_else(|e| e.into_inner());
    let Some(Some(Ok(binary))) = guard.as_mut().map(|b| b.get_mut(&path)) else {
        return Err("the baseline's binary is no longer open".into());
    };
    let budget = budget_of(binary, id, config);
    let settings = Settings {
        seed: binary.settings.seed.wrapping_add(1),
        budget,
        round: round_for(budget),
        ..binary.settings.clone()
    };
    // Numbered after the pairs that ran, so that the second look runs the
    // next layouts: a slow routine's first look ran eight pairs, layouts
    // 1-8 of sixteen, and its second runs 9-16.
    let from = first.measured.pair.iter().max().map_or(0, |k| k + 1);
    let [a, b] = binary.sides;
    let (a, b) = (move |k: usize| a(k + from), move |k: usize| b(k + from));
    let second = Engine::new(&a, &b, settings)
        .measure(id)
        .map_err(|e| format!("the lock-step comparison's second look failed ({e})"))?;
    let mut m = first.measured.clone();
    m.a.extend(&second.a);
    m.b.extend(&second.b);
    m.pair.extend(second.pair.iter().map(|k| k + from));
    m.seconds += second.seconds;
    compared(m, binary, id, measurement, config)
}

/// What the rounds `m` of `binary` found.
fn compared(
    m: Measured,
    binary: &Binary,
    id: &str,
    measurement: &str,
    config: &BenchmarkConfig,
) -> Result<(Samples, Compared), Fallback> {
    let (interval, p_value) = m
        .interval_and_p(config.confidence_level)
        .ok_or("the lock-step rounds gave no interval")?;
    let counts = binary.counts.get(id);
    let info = Compared {
        interval,
        p_value,
        how: Lockstep {
            pairs: m.pairs(),
            rounds: m.a.len(),
            // Read by the caller, who can warn about a corrupt file.
            layout_spread: None,
            layouts_measured: false,
            learned_from: 0,
            same_instructions: None,
            instructions_changed: None,
            counted_first: counts.map(|c| yardstick_format::change::CountedFile {
                baseline: c.baseline,
                current: c.current,
                code_changed: c.code_changed,
                longer_rounds: c.changed(),
                rounds_factor: Some(factor_of(binary, id)),
            }),
            same_code: binary.same_code,
            rewritten: binary.rewritten,
            same_build: binary.same_build,
            layouts: m.layouts_used(),
        },
        baseline: side(&m, &m.a, Some(measurement.to_owned())),
        layouts_note: binary.layouts_note.clone(),
        measured: m.clone(),
        counts_note: binary.counts_note.clone(),
    };
    let this = side(&m, &m.b, None);
    Ok((Samples::from_saved(this), info))
}

/// One side's rounds (`times` per iteration, `m.a` or `m.b`) as samples:
/// one flat sample per round, its worker pair as its process.
fn side(m: &Measured, times: &[f64], measurement: Option<String>) -> SavedSample {
    let n = m.iters as f64;
    SavedSample {
        sampling_mode: ActualSamplingMode::Flat,
        iters: vec![n; times.len()],
        times: times.iter().map(|t| t * n).collect(),
        processes: Some(m.pair.iter().map(|&k| k as u32).collect()),
        measurement,
    }
}

/// Says why a saved baseline's binary cannot be compared with, before any
/// worker starts: `None` when it can be. (A baseline of another kind of
/// measurement never gets here: `baseline::load` does not compare with it
/// at all.)
pub(crate) fn unusable(record: &BinaryFile) -> Option<Fallback> {
    if record.protocol != yardstick_format::worker::PROTOCOL_VERSION {
        return Some(format!(
            "the baseline's binary was built with another yardstick (worker protocol {}, this one {})",
            record.protocol,
            yardstick_format::worker::PROTOCOL_VERSION
        ));
    }
    crate::store::binaries::lockstep_refusal(record)
}

/// Whether `dir`'s baseline `name` can be measured in lock-step, and with
/// which binary.
pub(crate) fn baseline_binary(dir: &BenchmarkDir, name: &str) -> Result<BinaryFile, Fallback> {
    match dir.load_binary(name) {
        Ok(Some(record)) => Ok(record),
        Ok(None) => Err(
            "the baseline was saved without its binary (by Criterion.rs or an earlier yardstick)"
                .into(),
        ),
        Err(e) => Err(format!("its binary.json is unreadable ({e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(measurement_time: Duration) -> BenchmarkConfig {
        BenchmarkConfig {
            measurement_time,
            ..BenchmarkConfig::default()
        }
    }

    #[test]
    fn identical_and_rewritten_builds_take_no_second_look() {
        // One comparison at 0.05: each look at 0.025, again below 0.1.
        let looks = TwoLooks {
            level: 0.05,
            again_below: 0.1,
        };
        let two_builds = Lockstep::of(16, 128);
        assert!(wants_second_look(&two_builds, 0.05, &looks));
        assert!(!wants_second_look(&two_builds, 0.02, &looks), "decided");
        assert!(!wants_second_look(&two_builds, 0.1, &looks), "plainly null");
        let identical = Lockstep {
            same_build: true,
            ..two_builds
        };
        assert!(!wants_second_look(&identical, 0.05, &looks));
        let rewritten = Lockstep {
            rewritten: Some(RewrittenFile {
                changed: 90,
                functions: 100,
            }),
            ..two_builds
        };
        assert!(!wants_second_look(&rewritten, 0.05, &looks));
    }

    #[test]
    fn the_rounds_time_follows_the_measurement_time_a_suite_asks_for() {
        // 0.6 s at Criterion.rs's 5 s; 0.6 × 3 / 5 = 0.36 s; 0.6 × 20 / 5 = 2.4 s.
        assert_eq!(
            budget(&BenchmarkConfig::default()),
            Duration::from_millis(600)
        );
        let three = budget(&asking(Duration::from_secs(3)));
        assert!((three.as_secs_f64() - 0.36).abs() < 1e-9, "{three:?}");
        let twenty = budget(&asking(Duration::from_secs(20)));
        assert!((twenty.as_secs_f64() - 2.4).abs() < 1e-9, "{twenty:?}");
        // A measurement time no loop could fill is held at the bound.
        assert_eq!(budget(&asking(Duration::MAX)), BUDGET_MAX);
        assert_eq!(budget(&asking(Duration::from_secs(10 * 3600))), BUDGET_MAX);
    }

    #[test]
    fn a_short_budget_gets_rounds_that_fit_its_floor() {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        // 16 pairs × 3 blocks × 4 rounds = 192 rounds. Criterion.rs's 5 s
        // (0.6 s): 3.1 ms each fits, so the usual 2 ms.
        assert_eq!(round_for(Duration::from_millis(600)), lockstep::ROUND);
        // base64's 3 s (0.36 s): 360 / 192 = 1.875 ms.
        assert!((ms(round_for(Duration::from_millis(360))) - 1.875).abs() < 1e-9);
        // A 1 s measurement (0.12 s): 0.625 ms would be, held at 1.5 ms.
        assert_eq!(round_for(Duration::from_millis(120)), ROUND_MIN);
        assert_eq!(round_for(Duration::ZERO), ROUND_MIN);
    }

    #[test]
    fn changed_code_gets_four_times_the_rounds_within_half_the_binarys_time() {
        let close = |got: f64, want: f64| assert!((got - want).abs() < 1e-12, "{got} ≠ {want}");
        // Nothing changed: the usual rounds.
        close(changed_code_factor(0, 9), 1.0);
        // One changed benchmark gets four times, in any binary: hex's suite,
        // one of nine (1 + 4.5, held at 4), and a binary of one (the pool's
        // floor of 3 budgets: 1 + 3).
        close(changed_code_factor(1, 9), 4.0);
        close(changed_code_factor(1, 1), 4.0);
        // All nine of hex's: 1 + 4.5 / 9 = 1.5, so the binary takes 13.5 of
        // its 9 usual budgets, not 36.
        close(changed_code_factor(9, 9), 1.5);
        // Both of two: the floor, 1 + 3 / 2. Six of twenty-four (the trust
        // suite): 1 + 12 / 6 = 3.
        close(changed_code_factor(2, 2), 2.5);
        close(changed_code_factor(6, 24), 3.0);
        // More changed than counted cannot happen, but stays within bounds.
        close(changed_code_factor(4, 2), 1.75);
    }

    #[test]
    fn a_build_is_rewritten_when_half_its_functions_differ() {
        let r = |changed, functions| rewritten((changed, functions)).map(|r| r.changed);
        // hex's bench binary: a neutral edit, one benchmark's change, and
        // one codegen unit instead of sixteen (2,488 of 3,402 measured).
        assert_eq!(r(0, 3402), None);
        assert_eq!(r(1, 3402), None);
        assert_eq!(r(2488, 3402), Some(2488));
        // Half is enough; less is not.
        assert_eq!(r(1701, 3402), Some(1701));
        assert_eq!(r(1700, 3402), None);
        // No functions read: nothing to say.
        assert_eq!(r(0, 0), None);
    }

    #[test]
    fn the_count_before_measuring_takes_as_long_as_the_rounds_it_can_give() {
        let secs = |benchmarks, budget_ms| {
            count_time(benchmarks, Duration::from_millis(budget_ms)).as_secs_f64()
        };
        // base64's 88 benchmarks at its 3 s (0.36 s rounds): 0.5 × 88 × 0.36.
        assert!((secs(88, 360) - 15.84).abs() < 1e-9);
        // hex's nine at the default 0.6 s: 2.7 s, held at the floor.
        assert_eq!(secs(9, 600), 10.0);
        assert_eq!(secs(0, 600), 10.0);
    }

    #[test]
    fn the_note_names_what_the_count_left_out() {
        let counted = |too_slow: &[&str], not_reached| crate::explain::each::Counted {
            counts: HashMap::new(),
            too_slow: too_slow.iter().map(|s| s.to_string()).collect(),
            not_reached,
        };
        let note = |c| not_counted_note(&c, 88, Duration::from_secs_f64(15.84));
        assert_eq!(note(counted(&[], 0)), None);
        let head = "instructions not counted before measuring for";
        let tail = ", so a change of their code gets no longer rounds";
        let slow = "decode/30M and 2 more: an iteration takes too long under Callgrind";
        let late = "the last 40 of 88 benchmarks: the count may take as long as the longer rounds it can give (16 s here)";
        assert_eq!(
            note(counted(&["decode/30M", "a", "b"], 0)).unwrap(),
            format!("{head} {slow}{tail}")
        );
        assert_eq!(
            note(counted(&[], 40)).unwrap(),
            format!("{head} {late}{tail}")
        );
        assert_eq!(
            note(counted(&["decode/30M", "a", "b"], 40)).unwrap(),
            format!("{head} {slow}; for {late}{tail}")
        );
        let all = "all 88 benchmarks: the count may take as long as the longer rounds it can give (16 s here)";
        assert_eq!(
            note(counted(&[], 88)).unwrap(),
            format!("{head} {all}{tail}")
        );
    }
}

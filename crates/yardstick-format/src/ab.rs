//! `cargo yardstick ab --rounds-json FILE`: one line per benchmark with
//! every round of the lock-step comparison, for offline analysis (the trust
//! experiment reads it). Schema: `schemas/ab-rounds.v1.json`.

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// One line: one benchmark's rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundsLine {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The benchmark id.
    pub id: String,
    /// Iterations per round (the same on both sides).
    pub iters: u64,
    /// Wall seconds spent on the benchmark, warm-ups included.
    pub seconds: f64,
    /// Nanoseconds per iteration of A in each round.
    pub a: Vec<f64>,
    /// Nanoseconds per iteration of B in each round, paired with `a`.
    pub b: Vec<f64>,
    /// The worker pair (0-based) of each round, paired with `a`.
    pub pair: Vec<usize>,
}

crate::json_object!(RoundsLine {
    version,
    id,
    iters,
    seconds,
    a,
    b,
    pair
});

/// The version of `ab --format json`'s document (and of its schema,
/// `schemas/ab-result.v1.json`).
pub const RESULT_VERSION: u32 = 1;

/// `cargo yardstick ab --format json`: one comparison (or one shard of it,
/// with `--partition`), as `cargo yardstick merge` reads it. A run that
/// failed before its table still writes one, with `status` `failed`, so
/// the merge names the shard rather than miss it.
#[derive(Debug, Clone, PartialEq)]
pub struct AbResult {
    /// Format version ([`RESULT_VERSION`]).
    pub version: u32,
    /// `ok`, or `failed` when the comparison did not get to its table.
    pub status: String,
    /// Why it failed (one line), when it did.
    pub error: Option<String>,
    /// The shard (`hash:2/3`) when run with `--partition`.
    pub shard: Option<String>,
    /// Where it measured: merged verdicts keep machine kinds apart.
    pub machine: crate::history::Machine,
    /// A's name (revision and commit).
    pub a: String,
    /// B's name.
    pub b: String,
    /// Worker pairs per benchmark.
    pub pairs: u64,
    /// Each side's share of a round, in milliseconds.
    pub round_ms: f64,
    /// Seconds of rounds per benchmark.
    pub timeout: f64,
    /// Wall seconds spent measuring.
    pub seconds: f64,
    /// Confidence of the intervals; the false-discovery rate is 1 − it.
    pub confidence: f64,
    /// One row per benchmark, before the false-discovery control (which
    /// is applied over the whole suite, by `ab` or by the merge).
    pub rows: Vec<AbRow>,
    /// Code layouts a side was measured in (0: the builds as linked).
    pub layouts: u64,
    /// Why layouts were asked for and not sampled.
    pub layout_note: Option<String>,
}

crate::json_object!(AbResult {
    version,
    status,
    error,
    shard,
    machine,
    a,
    b,
    pairs,
    round_ms,
    timeout,
    seconds,
    confidence,
    rows,
    layouts (default),
    layout_note (default)
});

/// One benchmark of an [`AbResult`].
#[derive(Debug, Clone, PartialEq)]
pub struct AbRow {
    /// The benchmark id.
    pub id: String,
    /// `measured`, `only-a`, `only-b` or `failed`.
    pub outcome: String,
    /// A failure's message.
    pub message: Option<String>,
    /// Median ns per iteration of A (measured rows).
    pub a: Option<f64>,
    /// Median ns per iteration of B.
    pub b: Option<f64>,
    /// B/A with its interval (absent with fewer than two pairs).
    pub ratio: Option<f64>,
    /// The interval's lower bound.
    pub lower: Option<f64>,
    /// The interval's upper bound.
    pub upper: Option<f64>,
    /// The p-value of "B/A = 1".
    pub p_value: Option<f64>,
    /// Paired rounds.
    pub rounds: u64,
    /// Worker pairs the rounds came from.
    pub pairs: u64,
    /// Seconds spent on the benchmark.
    pub seconds: f64,
    /// What relinking the same code moves the ratio by (a share), when
    /// layout is what limits the row's interval.
    pub layout_spread: Option<f64>,
}

crate::json_object!(AbRow {
    id,
    outcome,
    message,
    a,
    b,
    ratio,
    lower,
    upper,
    p_value,
    rounds,
    pairs,
    seconds,
    layout_spread (default)
});

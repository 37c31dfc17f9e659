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

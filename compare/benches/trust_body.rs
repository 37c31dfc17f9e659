//! The body of the trust experiment (`compare/trust/run.py`): a few µs of
//! dependent multiply/xor-shift steps whose count is scaled by a factor, so
//! that a slowdown of exactly +1 %, +3 % or +10 % can be injected.
//!
//! The factor comes from the environment variable `TRUST_FACTOR`, read once
//! outside the timed code; without it, `DEFAULT_FACTOR` (which the script
//! rewrites in the commits of its `cargo yardstick ab` repository).

use std::hint::black_box;

/// The factor when `TRUST_FACTOR` is not set.
pub const DEFAULT_FACTOR: f64 = 1.0;

/// Steps at factor 1.
pub const BASE_STEPS: f64 = 2000.0;

/// `TRUST_FACTOR`, else the factor compiled into this build (a copy of the
/// binary with `\nTRUST_FACTOR=<f>` appended: an ELF file runs with bytes
/// after its sections), else `DEFAULT_FACTOR`.
pub fn factor(var: &str) -> f64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .or_else(|| built_in(var))
        .unwrap_or(DEFAULT_FACTOR)
}

fn built_in(var: &str) -> Option<f64> {
    let bytes = std::fs::read(std::env::current_exe().ok()?).ok()?;
    let tail = &bytes[bytes.len().saturating_sub(64)..];
    let mark = format!("\n{var}=");
    let at = tail.windows(mark.len()).rposition(|w| w == mark.as_bytes())?;
    std::str::from_utf8(&tail[at + mark.len()..]).ok()?.trim().parse().ok()
}

/// The number of steps for a factor, hidden from the optimiser so that every
/// factor compiles to the same loop.
pub fn steps(factor: f64) -> u64 {
    black_box((BASE_STEPS * factor).round() as u64)
}

/// `steps` dependent multiply/xor-shift steps.
#[inline(never)]
pub fn work(seed: u64, steps: u64) -> u64 {
    let mut x = seed;
    for _ in 0..steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        x ^= x >> 29;
    }
    x
}

//! Bounds that keep one benchmark from running away with the suite.
//!
//! A routine whose measured time does not grow with its iteration count (an
//! `iter_custom` that ignores `iters`, a clock coarser than the routine)
//! looks infinitely fast: the warm-up doubles its iterations without end and
//! the plan asks for astronomically many. Every iteration count the harness
//! asks for is therefore capped at [`MAX_ITERS`], and the optimised-away
//! check's empty loop at [`MAX_EMPTY_LOOP_ITERS`], so such a routine ends
//! promptly, with a warning saying why.

/// The most iterations one call of a routine is asked for: 2^40, about
/// 1.1·10^12. Even a one-cycle body (0.25 ns) needs 275 s for that many,
/// so no real plan is cut; a routine that reaches it is not timing its
/// iterations.
pub(crate) const MAX_ITERS: u64 = 1 << 40;

/// The most iterations of the empty loop the optimised-away check times,
/// per pass: a few milliseconds, and enough that the loop's fixed cost is
/// spread to nothing.
pub(crate) const MAX_EMPTY_LOOP_ITERS: u64 = 10_000_000;

/// `n` capped at [`MAX_ITERS`].
pub(crate) fn cap(n: u64) -> u64 {
    n.min(MAX_ITERS)
}

/// The warning for a benchmark whose samples reached the cap, if they did.
/// A linear plan's last sample, n·⌊MAX_ITERS/n⌋, may fall just short of
/// [`MAX_ITERS`]; half of it is already far beyond any real plan.
pub(crate) fn capped_warning(id: &str, iters: &[f64]) -> Option<String> {
    if !iters.iter().any(|&n| n >= (MAX_ITERS / 2) as f64) {
        return None;
    }
    Some(format!(
        "{id}: its measured time does not grow with the number of iterations, so the plan was \
         capped at 2^40 iterations per sample; if it uses iter_custom, the routine must run \
         the `iters` iterations it is given and return their total time"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_capped_and_the_cap_is_reported() {
        assert_eq!(cap(u64::MAX), 1 << 40);
        assert_eq!(cap(5), 5);
        assert!(capped_warning("x", &[1.0, 2.0]).is_none());
        let w = capped_warning("x", &[1.0, (1u64 << 40) as f64]).unwrap();
        assert!(w.starts_with("x: its measured time does not grow"), "{w}");
        assert!(w.contains("iter_custom"), "{w}");
    }
}

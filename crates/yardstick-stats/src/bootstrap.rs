//! The resampling engine shared by [`estimates`](crate::estimates()) and
//! [`compare`](crate::compare()), and the [`Estimate`] it produces.
//!
//! # Reproducibility and parallelism
//!
//! Resamples are split into fixed chunks of [`CHUNK`] resamples. Chunk `c`
//! draws from its own random stream, [`Rng::with_stream`]`(seed, c)`, and
//! writes its own slice of the output, so the bootstrap distributions are a
//! pure function of the data, the number of resamples and the seed — the
//! same whether the chunks run on one thread or on many. Chunks run on
//! [`std::thread::scope`] threads (one per available core) when the work is
//! large enough to pay for the threads, and on the calling thread otherwise.
//! Each thread allocates its scratch buffers once; no resample allocates.
//!
//! # Intervals
//!
//! A confidence interval at level `c` is the pair of percentiles
//! `50(1 − c)` and `50(1 + c)` of the bootstrap distribution, interpolated
//! linearly (type 7); the standard error is the standard deviation
//! (`n − 1`) of the distribution. The point estimate is always the statistic
//! of the original data, never the mean of the resamples.

use std::num::NonZeroUsize;
use std::sync::OnceLock;

use crate::rng::Rng;
use crate::univariate::{mean_unchecked, variance_with_mean};

/// Resamples per chunk; each chunk has its own random stream.
pub const CHUNK: usize = 4096;

/// Below this many element draws in total the bootstrap stays on the
/// calling thread: spawning threads would cost more than it saves.
const PARALLEL_WORK: usize = 400_000;

/// A statistic with its bootstrap confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The statistic of the original data.
    pub point: f64,
    /// Lower bound of the confidence interval.
    pub lower: f64,
    /// Upper bound of the confidence interval.
    pub upper: f64,
    /// Confidence level of the interval, as a fraction (0.95).
    pub confidence: f64,
    /// Standard deviation of the bootstrap distribution.
    pub standard_error: f64,
}

impl Estimate {
    /// The estimate of `point` from its bootstrap `distribution` (in any
    /// order) at `confidence` (a fraction in (0, 1)).
    ///
    /// An empty distribution gives the degenerate interval `[point, point]`
    /// with standard error 0.
    #[must_use]
    pub fn from_distribution(point: f64, distribution: &[f64], confidence: f64) -> Estimate {
        if distribution.is_empty() {
            return Estimate {
                point,
                lower: point,
                upper: point,
                confidence,
                standard_error: 0.0,
            };
        }
        let mut scratch = distribution.to_vec();
        let lower = select_percentile(&mut scratch, 50.0 * (1.0 - confidence));
        let upper = select_percentile(&mut scratch, 50.0 * (1.0 + confidence));
        let standard_error = if distribution.len() < 2 {
            0.0
        } else {
            variance_with_mean(distribution, mean_unchecked(distribution)).sqrt()
        };
        Estimate {
            point,
            lower,
            upper,
            confidence,
            standard_error,
        }
    }

    /// Whether `x` lies in the closed interval `[lower, upper]`.
    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }
}

/// The type-7 percentile `p` (0..=100) of a non-empty buffer by selection
/// (linear expected time); reorders the buffer.
pub(crate) fn select_percentile(buf: &mut [f64], p: f64) -> f64 {
    let n = buf.len();
    let h = (n - 1) as f64 * p.clamp(0.0, 100.0) / 100.0;
    let lo = h.floor();
    // h is in 0..=n-1.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = lo as usize;
    let frac = h - lo;
    let (_, a, right) = buf.select_nth_unstable_by(i, f64::total_cmp);
    let a = *a;
    if frac == 0.0 || right.is_empty() {
        return a;
    }
    let b = right.iter().copied().fold(f64::INFINITY, f64::min);
    let d = b - a;
    if frac < 0.5 {
        a + d * frac
    } else {
        b - d * (1.0 - frac)
    }
}

/// The number of threads the bootstrap may use (cached: the standard
/// library reads cgroup files to answer).
fn available_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// Runs `nresamples` resamples and returns `k` distributions of that length.
///
/// `make` builds one thread's scratch state; `step` performs one resample,
/// drawing from the chunk's generator and writing its `k` statistics into
/// the row it is given. `work` is the number of element draws per resample,
/// used only to decide whether threads pay. The chunks are numbered from
/// `first_chunk` (0 for a whole bootstrap): a bootstrap that goes on in
/// stages draws the same streams as one that ran in one go.
pub(crate) fn run<C, M, S>(
    first_chunk: u64,
    nresamples: usize,
    seed: u64,
    k: usize,
    work: usize,
    make: M,
    step: S,
) -> Vec<Vec<f64>>
where
    M: Fn() -> C + Sync,
    S: Fn(&mut C, &mut Rng, &mut [f64]) + Sync,
{
    let mut flat = vec![0.0; nresamples * k];
    let mut chunks: Vec<(u64, &mut [f64])> = flat
        .chunks_mut(CHUNK * k)
        .enumerate()
        .map(|(i, c)| (first_chunk + i as u64, c))
        .collect();
    let run_chunks = |chunks: &mut [(u64, &mut [f64])]| {
        let mut ctx = make();
        for (index, out) in chunks.iter_mut() {
            let mut rng = Rng::with_stream(seed, *index);
            for row in out.chunks_exact_mut(k) {
                step(&mut ctx, &mut rng, row);
            }
        }
    };
    let threads = if nresamples.saturating_mul(work) < PARALLEL_WORK {
        1
    } else {
        available_threads().min(chunks.len())
    };
    if threads <= 1 {
        run_chunks(&mut chunks);
    } else {
        let per_thread = chunks.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let mut groups = chunks.chunks_mut(per_thread);
            let first = groups.next();
            for group in groups {
                scope.spawn(|| run_chunks(group));
            }
            if let Some(group) = first {
                run_chunks(group);
            }
        });
    }
    // Transpose resample-major rows into one distribution per statistic.
    let mut out: Vec<Vec<f64>> = (0..k).map(|_| Vec::with_capacity(nresamples)).collect();
    for row in flat.chunks_exact(k) {
        for (dist, &v) in out.iter_mut().zip(row) {
            dist.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::univariate::percentile;

    #[test]
    fn select_percentile_matches_sorting() {
        let mut r = Rng::new(3);
        let xs: Vec<f64> = (0..1001).map(|_| r.next_f64()).collect();
        for p in [0.0, 2.5, 25.0, 50.0, 97.5, 99.9, 100.0] {
            let mut buf = xs.clone();
            assert_eq!(select_percentile(&mut buf, p), percentile(&xs, p).unwrap());
        }
    }

    #[test]
    fn result_does_not_depend_on_threading() {
        let step = |_: &mut (), rng: &mut Rng, row: &mut [f64]| {
            row[0] = rng.next_f64();
            row[1] = rng.below(10) as f64;
        };
        // Same resamples, once with "work" too small to parallelise and once
        // large enough to use every core.
        let serial = run(0, 3 * CHUNK + 17, 9, 2, 1, || (), step);
        let parallel = run(0, 3 * CHUNK + 17, 9, 2, PARALLEL_WORK, || (), step);
        assert_eq!(serial, parallel);
        assert_eq!(serial[0].len(), 3 * CHUNK + 17);
    }
}

//! How many iterations each epoch runs: nanobench's state machine.
//!
//! The target time of an epoch is the clock resolution times
//! `clock_resolution_multiple` (1000), clamped to
//! `[min_epoch_time, max_epoch_time]` (1 ms, 100 ms). Starting from
//! `min_epoch_iterations` (or the warm-up count), the iteration count grows
//! tenfold while an epoch takes less than a tenth of the target, and is
//! computed from the measured time otherwise; the first epoch that takes at
//! least two thirds of the target is the first measurement. From then on
//! every epoch is kept and the next size is computed from all measured time
//! so far, each stretched by a random 0–20 % (nanobench's generator and
//! seed). When the count would overflow, the body takes no time: the run
//! stops with no measurement.

use std::time::Duration;

use yardstick_stats::nanobench::{best_iterations, close_enough, target_epoch_time};

use super::clock::nanos;
use super::config::Config;
use super::result::{Counters, Epoch};
use super::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Warmup,
    Upscaling,
    Measuring,
}

/// The iteration counts of one run and the epochs it measured.
#[derive(Debug)]
pub(super) struct Epochs {
    target_ns: f64,
    exact: u64,
    min_iterations: u64,
    wanted: usize,
    state: State,
    next: u64,
    rng: Rng,
    total_ns: f64,
    total_iterations: u64,
    measured: Vec<Epoch>,
}

impl Epochs {
    /// Plans a run with `config` on a clock of `resolution_ns`.
    pub(super) fn new(config: &Config, resolution_ns: f64) -> Epochs {
        let min_iterations = config.min_epoch_iterations.max(1);
        let (state, next) = if config.warmup != 0 {
            (State::Warmup, config.warmup)
        } else if config.epoch_iterations != 0 {
            (State::Measuring, config.epoch_iterations)
        } else {
            (State::Upscaling, min_iterations)
        };
        Epochs {
            target_ns: target_epoch_time(resolution_ns, &config.epoch_config()),
            exact: config.epoch_iterations,
            min_iterations,
            wanted: config.epochs.max(1),
            state,
            next,
            rng: Rng::nanobench(),
            total_ns: 0.0,
            total_iterations: 0,
            measured: Vec::with_capacity(config.epochs.max(1)),
        }
    }

    /// The target time of one epoch, in nanoseconds.
    #[cfg(test)]
    pub(super) fn target_ns(&self) -> f64 {
        self.target_ns
    }

    /// Iterations of the next epoch; 0 when the run is over.
    pub(super) fn iterations(&self) -> u64 {
        self.next
    }

    /// Records that the epoch of [`iterations`](Self::iterations) took
    /// `elapsed`.
    pub(super) fn add(&mut self, elapsed: Duration, counters: Counters) {
        let elapsed_ns = nanos(elapsed);
        match self.state {
            State::Warmup => {
                if self.exact != 0 || close_enough(self.target_ns, elapsed_ns) {
                    self.state = State::Measuring;
                    self.next = self.next_size(elapsed_ns, self.next);
                } else {
                    self.state = State::Upscaling;
                    self.upscale(elapsed_ns);
                }
            }
            State::Upscaling => {
                if close_enough(self.target_ns, elapsed_ns) {
                    self.state = State::Measuring;
                    self.record(elapsed, counters);
                } else {
                    self.upscale(elapsed_ns);
                }
            }
            State::Measuring => self.record(elapsed, counters),
        }
        if self.measured.len() >= self.wanted {
            self.next = 0;
        }
    }

    fn record(&mut self, elapsed: Duration, counters: Counters) {
        self.total_ns += nanos(elapsed);
        self.total_iterations += self.next;
        self.measured.push(Epoch {
            iterations: self.next,
            elapsed,
            counters,
        });
        self.next = self.next_size(self.total_ns, self.total_iterations);
    }

    fn next_size(&mut self, elapsed_ns: f64, iterations: u64) -> u64 {
        if self.exact != 0 {
            return self.exact;
        }
        let u = self.rng.uniform01();
        best_iterations(
            self.target_ns,
            elapsed_ns,
            iterations,
            self.min_iterations,
            u,
        )
        .max(1)
    }

    fn upscale(&mut self, elapsed_ns: f64) {
        if elapsed_ns * 10.0 < self.target_ns {
            // Far below the target: ten times more, unless that overflows,
            // which means the body takes no time at all.
            self.next = self.next.checked_mul(10).unwrap_or(0);
        } else {
            let u = self.rng.uniform01();
            self.next = best_iterations(
                self.target_ns,
                elapsed_ns,
                self.next,
                self.min_iterations,
                u,
            )
            .max(1);
        }
    }

    /// The measured epochs; empty when the iteration count overflowed.
    pub(super) fn into_epochs(self) -> Vec<Epoch> {
        self.measured
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(config: &Config, resolution_ns: f64, ns_per_iteration: u64) -> (Vec<u64>, Epochs) {
        let mut epochs = Epochs::new(config, resolution_ns);
        let mut sizes = Vec::new();
        while epochs.iterations() != 0 {
            let n = epochs.iterations();
            sizes.push(n);
            epochs.add(
                Duration::from_nanos(n * ns_per_iteration),
                Counters::default(),
            );
        }
        (sizes, epochs)
    }

    #[test]
    fn target_follows_the_clock_resolution() {
        let config = Config::default();
        assert_eq!(Epochs::new(&config, 20.0).target_ns(), 1e6);
        assert_eq!(Epochs::new(&config, 5_000.0).target_ns(), 5e6);
        assert_eq!(Epochs::new(&config, 1e6).target_ns(), 1e8);
    }

    #[test]
    fn clock_resolution_multiple_sets_the_target() {
        // target = resolution × multiple, clamped to 1–100 ms (by hand).
        let with = |multiple| Config {
            clock_resolution_multiple: multiple,
            ..Config::default()
        };
        assert_eq!(Epochs::new(&with(10_000), 5_000.0).target_ns(), 5e7);
        assert_eq!(Epochs::new(&with(100), 5_000.0).target_ns(), 1e6);
        assert_eq!(Epochs::new(&with(1_000_000), 5_000.0).target_ns(), 1e8);
        // 20 ns × 200 000 = 4 ms: epochs of 100 ns iterations are sized to
        // 4 ms / 100 ns = 40 000 iterations, stretched by 0–20 %.
        let (_, epochs) = run(&with(200_000), 20.0, 100);
        let measured = epochs.into_epochs();
        assert_eq!(measured.len(), 11);
        for e in &measured {
            assert!((40_000..=48_000).contains(&e.iterations), "{measured:?}");
        }
    }

    /// Epoch sizes of nanobench itself (v4.3 `detail::IterationLogic`, 1 ms
    /// target, fed `iterations × ns` as the elapsed time of each epoch).
    #[test]
    fn sizes_match_nanobench() {
        let config = Config::default();
        let (sizes, epochs) = run(&config, 20.0, 100);
        assert_eq!(
            sizes,
            [
                1, 10, 100, 1000, 10241, 10282, 11446, 10509, 11954, 11514, 10750, 11530, 10899,
                10273, 11639
            ]
        );
        assert_eq!(epochs.into_epochs().len(), 11);
        let (sizes, _) = run(&config, 20.0, 7);
        assert_eq!(
            sizes,
            [
                1, 10, 100, 1000, 10000, 100_000, 146_300, 146_889, 163_511, 150_130, 170_765,
                164_492, 153_565, 164_721, 155_695, 146_760
            ]
        );
        let (sizes, _) = run(&config, 20.0, 3000);
        assert_eq!(
            sizes,
            [1, 10, 100, 341, 343, 382, 350, 398, 384, 358, 384, 363, 342, 388]
        );
    }

    #[test]
    fn exact_iterations_and_warmup() {
        let config = Config {
            warmup: 7,
            epoch_iterations: 3,
            epochs: 4,
            ..Config::default()
        };
        let (sizes, epochs) = run(&config, 20.0, 100);
        assert_eq!(sizes, [7, 3, 3, 3, 3]);
        assert_eq!(epochs.into_epochs().len(), 4);
    }

    #[test]
    fn a_body_without_time_overflows() {
        let (sizes, epochs) = run(&Config::default(), 20.0, 0);
        assert_eq!(sizes.len(), 20); // 1, 10, …, 10^19
        assert_eq!(sizes.last(), Some(&10_000_000_000_000_000_000));
        assert!(epochs.into_epochs().is_empty());
    }

    #[test]
    fn min_epoch_iterations_is_the_floor() {
        let config = Config {
            min_epoch_iterations: 5_000,
            ..Config::default()
        };
        // 1 ms per iteration: far beyond the target, still 5000 iterations.
        let (sizes, _) = run(
            &Config {
                epochs: 2,
                ..config
            },
            20.0,
            1_000_000,
        );
        assert!(sizes.iter().all(|&n| n >= 5_000), "{sizes:?}");
    }
}

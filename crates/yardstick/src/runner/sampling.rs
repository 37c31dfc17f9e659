//! The sampling stage of one benchmark: warm-up and samples, in worker
//! processes or in this one, by Criterion.rs's plan, a front-end's exact
//! plan, adaptively, or as tasty-bench and `--quick` do.

use std::time::Duration;

use yardstick_stats::tasty::StopReason;

use crate::adaptive;
use crate::analysis::Samples;
use crate::config::{ActualSamplingMode, BenchmarkConfig};
use crate::id::FullId;
use crate::measurement::Measurement;
use crate::output::Terminal;
use crate::routine::{self, NotIterated, RoutineFn};
use crate::{plan, tasty_sampling, worker};

/// One benchmark being sampled: the measurement, the benchmark, its
/// configuration and where progress is said.
pub(super) struct Sampler<'a, M> {
    pub m: &'a M,
    pub terminal: &'a Terminal,
    pub id: &'a FullId,
    pub config: &'a BenchmarkConfig,
}

impl<M: Measurement> Sampler<'_, M> {
    /// Warm-up and sampling; returns the mode, iteration counts and values.
    pub(super) fn sample(&self, f: &mut RoutineFn<'_, M>) -> Result<Samples, String> {
        let (m, config) = (self.m, self.config);
        if let Some(target) = config.stdev {
            let (mode, iters, values) = tasty(
                m,
                self.terminal,
                &self.id.full_id,
                target,
                config.timeout,
                f,
            )
            .map_err(|e| e.to_string())?;
            return Ok(Samples::in_one_process(mode, iters, values));
        }
        if config.quick_mode {
            let (iters, values) =
                routine::quick(m, f, config.significance_level, config.measurement_time)
                    .map_err(|e| e.to_string())?;
            return Ok(Samples::in_one_process(
                ActualSamplingMode::Linear,
                iters,
                values,
            ));
        }
        if config.adaptive() {
            return self.adaptively(f);
        }
        if config.processes > 1 && config.metrics.is_empty() {
            if let Some(s) = self.as_planned_in_workers()? {
                return Ok(s);
            }
        }
        self.as_planned(f).map_err(|e| e.to_string())
    }

    /// The user's plan spread over worker processes; `None` when workers
    /// cannot be used (said once), to sample in this process instead.
    fn as_planned_in_workers(&self) -> Result<Option<Samples>, String> {
        let (id, config) = (self.id, self.config);
        self.terminal
            .warm_up(&id.title, config.warm_up_time.as_nanos() as f64);
        let planner = |met: f64| self.planned_counts(met);
        match worker::sampling::sample_planned(&id.full_id, config, &planner) {
            Ok(s) => Ok(Some(Samples::from_sampled(s))),
            Err(worker::Unavailable::Failed(e)) => Err(e),
            Err(worker::Unavailable::Fallback(why)) => {
                self.fallback_note(&why);
                Ok(None)
            }
        }
    }

    /// Says once per run that workers could not be used.
    fn fallback_note(&self, why: &str) {
        let note = format!(
            "sampling in this process only, so intervals do not include run-to-run noise: {why}"
        );
        if crate::output::first_time(&note) {
            self.terminal.warning(&note);
        }
    }

    /// Criterion.rs's sampling plan for `met` ns per iteration: the mode and
    /// every sample's iteration count, announced (with its warning, if any).
    fn planned_counts(&self, met: f64) -> (ActualSamplingMode, Vec<u64>) {
        let config = self.config;
        let n = config.sample_size as u64;
        let target = config.measurement_time;
        let (mode, counts) = match config.fixed_iters {
            // A front-end's exact plan: its samples, its iterations.
            Some(k) => (ActualSamplingMode::Flat, vec![k.max(1); n as usize]),
            None => {
                let mode =
                    plan::choose_mode(config.sampling_mode, met, n, target.as_nanos() as f64);
                let (counts, warning) = plan::iteration_counts(mode, met, n, target);
                if let Some(w) = warning {
                    self.terminal.warning(w.trim_start_matches("Warning: "));
                }
                (mode, counts)
            }
        };
        let expected: f64 = counts.iter().map(|&k| k as f64 * met).sum();
        let total = counts.iter().fold(0u64, |a, &k| a.saturating_add(k));
        self.terminal
            .measurement_start(&self.id.title, counts.len(), expected, total);
        (mode, counts)
    }

    /// Criterion.rs's analysis process: warm-up for the warm-up time, then
    /// the planned sample counts.
    fn as_planned(&self, f: &mut RoutineFn<'_, M>) -> Result<Samples, routine::NotIterated> {
        let warm_up = self.config.warm_up_time;
        self.terminal
            .warm_up(&self.id.title, warm_up.as_nanos() as f64);
        let (elapsed, warm_iters) = routine::warm_up(self.m, f, warm_up)?;
        let met = elapsed / warm_iters as f64;
        let (mode, counts) = self.planned_counts(met);
        let values = routine::bench(self.m, f, &counts)?;
        let iters = counts.iter().map(|&k| k as f64).collect();
        Ok(Samples::in_one_process(mode, iters, values))
    }

    /// Sampling until the target precision: in worker processes when they
    /// can be used, else in this one.
    fn adaptively(&self, f: &mut RoutineFn<'_, M>) -> Result<Samples, String> {
        let (id, config) = (self.id, self.config);
        // Extra metrics are read in this process's meters; sample here then.
        if config.processes > 1 && config.metrics.is_empty() {
            self.terminal.sampling_adaptive(
                &id.title,
                config.target_precision,
                config.timeout.as_nanos() as f64,
            );
            match worker::sampling::sample(&id.full_id, config) {
                Ok(s) => {
                    self.say_how_precise(&s);
                    return Ok(Samples::from_sampled(s));
                }
                Err(worker::Unavailable::Failed(e)) => return Err(e),
                Err(worker::Unavailable::Fallback(why)) => self.fallback_note(&why),
            }
        }
        self.adaptively_here(f).map_err(|e| e.to_string())
    }

    /// Says how a multi-process sampling ended: precise, or limited by the
    /// machine's run-to-run noise.
    fn say_how_precise(&self, s: &adaptive::Sampled) {
        if s.reached {
            return;
        }
        let n = s.processes.as_ref().map_or(0, |p| {
            p.iter().collect::<std::collections::BTreeSet<_>>().len()
        });
        let reached = s.precision.map_or_else(
            || "no measurable precision".to_owned(),
            |p| format!("±{:.1}%", p * 100.0),
        );
        self.terminal.note(&format!(
            "{}: {reached} over {n} processes, not the ±{}% asked for: this is the machine's run-to-run noise, which more time would not narrow",
            self.id.full_id,
            self.config.target_precision * 100.0
        ));
    }

    /// Adaptive sampling in this process.
    fn adaptively_here(&self, f: &mut RoutineFn<'_, M>) -> Result<Samples, routine::NotIterated> {
        let (config, terminal, id) = (self.config, self.terminal, &self.id.title);
        let target = adaptive::Target {
            precision: config.target_precision,
            confidence: config.confidence_level,
            max_warm_up: config.warm_up_time,
            min_time: config.min_time.min(config.timeout),
            timeout: config.timeout,
        };
        terminal.warm_up_adaptive(id, config.warm_up_time.as_nanos() as f64);
        let met = adaptive::warm_up(self.m, f, target.max_warm_up)?;
        terminal.sampling_adaptive(id, target.precision, target.timeout.as_nanos() as f64);
        let s = adaptive::sample(self.m, f, met, &target)?;
        if !s.reached {
            let reached = s
                .precision
                .map(|p| format!("±{:.2}%", p * 100.0))
                .unwrap_or_else(|| "no measurable precision".to_owned());
            terminal.warning(&format!(
                "{id}: reached {reached} in the {:.1?} time-out, not the ±{}% asked for; raise --timeout or --target-precision",
                target.timeout,
                target.precision * 100.0
            ));
        }
        Ok(Samples::from_sampled(s))
    }
}

/// The sampling path `--stdev` selects: runs the rule, says in words when
/// the time-out came first or the benchmark took over 100 s, and returns
/// the pair as linear samples.
fn tasty<M: Measurement>(
    m: &M,
    terminal: &Terminal,
    id: &str,
    target: f64,
    timeout: Duration,
    f: &mut RoutineFn<'_, M>,
) -> Result<(ActualSamplingMode, Vec<f64>, Vec<f64>), NotIterated> {
    let unit = m.formatter().scale_for_machines(&mut [1.0]);
    terminal.sampling_tasty(id, target, timeout.as_nanos() as f64);
    let s = tasty_sampling::sample(m, f, unit, target, timeout, &mut || {
        terminal.warning(&format!("{id}: {}", tasty_sampling::LONG_WARNING));
    })?;
    if s.reason == StopReason::TimeoutSoon {
        terminal.warning(&format!(
            "{id}: reached a relative standard deviation of {:.1}% before the {:.1?} time-out, not the {}% asked for; raise --timeout or --stdev",
            100.0 * s.estimate.std_dev / s.estimate.mean,
            timeout,
            target * 100.0
        ));
    }
    Ok((ActualSamplingMode::Linear, s.iters, s.values))
}

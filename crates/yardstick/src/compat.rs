//! The Criterion.rs 0.3 API that published suites still call:
//! [`Benchmark`], [`ParameterizedBenchmark`], [`Fun`],
//! [`Criterion::bench`], [`Criterion::bench_function_over_inputs`] and
//! [`Criterion::bench_functions`]. Each is a thin layer over groups.

use std::fmt;
use std::time::Duration;

use crate::config::{PlotConfiguration, SamplingMode};
use crate::measurement::{Measurement, WallTime};
use crate::{Bencher, BenchmarkGroup, BenchmarkId, Criterion, Throughput};

type Routine<M> = Box<dyn FnMut(&mut Bencher<'_, M>)>;
type ParamRoutine<T, M> = Box<dyn FnMut(&mut Bencher<'_, M>, &T)>;
type ThroughputFn<T> = Box<dyn Fn(&T) -> Throughput>;

/// Group settings recorded by the 0.3 builders and applied to the group.
#[derive(Default)]
struct Settings {
    sample_size: Option<usize>,
    warm_up_time: Option<Duration>,
    measurement_time: Option<Duration>,
    nresamples: Option<usize>,
    noise_threshold: Option<f64>,
    confidence_level: Option<f64>,
    significance_level: Option<f64>,
    sampling_mode: Option<SamplingMode>,
    plot_config: Option<PlotConfiguration>,
}

impl Settings {
    fn apply<M: Measurement>(&self, g: &mut BenchmarkGroup<'_, M>) {
        if let Some(v) = self.sample_size {
            g.sample_size(v);
        }
        if let Some(v) = self.warm_up_time {
            g.warm_up_time(v);
        }
        if let Some(v) = self.measurement_time {
            g.measurement_time(v);
        }
        if let Some(v) = self.nresamples {
            g.nresamples(v);
        }
        if let Some(v) = self.noise_threshold {
            g.noise_threshold(v);
        }
        if let Some(v) = self.confidence_level {
            g.confidence_level(v);
        }
        if let Some(v) = self.significance_level {
            g.significance_level(v);
        }
        if let Some(v) = self.sampling_mode {
            g.sampling_mode(v);
        }
        if let Some(v) = &self.plot_config {
            g.plot_config(v.clone());
        }
    }
}

macro_rules! settings_setters {
    () => {
        /// Samples per benchmark.
        #[must_use]
        pub fn sample_size(mut self, n: usize) -> Self {
            assert!(n >= 10, "sample_size must be at least 10, got {n}");
            self.settings.sample_size = Some(n);
            self
        }
        /// Warm-up time.
        #[must_use]
        pub fn warm_up_time(mut self, dur: Duration) -> Self {
            self.settings.warm_up_time = Some(dur);
            self
        }
        /// Target measurement time.
        #[must_use]
        pub fn measurement_time(mut self, dur: Duration) -> Self {
            self.settings.measurement_time = Some(dur);
            self
        }
        /// Bootstrap resamples.
        #[must_use]
        pub fn nresamples(mut self, n: usize) -> Self {
            self.settings.nresamples = Some(n);
            self
        }
        /// Noise threshold (a fraction).
        #[must_use]
        pub fn noise_threshold(mut self, threshold: f64) -> Self {
            self.settings.noise_threshold = Some(threshold);
            self
        }
        /// Confidence level.
        #[must_use]
        pub fn confidence_level(mut self, cl: f64) -> Self {
            self.settings.confidence_level = Some(cl);
            self
        }
        /// Significance level.
        #[must_use]
        pub fn significance_level(mut self, sl: f64) -> Self {
            self.settings.significance_level = Some(sl);
            self
        }
        /// Sampling mode.
        #[must_use]
        pub fn sampling_mode(mut self, mode: SamplingMode) -> Self {
            self.settings.sampling_mode = Some(mode);
            self
        }
        /// Plot settings.
        #[must_use]
        pub fn plot_config(mut self, config: PlotConfiguration) -> Self {
            self.settings.plot_config = Some(config);
            self
        }
    };
}

/// A benchmark definition that [`Criterion::bench`] runs (0.3 API).
pub trait BenchmarkDefinition<M: Measurement = WallTime>: Sized {
    /// Runs the benchmarks under `group_id`.
    fn run(self, group_id: &str, c: &mut Criterion<M>);
}

/// One or more functions benchmarked without input (0.3 API; use
/// [`Criterion::benchmark_group`] in new code).
pub struct Benchmark<M: Measurement = WallTime> {
    settings: Settings,
    routines: Vec<(String, Routine<M>)>,
    throughput: Option<Throughput>,
}

impl<M: Measurement> Benchmark<M> {
    /// A benchmark of `f` named `id`.
    pub fn new<S, F>(id: S, f: F) -> Benchmark<M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>) + 'static,
    {
        Benchmark {
            settings: Settings::default(),
            routines: vec![(id.into(), Box::new(f))],
            throughput: None,
        }
    }

    /// Adds another function to compare.
    #[must_use]
    pub fn with_function<S, F>(mut self, id: S, f: F) -> Benchmark<M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>) + 'static,
    {
        self.routines.push((id.into(), Box::new(f)));
        self
    }

    /// The work one iteration does.
    #[must_use]
    pub fn throughput(mut self, throughput: Throughput) -> Benchmark<M> {
        self.throughput = Some(throughput);
        self
    }

    settings_setters!();
}

impl<M: Measurement> BenchmarkDefinition<M> for Benchmark<M> {
    fn run(self, group_id: &str, c: &mut Criterion<M>) {
        let mut g = c.benchmark_group(group_id);
        self.settings.apply(&mut g);
        if let Some(t) = self.throughput {
            g.throughput(t);
        }
        // As 0.3: a lone routine named like its group has no function id.
        let lone = self.routines.len() == 1;
        for (name, mut f) in self.routines {
            let function = (!(lone && name == group_id)).then_some(name);
            g.bench_function(BenchmarkId::from_parts(function, None), |b| f(b));
        }
        g.finish();
    }
}

/// Functions benchmarked over several inputs (0.3 API). Inputs are shown
/// with their `Debug` form, as in Criterion.rs 0.3.
pub struct ParameterizedBenchmark<T: fmt::Debug, M: Measurement = WallTime> {
    settings: Settings,
    values: Vec<T>,
    routines: Vec<(String, ParamRoutine<T, M>)>,
    throughput: Option<ThroughputFn<T>>,
}

impl<T: fmt::Debug + 'static, M: Measurement + 'static> ParameterizedBenchmark<T, M> {
    /// A benchmark of `f` named `id` over `parameters`.
    pub fn new<S, F, I>(id: S, f: F, parameters: I) -> ParameterizedBenchmark<T, M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>, &T) + 'static,
        I: IntoIterator<Item = T>,
    {
        ParameterizedBenchmark {
            settings: Settings::default(),
            values: parameters.into_iter().collect(),
            routines: vec![(id.into(), Box::new(f))],
            throughput: None,
        }
    }

    /// Adds another function to compare over the same inputs.
    #[must_use]
    pub fn with_function<S, F>(mut self, id: S, f: F) -> ParameterizedBenchmark<T, M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>, &T) + 'static,
    {
        self.routines.push((id.into(), Box::new(f)));
        self
    }

    /// The work one iteration does, per input.
    #[must_use]
    pub fn throughput<F>(mut self, throughput: F) -> ParameterizedBenchmark<T, M>
    where
        F: Fn(&T) -> Throughput + 'static,
    {
        self.throughput = Some(Box::new(throughput));
        self
    }

    settings_setters!();
}

impl<T: fmt::Debug + 'static, M: Measurement + 'static> BenchmarkDefinition<M>
    for ParameterizedBenchmark<T, M>
{
    fn run(self, group_id: &str, c: &mut Criterion<M>) {
        let mut g = c.benchmark_group(group_id);
        self.settings.apply(&mut g);
        // As 0.3: a lone routine named like its group has no function id, a
        // lone value no value string; values are shown with Debug.
        // One routine over every value, then the next routine, as 0.3.
        let lone_routine = self.routines.len() == 1;
        let lone_value = self.values.len() == 1;
        for (name, mut f) in self.routines {
            for value in &self.values {
                if let Some(t) = &self.throughput {
                    g.throughput(t(value));
                }
                let function = (!(lone_routine && name == group_id)).then(|| name.clone());
                let value_str = (!lone_value).then(|| format!("{value:?}"));
                let id = BenchmarkId::from_parts(function, value_str);
                g.bench_with_input(id, value, |b, v| f(b, v));
            }
        }
        g.finish();
    }
}

/// A named function for [`Criterion::bench_functions`] (0.3 API).
pub struct Fun<I: fmt::Debug, M: Measurement + 'static = WallTime> {
    name: String,
    f: ParamRoutine<I, M>,
}

impl<I: fmt::Debug, M: Measurement + 'static> Fun<I, M> {
    /// A function named `name`.
    pub fn new<F>(name: &str, f: F) -> Fun<I, M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I) + 'static,
    {
        Fun {
            name: name.to_owned(),
            f: Box::new(f),
        }
    }
}

impl<M: Measurement + 'static> Criterion<M> {
    /// Runs a [`Benchmark`] or [`ParameterizedBenchmark`] under `group_id`
    /// (0.3 API).
    pub fn bench<B: BenchmarkDefinition<M>>(
        &mut self,
        group_id: &str,
        benchmark: B,
    ) -> &mut Criterion<M> {
        benchmark.run(group_id, self);
        self
    }

    /// Benchmarks `f` over `inputs` (0.3 API); each input is shown with
    /// `Debug`.
    pub fn bench_function_over_inputs<I, F>(
        &mut self,
        id: &str,
        mut f: F,
        inputs: I,
    ) -> &mut Criterion<M>
    where
        I: IntoIterator,
        I::Item: fmt::Debug + 'static,
        F: FnMut(&mut Bencher<'_, M>, &I::Item) + 'static,
    {
        self.bench(
            id,
            ParameterizedBenchmark::new(id, move |b, i| f(b, i), inputs),
        )
    }

    /// Benchmarks several functions on one input (0.3 API).
    pub fn bench_functions<I>(
        &mut self,
        id: &str,
        funs: Vec<Fun<I, M>>,
        input: I,
    ) -> &mut Criterion<M>
    where
        I: fmt::Debug + 'static,
    {
        // 0.3 ran these as a ParameterizedBenchmark over the one input, so
        // the ids carry no value.
        let mut funs = funs.into_iter();
        let Some(first) = funs.next() else {
            return self;
        };
        let mut bench = ParameterizedBenchmark::new(first.name, first.f, [input]);
        for fun in funs {
            bench = bench.with_function(fun.name, fun.f);
        }
        self.bench(id, bench)
    }
}

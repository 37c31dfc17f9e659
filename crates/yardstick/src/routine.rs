//! Runs a benchmark's routine: warm-up, samples, quick mode and profiling.

use std::time::{Duration, Instant};

use crate::bencher::Bencher;
use crate::measurement::Measurement;

/// A benchmark's routine, with any input already bound.
pub(crate) type RoutineFn<'f, M> = dyn FnMut(&mut Bencher<'_, M>) + 'f;

/// One timed run of a routine's loop for a number of iterations: the
/// measured value as f64 and the wall time of the whole call. A worker's
/// timing loop serves its requests through one of these.
pub(crate) type Timed<'f> = dyn FnMut(u64) -> Result<(f64, Duration), NotIterated> + 'f;

/// The routine returned without calling any `iter*` method.
#[derive(Debug)]
pub(crate) struct NotIterated;

impl std::fmt::Display for NotIterated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "the benchmark function must call Bencher::iter or one of the other iter methods",
        )
    }
}

/// Runs `iters` iterations once; returns the measured value as f64 and the
/// wall time of the whole call.
pub(crate) fn run_once<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    iters: u64,
) -> Result<(f64, Duration), NotIterated> {
    let mut b = Bencher::new(m, iters);
    f(&mut b);
    if !b.iterated {
        return Err(NotIterated);
    }
    Ok((m.to_f64(&b.value), b.elapsed_time))
}

/// Calls the routine with 1, 2, 4, … iterations until `how_long` of wall
/// time has passed. Returns the elapsed nanoseconds and total iterations,
/// whose ratio estimates the time per iteration.
pub(crate) fn warm_up<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    how_long: Duration,
) -> Result<(f64, u64), NotIterated> {
    let mut iters: u64 = 1;
    let mut total_iters: u64 = 0;
    let mut elapsed = Duration::ZERO;
    loop {
        let (_, took) = run_once(m, f, iters)?;
        total_iters = total_iters.saturating_add(iters);
        elapsed += took;
        if elapsed > how_long || iters >= crate::limits::MAX_ITERS {
            // A zero elapsed time would make the plan divide by zero.
            return Ok((elapsed.as_nanos().max(1) as f64, total_iters));
        }
        iters = iters.saturating_mul(2);
    }
}

/// Runs one sample per entry of `counts` and returns the measured values.
pub(crate) fn bench<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    counts: &[u64],
) -> Result<Vec<f64>, NotIterated> {
    counts
        .iter()
        .map(|&n| run_once(m, f, n).map(|(value, _)| value))
        .collect()
}

/// Criterion.rs's `--quick` mode (tasty-bench's rule): double the iterations
/// until the two last measurements t_n and t_2n agree, that is until the
/// deviation of the estimate t = (t_n + 2·t_2n) / 5 is below `target_rel` of
/// it (after at least 100 ms), or `max` has passed. Returns the two samples.
pub(crate) fn quick<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    target_rel: f64,
    max: Duration,
) -> Result<(Vec<f64>, Vec<f64>), NotIterated> {
    let min = Duration::from_millis(100);
    let start = Instant::now();
    let mut n: u64 = 1;
    let mut t_prev = run_once(m, f, n)?.0;
    loop {
        let t_now = run_once(m, f, n * 2)?.0;
        let t = (t_prev + 2.0 * t_now) / 5.0;
        let stdev = ((t_prev - t).powi(2) + (t_now - 2.0 * t).powi(2)).sqrt();
        let elapsed = start.elapsed();
        if (stdev < target_rel * t && elapsed > min)
            || elapsed > max
            || n >= crate::limits::MAX_ITERS / 2
        {
            return Ok((vec![n as f64, (n * 2) as f64], vec![t_prev, t_now]));
        }
        n *= 2;
        t_prev = t_now;
    }
}

/// `--profile-time`: iterates for `time` without sampling, so a profiler
/// sees the routine and not the harness.
pub(crate) fn profile<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    time: Duration,
) -> Result<(), NotIterated> {
    let warm = time.min(Duration::from_secs(1));
    let (elapsed, iters) = warm_up(m, f, warm)?;
    let time_ns = time.as_nanos() as f64;
    if elapsed < time_ns {
        let met = elapsed / iters as f64;
        let remaining = crate::limits::cap(((time_ns - elapsed) / met) as u64);
        if remaining > 0 {
            run_once(m, f, remaining)?;
        }
    }
    Ok(())
}

/// Time per iteration of an empty loop with this measurement, for telling a
/// benchmark whose body was optimised away.
pub(crate) fn empty_loop_per_iteration<M: Measurement>(m: &M, iters: u64) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let mut b = Bencher::new(m, iters);
        b.iter(|| {});
        best = best.min(m.to_f64(&b.value) / iters as f64);
    }
    best
}

/// Whether the routine costs no more than an empty loop: its body was most
/// likely optimised away. Returns the warning, if so.
///
/// It decides on the fastest sample, as noise only ever adds time: an
/// optimised-away body sits at the empty loop's cost however busy the
/// machine is. The empty loop runs a tenth of the largest sample's
/// iterations, at least 1000 and at most
/// [`MAX_EMPTY_LOOP_ITERS`](crate::limits::MAX_EMPTY_LOOP_ITERS).
pub(crate) fn optimised_away<M: Measurement>(
    m: &M,
    id: &str,
    iters: &[f64],
    averages: &[f64],
) -> Option<String> {
    let largest = iters.iter().copied().fold(1.0, f64::max) as u64;
    let loop_iters = (largest / 10).clamp(1000, crate::limits::MAX_EMPTY_LOOP_ITERS);
    let empty = empty_loop_per_iteration(m, loop_iters);
    let fastest = averages.iter().copied().fold(f64::INFINITY, f64::min);
    (fastest <= empty * 1.25).then(|| {
        let f = m.formatter();
        format!(
            "{id}: its fastest sample, {} per iteration, is no more than an empty loop costs \
             here ({}): the body was probably optimised away — pass its inputs and result \
             through black_box",
            f.format_value(fastest).trim(),
            f.format_value(empty).trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measurement::WallTime;

    #[test]
    fn warm_up_doubles_until_the_time_is_spent() {
        let mut calls = Vec::new();
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            calls.push(b.iters);
            b.iter(|| std::thread::sleep(Duration::from_micros(200)));
        };
        let (elapsed, iters) = warm_up(&WallTime, &mut f, Duration::from_millis(5)).unwrap();
        assert!(elapsed > 5e6);
        // A loaded machine may stretch the sleeps, so the number of calls
        // is not fixed; every call doubles the last one all the same.
        let doubling: Vec<u64> = (0..calls.len()).map(|i| 1 << i).collect();
        assert_eq!(calls, doubling);
        // Sleeps last at least 200 µs, so the calls before the last one
        // (at most 5 ms in all, or it would have stopped) ran at most 25
        // iterations: 1 + 2 + 4 + 8 = 15, and one more call would be 31.
        assert!(calls.len() <= 5, "{calls:?}");
        assert_eq!(iters, calls.iter().sum::<u64>());
    }

    #[test]
    fn a_routine_that_never_iterates_is_an_error() {
        let mut f = |_: &mut Bencher<'_, WallTime>| {};
        assert!(warm_up(&WallTime, &mut f, Duration::from_millis(1)).is_err());
    }

    #[test]
    fn bench_returns_one_value_per_count() {
        let mut f = |b: &mut Bencher<'_, WallTime>| b.iter_custom(|n| Duration::from_nanos(3 * n));
        assert_eq!(
            bench(&WallTime, &mut f, &[1, 2, 5]).unwrap(),
            vec![3.0, 6.0, 15.0]
        );
    }

    #[test]
    fn quick_mode_stops_on_agreeing_measurements() {
        // A perfectly linear routine: t_2n = 2 t_n, so the deviation is 0
        // and it stops once 100 ms have passed.
        let mut f = |b: &mut Bencher<'_, WallTime>| {
            let n = b.iters;
            b.iter_custom(|_| {
                std::thread::sleep(Duration::from_millis(30));
                Duration::from_nanos(10 * n)
            })
        };
        let (iters, values) = quick(&WallTime, &mut f, 0.05, Duration::from_secs(5)).unwrap();
        assert_eq!(iters[1], 2.0 * iters[0]);
        assert_eq!(values[1], 2.0 * values[0]);
    }

    #[test]
    fn the_optimised_away_check_names_the_fastest_sample() {
        // A "sample" of 0 ns per iteration is below any empty loop; the
        // warning prints it (0 ps), not the typical time (5 ns).
        let w = optimised_away(&WallTime, "x", &[1e18, 1e18], &[5.0, 0.0]).unwrap();
        assert!(
            w.starts_with("x: its fastest sample, 0.0000 ps per iteration"),
            "{w}"
        );
        // A sample far above any empty loop (1 s per iteration) is not.
        assert!(optimised_away(&WallTime, "x", &[10.0], &[1e9]).is_none());
    }
}

use super::*;
use crate::Verdict;

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

#[test]
fn the_interval_is_students_t_over_the_processes_logarithms() {
    // scipy: l = log([10.2, 9.8, 10.5, 10.1, 9.9]); m = l.mean();
    // se = l.std(ddof=1)/√5; exp(m ± t.ppf(0.975, 4)·se) =
    // (9.764246009807923, 10.44119322845762), exp(m) = 10.0970480497322,
    // exp(m)·se = 0.12188616614180081.
    let e = interval(&[10.2, 9.8, 10.5, 10.1, 9.9], 0.95)
        .unwrap()
        .unwrap();
    close(e.point, 10.097_048_049_732_2, 1e-9);
    close(e.lower, 9.764_246_009_807_923, 1e-9);
    close(e.upper, 10.441_193_228_457_62, 1e-9);
    close(e.standard_error, 0.121_886_166_141_800_81, 1e-9);
    assert_eq!(interval(&[1.0], 0.95).unwrap(), None);
    let rel = relative_half_width(&[10.2, 9.8, 10.5, 10.1, 9.9], 0.95).unwrap();
    close(
        rel,
        10.441_193_228_457_62 / 10.097_048_049_732_2 - 1.0,
        1e-9,
    );
}

#[test]
fn a_wide_interval_stays_above_zero_and_is_wider_above() {
    // scipy, as above, for [1, 5, 9, 2.5, 7.5]: (1.259177425333443,
    // 3.8480681703630393, 11.759763434322958); on the linear scale the
    // lower bound would be 0.8585 for a mean of 5, and for spreads like
    // the one a loaded machine gave, below zero.
    let e = interval(&[1.0, 5.0, 9.0, 2.5, 7.5], 0.95).unwrap().unwrap();
    close(e.lower, 1.259_177_425_333_443, 1e-9);
    close(e.point, 3.848_068_170_363_039_3, 1e-9);
    close(e.upper, 11.759_763_434_322_958, 1e-9);
    assert!(e.upper - e.point > e.point - e.lower);
    // Estimates at or below zero (a custom measurement's) keep the linear
    // interval: mean 0, t.ppf(0.975, 2)·1/√3 = 2.4841377117503303.
    let e = interval(&[-1.0, 0.0, 1.0], 0.95).unwrap().unwrap();
    close(e.point, 0.0, 1e-12);
    close(e.upper, 2.484_137_711_750_330_3, 1e-9);
}

#[test]
fn the_drawn_interval_has_the_intervals_quantiles() {
    // The scipy case above: point 3900 of 4000 is
    // exp(m + se · t.ppf(3900.5 / 4000, 4)) = 10.44181093106663.
    let e = [10.2, 9.8, 10.5, 10.1, 9.9];
    let d = interval_draws(&e, 4000).unwrap();
    close(d[3900], 10.441_810_931_066_63, 1e-9);
    close(d[2000], 10.097_048_049_732_2, 1e-3);
    assert_eq!(interval_draws(&e[..1], 10), None);
}

#[test]
fn per_process_estimates_group_by_process_in_order_of_appearance() {
    // Process 7: 2 per iteration in every sample but one preempted
    // (9 over 3); the median of ratios [2, 2, 3, 2] is 2 where least
    // squares through the origin would give 25/14. Process 3: 3, 3.
    let iters = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0];
    let values = [2.0, 4.0, 9.0, 8.0, 3.0, 6.0];
    let procs = [7, 7, 7, 7, 3, 3];
    assert_eq!(per_process(&iters, &values, &procs).unwrap(), [2.0, 3.0]);
    // Flat: the median of value / iters per process.
    let flat = per_process(&[1.0, 1.0, 2.0], &[4.0, 6.0, 10.0], &[0, 0, 1]).unwrap();
    assert_eq!(flat, [5.0, 5.0]);
    assert!(per_process(&[1.0], &[1.0, 2.0], &[0]).is_err());
}

#[test]
fn a_clear_slowdown_is_a_regression_with_the_run_shift_counted() {
    // numpy/scipy, by hand: lo, ln = log(old), log(new); each side's
    // variance var(ddof=1)·(1/K + 2) + log1p(0.01)²; Welch–Satterthwaite
    // df over the var(ddof=1) parts; t = Δ/se, p = 2·t.sf(|t|, df),
    // Δ ± t.ppf(0.975, df)·se.
    // old = [100, 102, 98, 101, 99], new = [113, 111, 115, 112, 114, 110]:
    // t = 3.208177243464671, p = 0.007298984721057759, df 12.31;
    // expm1: 0.12498286376096579 in (0.038740749431533064, 0.21838528472906782).
    let old = [100.0, 102.0, 98.0, 101.0, 99.0];
    let new = [113.0, 111.0, 115.0, 112.0, 114.0, 110.0];
    let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
    close(c.t, 3.208_177_243_464_671, 1e-9);
    close(c.p_value, 0.007_298_984_721_057_759, 1e-7);
    close(c.mean.point, 0.124_982_863_760_965_79, 1e-12);
    close(c.mean.lower, 0.038_740_749_431_533_064, 1e-6);
    close(c.mean.upper, 0.218_385_284_729_067_82, 1e-6);
    assert_eq!(c.verdict, Verdict::Regressed);
}

#[test]
fn the_drawn_distributions_are_the_tests_own() {
    // The same runs as above, df 12.309688924236813 (the hand
    // calculation). The drawn relative changes span the verdict's
    // interval at its quantiles, and point 3900 of 4000 of the null t is
    // scipy's t.ppf(3900.5 / 4000, df) = 2.17552883086017.
    let run = |v: &[f64]| {
        (
            v.to_vec(),
            vec![1.0; v.len()],
            (0..v.len() as u32).collect::<Vec<_>>(),
        )
    };
    let (ov, oi, op) = run(&[100.0, 102.0, 98.0, 101.0, 99.0]);
    let (nv, ni, np) = run(&[113.0, 111.0, 115.0, 112.0, 114.0, 110.0]);
    // One sample per process: each process's fast end is its value.
    let old = RunSamples {
        iters: &oi,
        values: &ov,
        processes: &op,
    };
    let new = RunSamples {
        iters: &ni,
        values: &nv,
        processes: &np,
    };
    let cfg = ChangeConfig::default();
    let (c, d) = compare_runs_with_distributions(old, new, &cfg, 4000)
        .unwrap()
        .unwrap();
    close(c.mean.point, 0.124_982_863_760_965_79, 1e-12);
    let at = |v: &[f64], q: f64| v[(q * v.len() as f64) as usize];
    close(at(&d.mean, 0.025), c.mean.lower, 2e-3);
    close(at(&d.mean, 0.975), c.mean.upper, 2e-3);
    close(at(&d.mean, 0.5), c.mean.point, 1e-3);
    close(d.t[3900], 2.175_528_830_860_17, 1e-9);
    assert_eq!(d.mean, d.median);
}

#[test]
fn overlapping_runs_are_no_change() {
    // The same calculation: old = [100, 103, 97, 101, 99],
    // new = [101, 99, 104, 98, 100.5]: p = 0.9216183372453772;
    // (−0.10028587800526027, 0.12259232801492005).
    let old = [100.0, 103.0, 97.0, 101.0, 99.0];
    let new = [101.0, 99.0, 104.0, 98.0, 100.5];
    let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
    close(c.p_value, 0.921_618_337_245_377_2, 1e-7);
    close(c.mean.lower, -0.100_285_878_005_260_27, 1e-6);
    close(c.mean.upper, 0.122_592_328_014_920_05, 1e-6);
    assert_eq!(c.verdict, Verdict::NoChange);
}

#[test]
fn a_shift_no_larger_than_the_processes_spread_is_not_a_regression() {
    // +3 % with processes ±0.8 %: Welch's test over the processes alone
    // calls it certain, but a whole run moves about that much. The same
    // calculation: p = 0.1830571247818772, interval
    // (−0.01481838697292048, 0.07686037906863465).
    let old = [100.0, 101.0, 99.0, 100.5, 99.5];
    let new = [103.0, 104.0, 102.0, 103.5, 102.5];
    let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
    close(c.p_value, 0.183_057_124_781_877_2, 1e-7);
    close(c.mean.lower, -0.014_818_386_972_920_48, 1e-6);
    assert_eq!(c.verdict, Verdict::NoChange);
}

#[test]
fn runs_whose_processes_agree_still_shift_by_the_noise_threshold() {
    // Processes within ±0.1 %, runs 1.6 % apart (seen under a compile
    // load in A/A pairs): not a change. 5 % apart: a regression. The
    // same calculation: p = 0.2625552558679758 and
    // p = 0.0005726659525663865, interval (0.021249681266242822,
    // 0.07955975064105683).
    let old = [100.0, 100.1, 99.9, 100.05, 99.95];
    let near: Vec<f64> = old.iter().map(|v| v + 1.6).collect();
    let c = compare(&old, &near, &ChangeConfig::default()).unwrap();
    close(c.p_value, 0.262_555_255_867_975_8, 1e-6);
    assert_eq!(c.verdict, Verdict::NoChange);
    let far: Vec<f64> = old.iter().map(|v| v + 5.0).collect();
    let c = compare(&old, &far, &ChangeConfig::default()).unwrap();
    close(c.p_value, 0.000_572_665_952_566_386_5, 1e-7);
    close(c.mean.lower, 0.021_249_681_266_242_822, 1e-6);
    close(c.mean.upper, 0.079_559_750_641_056_83, 1e-6);
    assert_eq!(c.verdict, Verdict::Regressed);
}

#[test]
fn the_fast_end_of_each_process_is_its_fastest_sample() {
    // numpy.percentile([1, 2, 3, 4, 5], 0) = 1, the minimum; process 9
    // has values 2·[1..5] over 2 iterations each, so the same.
    let iters = [1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
    let values = [5.0, 1.0, 3.0, 2.0, 4.0, 10.0, 2.0, 6.0, 4.0, 8.0];
    let procs = [4, 4, 4, 4, 4, 9, 9, 9, 9, 9];
    let fast = per_process_fast(&iters, &values, &procs).unwrap();
    close(fast[0], 1.0, 1e-12);
    close(fast[1], 1.0, 1e-12);
    assert!(per_process_fast(&[], &[], &[]).is_err());
}

#[test]
fn degenerate_runs_never_give_nan() {
    let same = compare(&[5.0, 5.0], &[5.0, 5.0], &ChangeConfig::default()).unwrap();
    assert_eq!((same.p_value, same.verdict), (1.0, Verdict::NoChange));
    // Without a noise threshold, no spread makes any difference certain.
    let exact = ChangeConfig {
        noise_threshold: 0.0,
        ..ChangeConfig::default()
    };
    let apart = compare(&[5.0, 5.0], &[6.0, 6.0], &exact).unwrap();
    assert_eq!((apart.p_value, apart.verdict), (0.0, Verdict::Regressed));
    close(apart.mean.point, 0.2, 1e-12);
    let floored = compare(&[5.0, 5.0], &[6.0, 6.0], &ChangeConfig::default()).unwrap();
    assert!(floored.p_value < 1e-30, "{floored:?}");
    assert_eq!(floored.verdict, Verdict::Regressed);
    assert!(compare(&[5.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
    assert!(compare(&[0.0, 1.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
}

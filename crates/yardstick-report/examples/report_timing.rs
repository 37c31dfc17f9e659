//! Writes the report of a synthetic suite and times it.
//!
//! ```sh
//! cargo run --release -p yardstick-report --example report_timing -- OUT_DIR [N]
//! ```
//!
//! `N` benchmarks (default 100) in groups of ten over numeric inputs, each
//! with 100 linear samples and a baseline, are analysed with
//! `yardstick-stats` (100 000 resamples, untimed) and then written with
//! `write_benchmark`, `write_group` and `write_index` (timed). Prints the
//! time of each phase and the report's size on disk. `OUT_DIR/exports/`
//! gets the markdown summary, the quick plot and every built-in template.

use std::path::{Path, PathBuf};
use std::time::Instant;

use yardstick_format::criterion::{BenchmarkRecord, SamplingMode, SavedSample, Throughput};
use yardstick_report::{write_benchmark, write_group, write_index, BenchmarkReport};
use yardstick_stats::rng::Rng;
use yardstick_stats::{
    classify, compare_with_distributions, estimates_with_distributions, BootstrapConfig,
    ChangeConfig,
};

fn sample(rng: &mut Rng, per_iter: f64, linear: bool) -> SavedSample {
    let d = (1e6 / per_iter).max(1.0).round();
    let iters: Vec<f64> = (1..=100)
        .map(|i| if linear { d * f64::from(i) } else { d * 50.0 })
        .collect();
    let times = iters
        .iter()
        .map(|&n| {
            // Mostly Gaussian-ish noise, with a few slow outliers.
            let u: f64 = (0..4).map(|_| rng.next_f64()).sum::<f64>() - 2.0;
            let spike = if rng.next_f64() < 0.04 { 1.25 } else { 1.0 };
            n * per_iter * (1.0 + 0.03 * u) * spike
        })
        .collect();
    SavedSample {
        sampling_mode: if linear {
            SamplingMode::Linear
        } else {
            SamplingMode::Flat
        },
        iters,
        times,
        processes: None,
        measurement: None,
    }
}

fn save(dir: &Path, name: &str, s: &SavedSample, record: &BenchmarkRecord) {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("sample.json"), serde_json::to_string(s).unwrap()).unwrap();
    std::fs::write(
        d.join("benchmark.json"),
        serde_json::to_string(record).unwrap(),
    )
    .unwrap();
}

fn main() {
    let mut args = std::env::args().skip(1);
    let home = PathBuf::from(args.next().expect("usage: report_timing OUT_DIR [N]"));
    let n: usize = args.next().map_or(100, |a| a.parse().expect("N"));
    let mut rng = Rng::new(42);
    let boot = BootstrapConfig::default();
    let mut analysis = std::time::Duration::ZERO;
    let mut writing = std::time::Duration::ZERO;
    let mut groups = Vec::new();
    for i in 0..n {
        let group = format!("group{}", i / 10);
        let input = 1u64 << (i % 10);
        let func = if i % 2 == 0 { "fast" } else { "slow" };
        let record = BenchmarkRecord {
            group_id: group.clone(),
            function_id: Some(func.to_owned()),
            value_str: Some(input.to_string()),
            throughput: Some(Throughput::Bytes(input * 64)),
            full_id: format!("{group}/{func}/{input}"),
            directory_name: format!("{group}/{func}/{input}"),
            title: format!("{group}/{func}/{input}"),
        };
        if !groups.contains(&group) {
            groups.push(group.clone());
        }
        let per_iter = 20.0 * input as f64 * if func == "slow" { 3.0 } else { 1.0 };
        let linear = i % 7 != 3;
        let base = sample(&mut rng, per_iter, linear);
        let new = sample(&mut rng, per_iter * 1.04, linear);
        let t = Instant::now();
        let (estimates, dists) =
            estimates_with_distributions(&new.iters, &new.times, linear, &boot).unwrap();
        let tukey = classify(&new.averages());
        let (change, cdists) =
            compare_with_distributions(&base.averages(), &new.averages(), &ChangeConfig::default())
                .unwrap();
        analysis += t.elapsed();
        let dir = home.join(&record.directory_name);
        save(&dir, "new", &new, &record);
        save(&dir, "base", &base, &record);
        let est_file = serde_json::json!({
            "mean": file(&estimates.mean), "median": file(&estimates.median),
            "median_abs_dev": file(&estimates.mad), "std_dev": file(&estimates.std_dev),
            "slope": estimates.slope.as_ref().map(file),
        });
        std::fs::write(dir.join("new/estimates.json"), est_file.to_string()).unwrap();
        let t = Instant::now();
        write_benchmark(
            &home,
            &BenchmarkReport {
                record: &record,
                sample: &new,
                unit: "ns",
                estimates: &estimates,
                distributions: Some(&dists),
                tukey: &tukey,
                baseline: Some(&base),
                change: Some(&change),
                change_distributions: Some(&cdists),
                lockstep: None,
                explanation: None,
                build_line: None,
            },
        )
        .unwrap();
        writing += t.elapsed();
    }
    let t = Instant::now();
    for g in &groups {
        write_group(&home, g, true).unwrap();
    }
    let group_time = t.elapsed();
    let t = Instant::now();
    write_index(&home).unwrap();
    let index_time = t.elapsed();
    let t = Instant::now();
    let results = yardstick_report::load_results(&home, "report_timing").unwrap();
    let out = home.join("exports");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(
        out.join("summary.md"),
        yardstick_report::markdown_summary(&results),
    )
    .unwrap();
    std::fs::write(out.join("quick.svg"), yardstick_report::quick_svg(&results)).unwrap();
    for b in yardstick_report::Builtin::ALL {
        let text = b.render(&results).unwrap();
        let ext = if b.name() == "pyperf" {
            "json"
        } else {
            b.name()
        };
        std::fs::write(out.join(format!("{}.{ext}", b.name())), text).unwrap();
    }
    let exports_time = t.elapsed();
    let (bytes, files) = report_size(&home);
    println!("benchmarks: {n}");
    println!("analysis (not part of the report): {analysis:.2?}");
    println!(
        "benchmark pages: {writing:.2?} ({:.2?} each)",
        writing / n as u32
    );
    println!("group pages: {group_time:.2?}");
    println!("index: {index_time:.2?}");
    println!("report total: {:.2?}", writing + group_time + index_time);
    println!("exports (markdown, quick svg, 4 templates): {exports_time:.2?}");
    println!("report files: {files}, {} KiB", bytes / 1024);
}

fn file(e: &yardstick_stats::Estimate) -> serde_json::Value {
    serde_json::json!({
        "confidence_interval": {"confidence_level": e.confidence, "lower_bound": e.lower, "upper_bound": e.upper},
        "point_estimate": e.point, "standard_error": e.standard_error,
    })
}

/// Bytes and number of files under every `report/` folder.
fn report_size(dir: &Path) -> (u64, usize) {
    let mut total = (0, 0);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return total;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "report") {
                let (b, f) = all_files(&p);
                total.0 += b;
                total.1 += f;
            } else {
                let (b, f) = report_size(&p);
                total.0 += b;
                total.1 += f;
            }
        }
    }
    total
}

fn all_files(dir: &Path) -> (u64, usize) {
    let mut total = (0, 0);
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            let (b, f) = all_files(&p);
            total.0 += b;
            total.1 += f;
        } else {
            total.0 += e.metadata().map_or(0, |m| m.len());
            total.1 += 1;
        }
    }
    total
}

//! `cargo yardstick calibrate --layouts[=N]`: how far relinking the same
//! code moves each benchmark on this machine.
//!
//! `cargo bench`'s comparison with the baseline's binary measures one
//! layout of each build: the bench binaries are linked by cargo, and the
//! harness has no objects to link again. A neutral edit moves every
//! function after it, and on the trust suite 9 of 75 benchmarks were
//! called changed after one. This command builds the working tree as `ab`
//! does, with N code layouts of each bench binary (the same code, the
//! functions in N shuffled orders), and measures every benchmark in
//! lock-step across them: pair `k` runs layout `k` against layout `k + 1`,
//! so each layout runs in two processes. Each process's median time (its
//! rounds alternate with the other side's, so the machine's drift reaches
//! every process alike) is one value; the spread between the layouts,
//! less what the two processes of one layout disagree by (the lock-step
//! interval counts that already), is the layout component σ², and the
//! bound is the 95 % prediction bound of the change between two layouts,
//! `exp(t(0.975, N − 1) · √2 · σ) − 1` (`yardstick_stats::layouts`). It is
//! written to `<home>/.layouts/<package>.<target>.json` (the target's
//! `yardstick_format::binary::store_key`: two packages of a workspace may
//! each have a `benches/bench.rs`), where the harness reads it: a
//! lock-step change within it is reported as what relinking moves.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use yardstick::worker::lockstep::{self, Engine, Measured, Settings};
use yardstick_format::layout::{LayoutFile, LayoutSpread};
use yardstick_format::names::terminal_text;
use yardstick_stats::layouts::prediction_bound;

use crate::ab::{self, Built};
use crate::runner;

/// Layouts measured when `--layouts` names no number: a prediction bound
/// from four layouts has 3 degrees of freedom (t = 3.18), from eight 7
/// (t = 2.36); the links are paid once.
pub const DEFAULT: usize = 8;

/// What the spread bounds.
pub const DEFINITION: &str = "95% prediction bound of the change between two layouts of the same code: exp(t(0.975, layouts-1) * sqrt(2) * sigma) - 1, sigma^2 the layout component of the per-process median times (one-way random effects, the processes' own spread taken out)";

/// Seconds of rounds per benchmark.
const BUDGET: Duration = Duration::from_millis(800);

/// Runs `calibrate --layouts`; the exit status.
///
/// # Errors
///
/// The exit status and one line.
pub fn run(args: &[String], home: Option<&Path>, n: usize) -> Result<u8, (u8, String)> {
    let (cargo_args, bench_args) = runner::split(args);
    let home = yardstick_format::home::resolve_here(&yardstick_format::home::CRITERION, home, None);
    let built = ab::build_worktree(cargo_args, n)?;
    let mut rows = Vec::new();
    for b in &built {
        let target = ab::target_name(&b.bin);
        let key = store_key(&b.bin, &target);
        if b.layouts.len() < 2 {
            let why = b.why_not.as_deref().unwrap_or("no layouts");
            eprintln!(
                "{}",
                terminal_text(&format!("{target}: layout not sampled: {why}"))
            );
            continue;
        }
        let spreads = measure(b, bench_args).map_err(|e| (1, format!("{target}: {e}")))?;
        if spreads.is_empty() {
            continue;
        }
        write(&home, &key, &target, n, &spreads).map_err(|e| (1, e))?;
        rows.extend(spreads.into_iter().map(|s| (key.clone(), s)));
    }
    if rows.is_empty() {
        return Err((
            2,
            "no benchmark was measured in several layouts; nothing was calibrated".into(),
        ));
    }
    print!("{}", terminal_text(&table(&rows)));
    eprintln!(
        "wrote the layout spread of {} benchmarks ({n} layouts each) to {}",
        rows.len(),
        home.join(yardstick_format::layout::LAYOUTS_DIR).display()
    );
    Ok(0)
}

/// Every benchmark of one bench binary measured across its layouts.
fn measure(b: &Built, bench_args: &[String]) -> Result<Vec<LayoutSpread>, String> {
    let n = b.layouts.len();
    let spawner = |shift: usize| {
        move |pair: usize| {
            let mut c = Command::new(&b.layouts[(pair + shift) % n]);
            c.current_dir(&b.bin.package_dir)
                .arg("--bench")
                .args(bench_args);
            c
        }
    };
    let (sa, sb) = (spawner(0), spawner(1));
    let settings = Settings {
        pairs: n,
        round: lockstep::ROUND,
        budget: BUDGET,
        min_blocks: lockstep::MIN_BLOCKS,
        min_pairs: n,
        confidence: 0.95,
        seed: u64::from(std::process::id()),
        hang_limit: Duration::from_secs(20),
        memory_budget: lockstep::DEFAULT_MEMORY_BUDGET,
        layouts: 0,
    };
    let ids = lockstep::list(&sa)?;
    let mut engine = Engine::new(&sa, &sb, settings);
    let mut out = Vec::new();
    for id in ids {
        match engine.measure(&id) {
            Ok(m) => {
                let estimates = per_layout(&m, n);
                let (times, layout) = per_process(&m, n);
                if let Some(spread) = prediction_bound(&times, &layout) {
                    eprintln!(
                        "{}",
                        terminal_text(&format!("{id}: ±{:.2}%", spread * 100.0))
                    );
                    out.push(LayoutSpread {
                        id,
                        relative_spread: spread,
                        estimates,
                    });
                }
            }
            Err(e) => eprintln!("{}", terminal_text(&format!("{id}: failed: {e}"))),
        }
    }
    Ok(out)
}

/// The median time per iteration of each layout's rounds: pair `k` ran
/// layout `k` on side A and layout `k + 1` on side B.
fn per_layout(m: &Measured, n: usize) -> Vec<f64> {
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); n];
    for ((a, b), &k) in m.a.iter().zip(&m.b).zip(&m.pair) {
        times[k % n].push(*a);
        times[(k + 1) % n].push(*b);
    }
    times
        .iter()
        .filter_map(|t| yardstick_stats::univariate::median(t))
        .collect()
}

/// Each worker process's median time per iteration and its layout: pair
/// `k`'s A process ran layout `k`, its B process layout `k + 1`.
fn per_process(m: &Measured, n: usize) -> (Vec<f64>, Vec<usize>) {
    let mut times = Vec::new();
    let mut layout = Vec::new();
    for k in yardstick_stats::paired::units_in_order(&m.pair) {
        for (side, shift) in [(&m.a, 0), (&m.b, 1)] {
            let rounds: Vec<f64> = side
                .iter()
                .zip(&m.pair)
                .filter(|&(_, &p)| p == k)
                .map(|(t, _)| *t)
                .collect();
            if let Some(t) = yardstick_stats::univariate::median(&rounds) {
                times.push(t);
                layout.push((k + shift) % n);
            }
        }
    }
    (times, layout)
}

/// The bench target's name in the home, as the harness makes it: its
/// package (`package.name` of the manifest cargo built it from, which is
/// the `CARGO_PKG_NAME` the harness reads) and its name.
fn store_key(bin: &runner::BenchBinary, target: &str) -> String {
    let manifest = std::fs::read_to_string(bin.package_dir.join("Cargo.toml")).ok();
    let value = manifest.and_then(|t| toml::from_str::<toml::Value>(&t).ok());
    let package = value
        .as_ref()
        .and_then(|v| v.get("package")?.get("name")?.as_str())
        .and_then(yardstick_format::binary::package_name);
    yardstick_format::binary::store_key(package.as_deref(), target)
}

fn write(
    home: &Path,
    key: &str,
    target: &str,
    n: usize,
    spreads: &[LayoutSpread],
) -> Result<(), String> {
    let doc = LayoutFile {
        version: yardstick_format::layout::VERSION,
        target: target.to_owned(),
        layouts: n,
        definition: DEFINITION.to_owned(),
        benchmarks: spreads.to_vec(),
        measured_at: Some(crate::host::now()),
        rustc: crate::host::rustc_verbose()
            .lines()
            .next()
            .map(str::to_owned)
            .filter(|v| !v.is_empty()),
    };
    let path = yardstick_format::layout::path(home, key);
    let text = yardstick_format::json::to_string_pretty(&doc) + "\n";
    crate::atomic::write_atomic(&path, text.as_bytes())
}

fn table(rows: &[(String, LayoutSpread)]) -> String {
    let width = rows
        .iter()
        .map(|(_, s)| s.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let mut out = format!("{:<width$}  target  relinking moves it by\n", "benchmark");
    for (target, s) in rows {
        out.push_str(&format!(
            "{:<width$}  {target}  ±{:.2}%\n",
            s.id,
            s.relative_spread * 100.0
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_layout_gathers_its_rounds_from_both_sides() {
        // Two pairs over two layouts: pair 0 ran layout 0 (A) against 1
        // (B), pair 1 ran layout 1 (A) against 0 (B).
        let m = Measured {
            a: vec![10.0, 11.0, 20.0, 22.0],
            b: vec![21.0, 20.0, 12.0, 10.0],
            pair: vec![0, 0, 1, 1],
            iters: 1,
            seconds: 0.0,
            layouts: 0,
        };
        // Layout 0: 10, 11, 12, 10 → median 10.5; layout 1: 21, 20, 20, 22 → 20.5.
        assert_eq!(per_layout(&m, 2), vec![10.5, 20.5]);
        // The processes: pair 0's A (10.5, layout 0) and B (20.5, layout
        // 1), pair 1's A (21, layout 1) and B (11, layout 0).
        assert_eq!(
            per_process(&m, 2),
            (vec![10.5, 20.5, 21.0, 11.0], vec![0, 1, 1, 0])
        );
    }

    #[test]
    fn two_packages_bench_targets_of_one_name_get_two_files() {
        let root = std::env::temp_dir().join(format!("ys-layout-keys-{}", std::process::id()));
        let mut keys = Vec::new();
        for package in ["alpha", "beta-two"] {
            let dir = root.join(package);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("Cargo.toml"),
                format!("[package]\nname = \"{package}\"\nversion = \"0.1.0\"\n"),
            )
            .unwrap();
            let bin = runner::BenchBinary {
                executable: root.join("deps/bench-0123456789abcdef"),
                package_dir: dir,
                features: None,
                opt_level: None,
            };
            keys.push(store_key(&bin, &ab::target_name(&bin)));
        }
        assert_eq!(keys, ["alpha.bench", "beta-two.bench"]);
        // No manifest to read: the target alone, as before packages.
        let bare = runner::BenchBinary {
            executable: root.join("deps/bench-0123456789abcdef"),
            package_dir: root.join("nowhere"),
            features: None,
            opt_level: None,
        };
        assert_eq!(store_key(&bare, "bench"), "bench");
        std::fs::remove_dir_all(&root).unwrap();
    }
}

//! The bench files in `iai/`, written for iai-callgrind 0.12 and built
//! against yardstick-callgrind by the one-line switch, run under Valgrind
//! as `cargo bench` runs them: iai-callgrind's headers (ids, argument
//! display, group names) in iai-callgrind's order, its files under
//! `target/iai`, its environment variables.
//!
//! Without `valgrind` on PATH these tests pass with a note, except under
//! `CI`, where they fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn have_valgrind() -> bool {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "valgrind is not on PATH: CI must install it (apt-get install valgrind)"
        );
        eprintln!("note: valgrind is not on PATH; skipping this test");
    }
    found
}

fn temp_home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iai-compat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs bench binary `bin` with `--bench` (as `cargo bench` does).
fn bench(bin: &str, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin);
    cmd.arg("--bench").args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("IAI_CALLGRIND_") || k.starts_with("YARDSTICK_CALLGRIND_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied());
    let out = cmd.output().expect("run the bench binary");
    assert!(
        out.status.success(),
        "{bin} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn headers(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains("::"))
        .map(str::to_owned)
        .collect()
}

fn instructions(out: &Output, header: &str) -> u64 {
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines().skip_while(|l| *l != header).skip(1);
    let line = lines
        .find(|l| l.trim_start().starts_with("Instructions:"))
        .unwrap_or_else(|| panic!("no Instructions after {header}:\n{text}"));
    let count = line.split(':').nth(1).and_then(|r| r.split('|').next());
    count.and_then(|c| c.trim().parse().ok()).expect("a count")
}

#[test]
fn readme_quickstart_headers_and_target_iai() {
    if !have_valgrind() {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_readme_fibonacci");
    // No home given: iai-callgrind's location, target/iai/<package>/<file>/...
    let out = bench(
        bin,
        &["--save-baseline=compat"],
        &[("IAI_CALLGRIND_FILTER", "short")],
    );
    assert_eq!(
        headers(&out),
        ["readme_fibonacci::bench_fibonacci_group::bench_fibonacci short:10"]
    );
    let target = Path::new(bin)
        .ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .expect("the target directory");
    let dir = target.join(
        "iai/yardstick-callgrind-iai-compat/readme_fibonacci/bench_fibonacci_group/bench_fibonacci.short",
    );
    for file in [
        "callgrind.bench_fibonacci.short.out",
        "callgrind.bench_fibonacci.short.out.base@compat",
    ] {
        assert!(
            dir.join(file).is_file(),
            "{} is missing",
            dir.join(file).display()
        );
    }
}

#[test]
fn setup_teardown_and_benches_ids_in_iai_callgrinds_order() {
    if !have_valgrind() {
        return;
    }
    let home = temp_home("setup");
    let home_s = home.to_string_lossy().into_owned();
    let out = bench(
        env!("CARGO_BIN_EXE_readme_setup"),
        &[],
        &[("IAI_CALLGRIND_HOME", &home_s)],
    );
    assert_eq!(
        headers(&out),
        [
            "readme_setup::setup_group::bench_fibonacci long:some_setup_func(30)",
            "readme_setup::setup_group::my_bench first:my_setup(21)",
            "readme_setup::setup_group::my_bench multiple_0:my_setup(42)",
            "readme_setup::setup_group::my_bench multiple_1:my_setup(84)",
            "readme_setup::setup_group::my_bench last:my_other_setup(102)",
        ]
    );
    // The home variable moved the files.
    assert!(home
        .join("yardstick-callgrind-iai-compat/readme_setup/setup_group/my_bench.last")
        .is_dir());
    let out = bench(
        env!("CARGO_BIN_EXE_readme_teardown"),
        &[],
        &[("IAI_CALLGRIND_HOME", &home_s)],
    );
    assert_eq!(
        headers(&out),
        [
            "readme_teardown::my_bench_group::my_bench first:\"1\"",
            "readme_teardown::my_bench_group::my_bench multiple_0:\"42\"",
            "readme_teardown::my_bench_group::my_bench multiple_1:\"84\"",
            "readme_teardown::my_bench_group::my_bench last:\"104\"",
            "readme_teardown::my_bench_group::my_nocapture_bench some_id:10",
        ]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn benches_attribute_and_compare_by_id() {
    if !have_valgrind() {
        return;
    }
    let home = temp_home("compare");
    let home_s = home.to_string_lossy().into_owned();
    let out = bench(
        env!("CARGO_BIN_EXE_readme_compare"),
        &[],
        &[("IAI_CALLGRIND_HOME", &home_s)],
    );
    let h = headers(&out);
    assert_eq!(h[..4], [
        "readme_compare::benches_attribute::bench_bubble_sort_with_benches_attribute multiple_0:vec! [1]",
        "readme_compare::benches_attribute::bench_bubble_sort_with_benches_attribute multiple_1:vec! [5]",
        "readme_compare::benches_attribute::bench_bubble_sort_with_benches_attribute with_setup_0:setup_worst_case_array(1)",
        "readme_compare::benches_attribute::bench_bubble_sort_with_benches_attribute with_setup_1:setup_worst_case_array(5)",
    ]);
    assert_eq!(
        h[4],
        "readme_compare::bench_bubble_sort::bench_bubble_sort_best_case case_3:vec! [1, 2, 3]"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Comparison with bench_bubble_sort_best_case case_3:vec! [1, 2, 3]"),
        "{text}"
    );
    // Worst case sorts, best case does not: more instructions for [3, 2, 1].
    let best = instructions(&out, &h[4]);
    let worst = instructions(
        &out,
        "readme_compare::bench_bubble_sort::bench_bubble_sort_worst_case case_3:vec! [3, 2, 1]",
    );
    assert!(worst > best, "{worst} <= {best}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn binary_benchmarks_with_fixtures_and_exit_codes() {
    if !have_valgrind() {
        return;
    }
    let home = temp_home("binary");
    let home_s = home.to_string_lossy().into_owned();
    let out = bench(
        env!("CARGO_BIN_EXE_readme_binary"),
        &[],
        &[("IAI_CALLGRIND_HOME", &home_s)],
    );
    assert_eq!(
        headers(&out),
        [
            "readme_binary::my_exe_group do foo with test1:benchmark-tests-printargs --foo=fixtures/test1.txt",
            "readme_binary::my_exe_group positional arguments:benchmark-tests-printargs foo \"foo bar\"",
            "readme_binary::my_exe_group no argument:benchmark-tests-printargs",
            "readme_binary::exit_group exits with 100:benchmark-tests-printargs exit 100",
            "readme_binary::exit_group env:benchmark-tests-printargs x",
        ]
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn other_forms_file_lines_client_requests_and_colour() {
    if !have_valgrind() {
        return;
    }
    let home = temp_home("forms");
    let home_s = home.to_string_lossy().into_owned();
    let out = bench(
        env!("CARGO_BIN_EXE_forms"),
        &[],
        &[
            ("IAI_CALLGRIND_HOME", &home_s),
            ("IAI_CALLGRIND_COLOR", "never"),
        ],
    );
    assert_eq!(
        headers(&out),
        [
            "forms::forms::lone",
            "forms::forms::add pairs_0:1, 2",
            "forms::forms::add pairs_1:3, 4",
            "forms::forms::add configured:5, 6",
            "forms::forms::line_length lines_0:\"short\"",
            "forms::forms::line_length lines_1:\"a much longer line of input\"",
            "forms::forms::with_requests",
        ]
    );
    // toggle_collect around fibonacci(20) (over 20 000 calls) leaves only
    // fibonacci(8) (67 calls) counted.
    let with_requests = instructions(&out, "forms::forms::with_requests");
    assert!(with_requests < 5_000, "{with_requests}");
    // Colour on request, off by default when not a terminal.
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    let out = bench(
        env!("CARGO_BIN_EXE_forms"),
        &["lone"],
        &[
            ("IAI_CALLGRIND_HOME", &home_s),
            ("CARGO_TERM_COLOR", "always"),
        ],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\x1b[32mforms::forms::lone"));
    let _ = std::fs::remove_dir_all(&home);
}

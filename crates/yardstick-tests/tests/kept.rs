//! The kept bench binaries as files another tool or user can touch: a
//! linker or `strip` rewriting cargo's output in place, a file planted in
//! a shared home, another build put in place of this run's copy, a `main`
//! that never ends in `final_summary`, a store written before packages
//! were recorded. Times come from the fixture's fake clock, so verdicts do
//! not depend on the machine.

mod common;

use common::builds::{
    all_hold_their_names, build, folder, kept_binaries, kept_name, run_binary, run_binary_with,
    without_valgrind, KEY, LOCKSTEP_LINE,
};
use common::home;
use std::path::{Path, PathBuf};

const FALLBACK: &str = "comparing with the baseline's saved numbers, not in lock-step: ";

/// What mold does to an existing output file, and GNU `strip` to one with
/// several links: the same inode opened for writing, truncated, written.
fn rewrite_in_place(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn the_baseline_survives_its_build_rewritten_in_place() {
    let h = home("kept-inplace");
    let a = build(&h.join("target"), b"");
    assert_eq!(run_binary(&a, &h, &[]).code, 0);
    // The next build, 10 % slower, written over cargo's output file.
    let next = std::fs::read(build(&h.join("next"), b"\nFIXTURE_FACTOR=1.1")).unwrap();
    rewrite_in_place(&a, &next);
    assert!(all_hold_their_names(&h), "{:?}", kept_binaries(&h));
    let r = run_binary(&a, &h, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(LOCKSTEP_LINE), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("+10.000%"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn another_build_in_place_of_this_runs_copy_is_not_measured_as_this_one() {
    let h = home("kept-own");
    // Two builds of one size: the second does 3 % of the first's work.
    let a = build(&h.join("a"), b"\nFIXTURE_FACTOR=1.00");
    let b = build(&h.join("b"), b"\nFIXTURE_FACTOR=0.03");
    assert_eq!(run_binary(&a, &h, &[]).code, 0);
    // B's kept copy, before B runs, holds A's bytes (an older build of the
    // same size left under B's name).
    let b_name = kept_name(&std::fs::read(&b).unwrap());
    let planted = h.join(".binaries").join(KEY).join(&b_name);
    std::fs::copy(&a, &planted).unwrap();
    // The fake clock's factor is time alone: counted, it would be no
    // verdict past the allowance.
    let r = run_binary_with(&b, &h, &[], &without_valgrind());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(LOCKSTEP_LINE), "{}{}", r.stdout, r.stderr);
    // 0.03 − 1 = −97 %.
    assert!(r.stdout.contains("-97.000%"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Performance has improved."),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read(&planted).unwrap(), std::fs::read(&b).unwrap());
    let _ = std::fs::remove_dir_all(&h);
}

/// Runs A, spoils its kept binary with `plant`, runs B (the same code,
/// other bytes): B compares with the saved numbers, saying once the line
/// `why` makes of the kept binary's path.
#[cfg(unix)]
fn refused(tag: &str, plant: impl Fn(&Path), why: impl Fn(&Path) -> String) {
    let h = home(tag);
    let a = build(&h.join("a"), b"");
    assert_eq!(run_binary(&a, &h, &[]).code, 0);
    let kept = kept_binaries(&h).pop().expect("a kept binary");
    plant(&kept);
    let b = build(&h.join("b"), b"\nFIXTURE_FACTOR=1");
    let r = run_binary(&b, &h, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains(LOCKSTEP_LINE), "{}", r.stdout);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains(FALLBACK))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(line.contains(&why(&kept)), "{line}");
    assert_eq!(r.stderr.matches(FALLBACK).count(), 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("No change in performance detected."),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&h);
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
#[test]
fn a_kept_binary_others_can_write_is_not_run() {
    refused(
        "kept-world",
        |kept| chmod(kept, 0o757),
        |kept| {
            format!(
                "{} can be written by other users (mode 757)",
                kept.display()
            )
        },
    );
}

#[cfg(unix)]
#[test]
fn a_folder_of_kept_binaries_others_can_write_is_not_trusted() {
    refused(
        "kept-world-dir",
        |kept| chmod(kept.parent().unwrap(), 0o777),
        |kept| {
            let dir = kept.parent().unwrap().display();
            format!("{dir} can be written by other users (mode 777)")
        },
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_kept_binary_of_another_user_is_not_run() {
    // SAFETY: no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        println!("skipped: planting a file of another user needs root");
        return;
    }
    refused(
        "kept-owner",
        |kept| std::os::unix::fs::lchown(kept, Some(65534), Some(65534)).unwrap(),
        |kept| {
            format!(
                "{} belongs to another user (uid 65534, this one 0)",
                kept.display()
            )
        },
    );
}

#[test]
fn a_main_that_never_calls_final_summary_still_prunes() {
    let h = home("kept-no-summary");
    let env = [("FIXTURE_PROCESSES", "1"), ("FIXTURE_NO_SUMMARY", "1")];
    for k in 0..6 {
        let tail = format!("\nFIXTURE_FACTOR=1.0000{k}");
        let exe = build(&h.join(format!("b{k}")), tail.as_bytes());
        let r = run_binary_with(&exe, &h, &[], &env);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    // Each run keeps its build and prunes: the one before it is still
    // named by `base` and `new` (this run has not saved yet), the one
    // before that by `change/binary.json` (the baseline the last
    // comparison measured, kept for `cargo yardstick explain`), the older
    // ones by nothing.
    assert_eq!(kept_binaries(&h).len(), 3, "{:?}", kept_binaries(&h));
    // Each kept binary has its build record beside it; the records of the
    // binaries pruned went with them.
    let records: Vec<PathBuf> = kept_binaries(&h)
        .iter()
        .map(|b| PathBuf::from(format!("{}.build.json", b.display())))
        .collect();
    assert!(records.iter().all(|r| r.is_file()), "{records:?}");
    let all = std::fs::read_dir(h.join(".binaries").join(KEY)).unwrap();
    let count = all
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".build.json"))
        .count();
    assert_eq!(count, 3);
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn a_binary_measured_as_a_baseline_is_marked_used() {
    let h = home("kept-lru");
    let a = build(&h.join("a"), b"");
    assert_eq!(run_binary(&a, &h, &["--save-baseline", "old"]).code, 0);
    let kept = kept_binaries(&h).pop().unwrap();
    let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::open(&kept)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();
    let b = build(&h.join("b"), b"\nFIXTURE_FACTOR=1");
    let r = run_binary(&b, &h, &["--baseline", "old"]);
    assert!(r.stdout.contains(LOCKSTEP_LINE), "{}{}", r.stdout, r.stderr);
    let used = std::fs::metadata(&kept).unwrap().modified().unwrap();
    assert!(used > long_ago + std::time::Duration::from_secs(1800));
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn a_store_written_before_packages_is_read_and_said_once() {
    let h = home("kept-old-store");
    let a = build(&h.join("a"), b"");
    assert_eq!(run_binary(&a, &h, &[]).code, 0);
    // As an earlier yardstick left it: no package in the records, the
    // binaries under the target's name alone.
    let binaries = h.join(".binaries");
    std::fs::rename(binaries.join(KEY), binaries.join("fixture")).unwrap();
    for name in ["base", "new"] {
        let path = folder(&h).join(name).join("binary.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let old = text.replace(",\"package\":\"yardstick-tests\"", "");
        assert_ne!(old, text);
        std::fs::write(&path, old).unwrap();
    }
    let b = build(&h.join("b"), b"\nFIXTURE_FACTOR=1");
    let r = run_binary(&b, &h, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains(LOCKSTEP_LINE), "{}", r.stdout);
    let why = "did not record the bench target's package";
    assert_eq!(r.stderr.matches(why).count(), 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("No change in performance detected."),
        "{}",
        r.stdout
    );
    // Saved with the package: the next run compares in lock-step.
    let record = std::fs::read_to_string(folder(&h).join("base").join("binary.json")).unwrap();
    assert!(
        record.contains("\"package\":\"yardstick-tests\""),
        "{record}"
    );
    let again = run_binary(&b, &h, &[]);
    assert!(again.stdout.contains(LOCKSTEP_LINE), "{}", again.stdout);
    let _ = std::fs::remove_dir_all(&h);
}

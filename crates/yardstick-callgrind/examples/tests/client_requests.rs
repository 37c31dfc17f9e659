//! The client requests (feature `client_requests`) issued by `cg-requests`:
//! inert natively, answered by Memcheck, Callgrind, DHAT, Helgrind and DRD
//! under Valgrind, and printing to Valgrind's log.
//! Without `valgrind` on PATH the Valgrind tests pass with a note, except
//! under `CI`, where they fail.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_cg-requests");

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

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run cg-requests");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn natively_every_request_returns_its_default() {
    let out = stdout(&mut Command::new(BIN));
    assert_eq!(out.trim(), "running_on_valgrind=0 errors=0 byte=1");
}

#[test]
fn memcheck_sees_the_unaddressable_byte() {
    if !have_valgrind() {
        return;
    }
    let out = stdout(Command::new("valgrind").args(["-q", "--tool=memcheck", BIN]));
    // One invalid read: the byte made unaddressable with make_mem_noaccess.
    assert_eq!(out.trim(), "running_on_valgrind=1 errors=1 byte=1");
}

#[test]
fn callgrind_dumps_a_labelled_part() {
    if !have_valgrind() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cg-requests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("callgrind.out");
    let flag = format!("--callgrind-out-file={}", file.display());
    let out = stdout(Command::new("valgrind").args(["-q", "--tool=callgrind", &flag, BIN]));
    assert_eq!(out.trim(), "running_on_valgrind=1 errors=0 byte=1");
    // dump_stats_at wrote a second part, named by its reason.
    let part = std::fs::read_to_string(dir.join("callgrind.out.1")).expect("the dumped part");
    assert!(
        part.contains("desc: Trigger: Client Request: after the invalid read"),
        "{part}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `cg-requests MODE` under `valgrind ARGS`; returns stdout and
/// Valgrind's messages (stderr).
fn under(args: &[&str], mode: &str) -> (String, String) {
    let out = Command::new("valgrind")
        .args(args)
        .args([BIN, mode])
        .output()
        .expect("run valgrind");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{o}\n{e}");
    (o, e)
}

#[test]
fn natively_the_other_tools_requests_do_nothing() {
    for (mode, expected) in [
        ("print", "nul_refused=true"),
        ("dhat", ""),
        ("helgrind", "errors_after_good=0 errors_after_bad=0"),
        (
            "drd",
            "valgrind_tid=0 drd_tid=0\nerrors_after_good=0 errors_after_bad=0",
        ),
    ] {
        assert_eq!(
            stdout(Command::new(BIN).arg(mode)).trim(),
            expected,
            "{mode}"
        );
    }
}

#[test]
fn valgrind_printf_writes_to_valgrinds_log() {
    if !have_valgrind() {
        return;
    }
    let (out, log) = under(&["-q", "--tool=memcheck"], "print");
    assert_eq!(out.trim(), "nul_refused=true");
    // Client messages are `**PID** text`; a `%` comes out as written.
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("**"))
        .map(|l| l.split_once("** ").map_or(l, |(_, text)| text))
        .collect();
    assert_eq!(
        lines,
        [
            "from the client: 42 100% %s",
            "with a backtrace",
            "unchecked 7"
        ],
        "{log}"
    );
    // The backtrace follows its message and names the caller's file.
    let after = &log[log.find("with a backtrace").expect("message")..];
    assert!(after.contains("cg-requests.rs"), "{log}");
}

#[test]
fn dhat_counts_ad_hoc_events() {
    if !have_valgrind() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("cg-requests-dhat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = format!("--dhat-out-file={}", dir.join("dhat.out").display());
    let (_, log) = under(&["--tool=dhat", "--mode=ad-hoc", &file], "dhat");
    // Two events of weight 5.
    assert!(log.contains("Total:     10 units in 2 events"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn helgrind_and_drd_follow_the_lock_annotations() {
    if !have_valgrind() {
        return;
    }
    // A lock annotated through its life is fine; releasing one never
    // created is one error, in both tools.
    let (out, log) = under(&["-q", "--tool=helgrind"], "helgrind");
    assert_eq!(
        out.trim(),
        "errors_after_good=0 errors_after_bad=1",
        "{log}"
    );
    let (out, log) = under(&["-q", "--tool=drd"], "drd");
    // The main thread is thread 1 for Valgrind's core and for DRD.
    assert_eq!(
        out.trim(),
        "valgrind_tid=1 drd_tid=1\nerrors_after_good=0 errors_after_bad=1",
        "{log}"
    );
    assert!(log.contains("Not a reader-writer lock"), "{log}");
}

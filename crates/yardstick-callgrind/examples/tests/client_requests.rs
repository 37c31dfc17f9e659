//! The client requests (feature `client_requests`) issued by `cg-requests`:
//! inert natively, answered by Memcheck and Callgrind under Valgrind.
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

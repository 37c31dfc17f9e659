//! Killing `cargo yardstick bench` ends cargo and the bench binary too.

#![cfg(unix)]

mod common;
use common::bin;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Whether `pid` has ended (gone, or a zombie nobody reaped yet).
fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_terminated_bench_ends_its_children() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    // A fake cargo whose "bench binary" (a sleep) outlives it unless
    // signalled; it records the sleep's pid.
    let cargo = h.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\ncase \"$*\" in *--list*) exit 0;; esac\nsleep 300 &\necho $! > \"$PID_FILE\"\nwait\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let pid_file = h.join("pid");
    let mut parent = bin()
        .args(["yardstick", "bench", "--home"])
        .arg(h)
        .env("CARGO", &cargo)
        .env("PID_FILE", &pid_file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let pid = loop {
        if let Some(p) = std::fs::read_to_string(&pid_file)
            .ok()
            .filter(|p| p.ends_with('\n'))
        {
            break p.trim().to_owned();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the fake cargo never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // SIGTERM, as a CI runner's cancel or `kill` sends.
    let rc = unsafe { libc::kill(parent.id() as i32, libc::SIGTERM) };
    assert_eq!(rc, 0);
    parent.wait().unwrap();
    let start = Instant::now();
    while !ended(&pid) {
        if start.elapsed() > Duration::from_secs(30) {
            unsafe { libc::kill(pid.parse().unwrap(), libc::SIGKILL) };
            panic!("the bench process {pid} outlived cargo yardstick");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

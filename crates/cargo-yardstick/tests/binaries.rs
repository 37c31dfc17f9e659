//! `cargo yardstick binaries --prune | --remove-all` while a bench runs:
//! the binary a run measures (it holds a shared lock on it, as the
//! harness does) stays; the others go.

mod common;

use common::{run, stdout};

#[cfg(unix)]
#[test]
fn prune_and_remove_all_leave_the_binary_a_running_bench_holds() {
    use std::os::fd::AsRawFd;
    let home = std::env::temp_dir().join(format!("ys-binaries-locks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let dir = home.join(".binaries").join("pkg.bench");
    std::fs::create_dir_all(&dir).unwrap();
    // Named by no saved folder: the retention rule removes both.
    let (held, free) = (
        dir.join("0000000000000001-1"),
        dir.join("0000000000000002-1"),
    );
    std::fs::write(&held, b"a").unwrap();
    std::fs::write(&free, b"b").unwrap();
    let lock = std::fs::File::open(&held).unwrap();
    // SAFETY: the descriptor is open; the lock goes when it is closed.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_SH) }, 0);

    let pruned = run(&home, &["binaries", "--prune"]);
    assert!(pruned.status.success());
    assert_eq!(stdout(&pruned), "pruned 1 kept bench binary (0.0 MB)\n");
    assert!(held.exists() && !free.exists());

    std::fs::write(&free, b"b").unwrap();
    let removed = run(&home, &["binaries", "--remove-all"]);
    assert_eq!(
        stdout(&removed),
        "removed 1 kept bench binary (0.0 MB)\n\
         1 kept bench binary in use by a running bench stays (removed by a later clean-up)\n"
    );
    assert!(held.exists() && !free.exists());

    // The run ends: its binary goes with the next clean-up.
    drop(lock);
    let removed = run(&home, &["binaries", "--remove-all"]);
    assert_eq!(stdout(&removed), "removed 1 kept bench binary (0.0 MB)\n");
    assert!(!held.exists());
    std::fs::remove_dir_all(&home).unwrap();
}

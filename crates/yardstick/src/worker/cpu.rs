//! One CPU for the lock-step workers.
//!
//! The lock-step engine alternates two processes in rounds of 2 ms: while
//! one measures, the other sleeps on its pipe. Left to the scheduler, the
//! next round wakes on whichever CPU is free: one that was idle (on a
//! virtual machine, a virtual CPU the host may have parked) or one whose
//! caches hold another process's data. Written out round by round on a
//! 2-CPU cloud VM (crc32fast's 26 benchmarks, ten runs unpinned, eight
//! pinned), each side's rounds of the same work spread by 13.2 % unpinned
//! and 3.8 % with every worker on one CPU, and each pair's median ratio by
//! 7.6 % and 1.1 %: one CPU runs one round after the other and never idles
//! between them. The parent and everything else keep the other CPUs.

use std::process::Command;

/// The CPU the lock-step workers run on: the last one this process may run
/// on, when it may run on two or more (CPU 0 takes most interrupts); `None`
/// with one, off Linux, or with `YARDSTICK_LOCKSTEP_PIN=0` (hidden, for
/// measuring the difference).
#[must_use]
pub fn measuring_cpu() -> Option<usize> {
    if std::env::var_os("YARDSTICK_LOCKSTEP_PIN").is_some_and(|v| v == "0") {
        return None;
    }
    allowed()
        .filter(|cpus| cpus.len() >= 2)
        .and_then(|cpus| cpus.last().copied())
}

#[cfg(target_os = "linux")]
fn allowed() -> Option<Vec<usize>> {
    // SAFETY: `set` is a plain bit set the call fills; its size is passed.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        set
    };
    let n = libc::CPU_SETSIZE as usize;
    // SAFETY: `c` is below the set's size.
    Some(
        (0..n)
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect(),
    )
}

#[cfg(not(target_os = "linux"))]
fn allowed() -> Option<Vec<usize>> {
    None
}

/// The CPUs this process may run on other than `measuring`: where the
/// next worker pair's setup runs while the current pair measures (the
/// engine's `prepare`). Empty with one CPU or off Linux.
#[must_use]
pub fn spare_cpus(measuring: usize) -> Vec<usize> {
    allowed()
        .unwrap_or_default()
        .into_iter()
        .filter(|&c| c != measuring)
        .collect()
}

/// Starts `command`'s process on `cpus` alone. CPUs it may not use (the
/// call fails) leave it where the scheduler puts it.
pub fn pin(command: &mut Command, cpus: &[usize]) {
    #[cfg(target_os = "linux")]
    {
        let set = cpu_set(cpus);
        // SAFETY: the closure runs in the child between fork and exec and
        // only makes one system call on a value filled before the fork.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(command, move || {
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (command, cpus);
}

/// Moves every thread of the running process `pid` to `cpus` (a thread it
/// starts later inherits its creator's); whether all of them moved.
#[must_use]
pub fn move_process(pid: u32, cpus: &[usize]) -> bool {
    #[cfg(target_os = "linux")]
    {
        let set = cpu_set(cpus);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return false;
        };
        let mut all = true;
        for task in tasks.flatten() {
            let Some(tid) = task
                .file_name()
                .to_str()
                .and_then(|t| t.parse::<i32>().ok())
            else {
                continue;
            };
            // SAFETY: `set` is a filled bit set whose size is passed.
            let done = unsafe {
                libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set)
            };
            all &= done == 0;
        }
        all
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, cpus);
        false
    }
}

#[cfg(target_os = "linux")]
fn cpu_set(cpus: &[usize]) -> libc::cpu_set_t {
    // SAFETY: an all-zero bit set is valid, and every CPU set is below the
    // set's size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        set
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_child_runs_on_that_cpu_alone() {
        let Some(cpu) = measuring_cpu() else {
            eprintln!("skipped: this process may run on one CPU only");
            return;
        };
        // The child's own view of where it may run: /proc/self/status.
        let mut c = Command::new("grep");
        c.args(["Cpus_allowed_list", "/proc/self/status"]);
        pin(&mut c, &[cpu]);
        let out = c.output().expect("grep runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            text.split_whitespace().last(),
            Some(cpu.to_string().as_str()),
            "{text}"
        );
    }

    #[test]
    fn the_measuring_cpu_is_the_last_allowed() {
        let cpus = allowed().expect("sched_getaffinity works on Linux");
        assert!(!cpus.is_empty());
        if cpus.len() >= 2 && std::env::var_os("YARDSTICK_LOCKSTEP_PIN").is_none() {
            assert_eq!(measuring_cpu(), cpus.last().copied());
        }
    }

    #[test]
    fn a_running_process_moves_with_its_threads() {
        let Some(cpu) = measuring_cpu() else {
            eprintln!("skipped: this process may run on one CPU only");
            return;
        };
        let spare = spare_cpus(cpu);
        assert!(!spare.contains(&cpu) && !spare.is_empty());
        let mut c = Command::new("sleep");
        c.arg("10");
        pin(&mut c, &spare);
        let mut child = c.spawn().expect("sleep starts");
        let allowed = |pid: u32| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
            let line = status
                .lines()
                .find(|l| l.starts_with("Cpus_allowed_list"))
                .unwrap();
            line.split_whitespace().last().unwrap().to_owned()
        };
        let moved = move_process(child.id(), &[cpu]);
        let now = allowed(child.id());
        let _ = child.kill();
        let _ = child.wait();
        assert!(moved);
        assert_eq!(now, cpu.to_string());
        assert!(
            !move_process(child.id(), &[cpu]),
            "a reaped process is gone"
        );
    }
}

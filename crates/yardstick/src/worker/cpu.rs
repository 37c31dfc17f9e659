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

/// Starts `command`'s process on `cpu` alone. A CPU it may not use (the
/// call fails) leaves it where the scheduler puts it.
pub fn pin(command: &mut Command, cpu: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: the closure runs in the child between fork and exec and only
    // fills a stack value and makes one system call.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
            Ok(())
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (command, cpu);
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
        pin(&mut c, cpu);
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
}

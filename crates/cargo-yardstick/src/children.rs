//! Child processes that end with us. `cargo yardstick bench` runs cargo,
//! which runs the bench binary; killing `cargo yardstick` used to leave
//! both running. The child now gets a process group of its own, and
//! SIGINT, SIGTERM and SIGHUP sent to us are forwarded to that whole group
//! before we end with the same signal. (SIGKILL cannot be caught; on Linux
//! cargo is then sent SIGTERM by the kernel, as its parent died, and a
//! yardstick bench binary likewise when cargo dies.)

use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};

/// The process group signals are forwarded to; 0 for none.
static GROUP: AtomicI32 = AtomicI32::new(0);

const FORWARDED: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Makes `cmd` start a process group of its own (whose id is its pid).
pub fn own_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    // The bench binary (cargo's child) ends with cargo when it sees this
    // (yardstick's `supervised` module): a SIGKILL of us ends both.
    cmd.env("YARDSTICK_SUPERVISOR_PID", std::process::id().to_string());
    #[cfg(target_os = "linux")]
    // SAFETY: prctl is async-signal-safe, as pre_exec requires.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
}

/// Forwards the terminating signals to the process group `pgid` (a child
/// started with [`own_group`]) until [`stop_forwarding`].
pub fn forward_signals(pgid: u32) {
    GROUP.store(i32::try_from(pgid).unwrap_or(0), Ordering::SeqCst);
    for sig in FORWARDED {
        // SAFETY: the handler only calls async-signal-safe functions.
        unsafe {
            libc::signal(sig, handler as extern "C" fn(i32) as libc::sighandler_t);
        }
    }
}

/// Restores the default handling of the forwarded signals.
pub fn stop_forwarding() {
    GROUP.store(0, Ordering::SeqCst);
    for sig in FORWARDED {
        // SAFETY: restoring the default disposition.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
}

extern "C" fn handler(sig: i32) {
    let group = GROUP.load(Ordering::SeqCst);
    // SAFETY: kill, signal and raise are async-signal-safe.
    unsafe {
        if group > 0 {
            libc::kill(-group, sig);
        }
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

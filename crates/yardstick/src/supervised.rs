//! A bench binary that ends with `cargo yardstick`. `cargo yardstick bench`
//! runs cargo, which runs this binary; when `cargo yardstick` is killed
//! with SIGKILL nothing can be forwarded, and cargo (told by the kernel, as
//! `cargo yardstick` sets up) dies without ending its child. So
//! `cargo yardstick` names itself in `YARDSTICK_SUPERVISOR_PID`, and a
//! binary started under it asks the kernel for SIGTERM when its parent (cargo)
//! dies, and ends at once if the supervisor is already gone.

/// The variable `cargo yardstick` sets to its process id.
pub(crate) const VARIABLE: &str = "YARDSTICK_SUPERVISOR_PID";

/// Ties this process's life to its parent's when run under `cargo
/// yardstick`. The variable is then removed, so processes this binary
/// starts (its workers) keep their own arrangements.
pub(crate) fn die_with_supervisor() {
    let Some(pid) = std::env::var(VARIABLE)
        .ok()
        .and_then(|v| v.parse::<i32>().ok())
        .filter(|&p| p > 0)
    else {
        return;
    };
    std::env::remove_var(VARIABLE);
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
        // The supervisor died before the line above: nobody is left to
        // tell us, so end now.
        if libc::kill(pid, 0) != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
        {
            std::process::exit(143);
        }
    }
}

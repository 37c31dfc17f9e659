//! One writer at a time per home directory. Each benchmark's save (check
//! the folder's owner, move an unreadable baseline aside, replace `new/`,
//! `change/` and the baseline) holds `<home>/.yardstick.lock`, so that runs
//! writing into one home at once never interleave those steps: without it,
//! one run could move aside as "unreadable" the baseline another had just
//! saved, or compare with a folder another is replacing. The lock is the
//! system's (`flock`): a killed holder releases it, so none is ever stale.

use std::fs;
use std::path::Path;

use super::StoreError;

/// The lock file's name in the home directory (hidden: no benchmark's
/// folder begins with a dot).
pub(crate) const LOCK_FILE: &str = ".yardstick.lock";

/// Holds the home's lock until dropped.
#[derive(Debug)]
pub(crate) struct HomeLock {
    _file: fs::File,
}

impl HomeLock {
    /// Waits for the home's lock. Creates the home directory.
    ///
    /// # Errors
    ///
    /// When the home cannot be created or the lock file opened (an
    /// unwritable home), or the system refuses the lock.
    pub(crate) fn acquire(home: &Path) -> Result<HomeLock, StoreError> {
        let path = home.join(LOCK_FILE);
        let fail = |e: std::io::Error| StoreError::io(&path, &e);
        fs::create_dir_all(home).map_err(fail)?;
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(fail)?;
        lock(&file).map_err(fail)?;
        Ok(HomeLock { _file: file })
    }
}

/// Whether the home can take this run's results, asked once per process:
/// an unwritable home is one line and a failed run, not a warning for
/// every file of every benchmark.
///
/// # Errors
///
/// The line to print: the home, the reason, and what to do.
pub(crate) fn check_writable_once(home: &Path) -> Result<(), String> {
    static CHECKED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    CHECKED
        .get_or_init(|| {
            HomeLock::acquire(home).map(drop).map_err(|e| {
                format!(
                    "cannot save results in the home directory {} ({}); choose another with \
                     --home or YARDSTICK_HOME, or measure without saving (--discard-baseline)",
                    home.display(),
                    e.problem
                )
            })
        })
        .clone()
}

#[cfg(unix)]
fn lock(file: &fs::File) -> std::io::Result<()> {
    flock(file, libc::LOCK_EX)
}

/// Takes `file`'s shared lock, held until it is closed: a kept bench binary
/// a run measures (see `binaries`), so that another run's clean-up leaves
/// it alone.
#[cfg(unix)]
pub(crate) fn lock_shared(file: &fs::File) -> std::io::Result<()> {
    flock(file, libc::LOCK_SH)
}

/// Removes the file at `path` unless some process holds a lock on it (a
/// run measuring it holds a shared one); says whether it did. The removal
/// happens under an exclusive lock, so a run cannot start using the file
/// between the check and the removal.
#[cfg(unix)]
pub(crate) fn remove_unless_locked(path: &Path) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    flock(&file, libc::LOCK_EX | libc::LOCK_NB).is_ok() && fs::remove_file(path).is_ok()
}

#[cfg(unix)]
fn flock(file: &fs::File, op: libc::c_int) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: the descriptor is open for the duration of the call; the
        // lock goes with it when the file is closed.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Elsewhere runs into one home are not serialised; each folder is still
/// replaced as one unit.
#[cfg(not(unix))]
fn lock(_: &fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn lock_shared(_: &fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Elsewhere a kept binary is never known to be in use (and a running
/// program's file cannot be removed anyway).
#[cfg(not(unix))]
pub(crate) fn remove_unless_locked(path: &Path) -> bool {
    fs::remove_file(path).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn holders_take_turns() {
        let home = std::env::temp_dir().join(format!("yardstick-lock-{}", std::process::id()));
        let _ = fs::remove_dir_all(&home);
        let inside = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (home, inside) = (home.clone(), Arc::clone(&inside));
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _held = HomeLock::acquire(&home).unwrap();
                        // Another holder at the same time would see 2.
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn an_unwritable_home_is_an_error_naming_the_lock() {
        let e = HomeLock::acquire(Path::new("/proc/yardstick-no-such-home")).unwrap_err();
        assert!(e.to_string().contains(LOCK_FILE), "{e}");
    }
}

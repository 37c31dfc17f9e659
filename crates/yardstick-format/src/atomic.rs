//! Writing files other tools read while we write them, for every writer of
//! the workspace: a file is written whole or not at all, and a folder of
//! files (one benchmark's run) is replaced as one unit, so a reader never
//! sees half a file nor files of two runs mixed.
//!
//! Temporaries are named `.<name>.<pid>.<n>.tmp` (and `.old` for a folder
//! being replaced) next to their target; those of a process that no longer
//! runs (killed mid-write) are cleaned by the next write there.
//!
//! No file is flushed to disk as it is written: a flush costs a journal
//! commit (4–20 ms each, and a benchmark saves five files), which cost more
//! than measuring a quick benchmark. It is not needed for what a kill can
//! do: a killed process's writes are in the kernel's cache and every rename
//! is atomic there, so a kill leaves the old file or folder or the new one.
//! Only a crash of the whole system can lose cached writes; for that, a
//! writer calls [`sync_written`] once at the end of its run, after which
//! everything it wrote is on disk. A system crash during a run can at worst
//! leave the folders that run replaced with empty files, which readers
//! report as unreadable (a warning; the folder is moved aside before it is
//! saved over), never a mix of two runs.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A folder this process wrote into since the last [`sync_written`], to
/// name the file system to flush.
static WRITTEN: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

fn note_written(dir: &Path) {
    if let Ok(mut w) = WRITTEN.lock() {
        if w.is_none() {
            *w = Some(dir.to_owned());
        }
    }
}

/// Flushes to disk what this process wrote through this module, once: the
/// end of a run calls it so that a system crash after the run loses
/// nothing. Does nothing when nothing was written.
///
/// # Errors
///
/// The I/O error of the flush.
pub fn sync_written() -> io::Result<()> {
    let dir = WRITTEN.lock().ok().and_then(|mut w| w.take());
    // The folder may have gone since (a temporary one); any ancestor names
    // the same file system, or a parent of it.
    match dir
        .as_deref()
        .and_then(|d| d.ancestors().find(|a| a.is_dir()))
    {
        Some(dir) => sync_file_system(dir),
        None => Ok(()),
    }
}

/// One flush of the file system holding `dir` (Linux's `syncfs`: one
/// journal commit for all the files, where one flush per file costs one
/// commit each).
#[cfg(target_os = "linux")]
fn sync_file_system(dir: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    extern "C" {
        fn syncfs(fd: i32) -> i32;
    }
    let f = fs::File::open(dir)?;
    // SAFETY: the descriptor is open for the duration of the call.
    if unsafe { syncfs(f.as_raw_fd()) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Other Unixes: `sync`, which flushes every file system.
#[cfg(all(unix, not(target_os = "linux")))]
fn sync_file_system(_: &Path) -> io::Result<()> {
    extern "C" {
        fn sync();
    }
    // SAFETY: no arguments, no failure.
    unsafe { sync() };
    Ok(())
}

/// Elsewhere the system writes its cache out in its own time.
#[cfg(not(unix))]
fn sync_file_system(_: &Path) -> io::Result<()> {
    Ok(())
}

/// A fresh temporary path next to `target`, with the given suffix.
fn temporary(target: &Path, suffix: &str) -> PathBuf {
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.{}.{n}.{suffix}", std::process::id()))
}

/// Writes `bytes` to `path` through a temporary file in the same folder
/// and a rename. Creates the folder. On failure no temporary is left
/// behind.
///
/// # Errors
///
/// The I/O error of creating the folder, writing or renaming.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, false)
}

/// [`write_file`] for a program: the file is executable (on Unix) before
/// it appears under its name, so no one can find it and fail to start it.
///
/// # Errors
///
/// As [`write_file`].
pub fn write_executable(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, true)
}

fn write_with(path: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    clean_temporaries(dir);
    let tmp = temporary(path, "tmp");
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if executable {
            make_executable(&file)?;
        }
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    } else {
        note_written(dir);
    }
    result
}

#[cfg(unix)]
fn make_executable(file: &fs::File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn make_executable(_: &fs::File) -> io::Result<()> {
    Ok(())
}

/// Replaces the folder `dir` by one holding exactly `files` (name and
/// contents), as one unit: they are written to a temporary folder beside
/// it, which is then swapped in. A reader sees the old set or the new one;
/// a kill at any point leaves one of them (and temporaries the next write
/// cleans).
///
/// # Errors
///
/// The I/O error of writing or renaming; `dir` is then unchanged.
pub fn replace_dir(dir: &Path, files: &[(&str, &[u8])]) -> io::Result<()> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    clean_temporaries(parent);
    let stage = temporary(dir, "tmp");
    let staged = (|| {
        fs::create_dir(&stage)?;
        for (name, bytes) in files {
            fs::File::create(stage.join(name))?.write_all(bytes)?;
        }
        Ok(())
    })();
    if let Err(e) = staged.and_then(|()| swap_in(&stage, dir)) {
        let _ = fs::remove_dir_all(&stage);
        return Err(e);
    }
    note_written(parent);
    Ok(())
}

/// Moves the folder `stage` to `dir`, replacing whatever `dir` held.
fn swap_in(stage: &Path, dir: &Path) -> io::Result<()> {
    // Nothing there yet: a rename is atomic.
    if !dir.exists() && fs::rename(stage, dir).is_ok() {
        return Ok(());
    }
    if exchange(stage, dir)? {
        // `stage` now holds the old folder.
        let _ = fs::remove_dir_all(stage);
        return Ok(());
    }
    // No atomic exchange here: move the old folder aside first. A kill
    // between the two renames leaves only the `.old` folder, which the
    // next write puts back (see clean_temporaries).
    let old = temporary(dir, "old");
    fs::rename(dir, &old)?;
    if let Err(e) = fs::rename(stage, dir) {
        let _ = fs::rename(&old, dir);
        return Err(e);
    }
    let _ = fs::remove_dir_all(&old);
    Ok(())
}

/// Swaps two paths atomically (Linux's `renameat2(RENAME_EXCHANGE)`).
/// `Ok(false)` when the system or file system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    const AT_FDCWD: i32 = -100;
    const RENAME_EXCHANGE: u32 = 2;
    extern "C" {
        fn renameat2(
            olddirfd: i32,
            old: *const i8,
            newdirfd: i32,
            new: *const i8,
            flags: u32,
        ) -> i32;
    }
    let to_c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))
    };
    let (ca, cb) = (to_c(a)?, to_c(b)?);
    // SAFETY: both are valid NUL-terminated paths that outlive the call.
    let rc = unsafe {
        renameat2(
            AT_FDCWD,
            ca.as_ptr(),
            AT_FDCWD,
            cb.as_ptr(),
            RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    // EINVAL: the file system cannot exchange; ENOSYS: the kernel cannot.
    match e.raw_os_error() {
        Some(22 | 38) => Ok(false),
        _ => Err(e),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<bool> {
    Ok(false)
}

/// Whether `name` is one of our temporaries, and the id of the process
/// that made it: `.<name>.<pid>.<n>.tmp` or `.old`.
fn temporary_owner(name: &str) -> Option<(u32, bool)> {
    let (rest, old) = if let Some(r) = name.strip_suffix(".tmp") {
        (r, false)
    } else {
        (name.strip_suffix(".old")?, true)
    };
    if !name.starts_with('.') {
        return None;
    }
    let mut parts = rest.rsplit('.');
    parts.next()?.parse::<u64>().ok()?;
    let pid = parts.next()?.parse().ok()?;
    Some((pid, old))
}

/// Whether process `pid` still runs. Where this cannot be told, a
/// temporary counts as abandoned after an hour.
fn alive(pid: u32, path: &Path) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .map_or(true, |age| age.as_secs() < 3600)
}

/// Removes the temporaries in `dir` that a process which no longer runs
/// left (killed mid-write). An `.old` folder whose target is missing (a
/// kill between the two renames of a replacement) is put back instead.
pub fn clean_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, old)) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        let path = entry.path();
        if alive(pid, &path) {
            continue;
        }
        if old {
            let target = name.to_str().and_then(|n| {
                let n = n.strip_prefix('.')?;
                let cut = n.rsplitn(4, '.').nth(3)?;
                Some(dir.join(cut))
            });
            if let Some(t) = target.filter(|t| !t.exists()) {
                if fs::rename(&path, &t).is_ok() {
                    continue;
                }
            }
        }
        let _ = if path.is_dir() {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tempdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("yardstick-atomic-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_file_is_replaced_and_no_temporary_is_left() {
        let d = tempdir("file");
        let p = d.join("a").join("x.json");
        write_file(&p, b"one").unwrap();
        write_file(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(names(&d.join("a")), ["x.json"]);
        assert!(write_file(&p.join("under-a-file"), b"x").is_err());
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn one_flush_covers_what_was_written() {
        let d = tempdir("sync");
        write_file(&d.join("x"), b"1").unwrap();
        assert!(WRITTEN.lock().unwrap().is_some());
        sync_written().unwrap();
        sync_written().unwrap();
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_folder_is_replaced_as_one_unit() {
        let d = tempdir("dir");
        let new = d.join("new");
        replace_dir(&new, &[("a", b"1"), ("b", b"1"), ("stale", b"1")]).unwrap();
        replace_dir(&new, &[("a", b"2"), ("b", b"2")]).unwrap();
        assert_eq!(names(&new), ["a", "b"]);
        assert_eq!(fs::read(new.join("a")).unwrap(), b"2");
        assert_eq!(names(&d), ["new"]);
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn abandoned_temporaries_are_cleaned_and_a_lost_folder_put_back() {
        let d = tempdir("clean");
        // PID 0 is never a user process, so these are abandoned (on Linux;
        // elsewhere they are young, and kept).
        fs::create_dir_all(d.join(".new.0.3.tmp")).unwrap();
        fs::write(d.join(".sample.json.0.1.tmp"), b"half").unwrap();
        fs::create_dir_all(d.join(".base.0.7.old")).unwrap();
        fs::write(d.join(".base.0.7.old").join("sample.json"), b"{}").unwrap();
        let mine = format!(".x.{}.1.tmp", std::process::id());
        fs::write(d.join(&mine), b"in progress").unwrap();
        fs::write(d.join(".hidden"), b"not ours").unwrap();
        clean_temporaries(&d);
        if cfg!(target_os = "linux") {
            assert_eq!(
                names(&d),
                vec![".hidden".to_owned(), mine, "base".to_owned()]
            );
            assert_eq!(fs::read(d.join("base/sample.json")).unwrap(), b"{}");
        }
        fs::remove_dir_all(d).unwrap();
    }
}

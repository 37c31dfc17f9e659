//! The bench binary kept with the results it saved, so that the next run
//! can measure that very binary in lock-step with its own
//! (`runner::lockstep`); the formats and the retention rule are
//! `yardstick_format::binary`'s.
//!
//! Each saved folder (`new/` and the baseline) gets a `binary.json` naming
//! the bench target (its package and its name) and the binary's content
//! hash; the binary itself is kept once under
//! `<home>/.binaries/<package>.<target>/<hash>-<size>`. A run that
//! measures a kept binary holds a shared lock on it; clean-up (when a run
//! keeps its binary, at the end of every saving run, and
//! `cargo yardstick binaries --prune`) removes a binary only under an
//! exclusive lock, so two runs at once never remove one the other uses.
//!
//! A kept binary is run, so it is trusted only as ssh trusts a key file:
//! the file and the folders holding it must be this user's and writable by
//! no one else (`trusted`), and its content must still be what its name
//! says (`verified`), on both sides of a comparison.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use yardstick_format::binary::{self, BinaryFile};

mod layouts;
pub(crate) use layouts::pair as paired_layouts;

/// Binaries kept per bench target: the most recently used that baselines
/// name. Four cover `base`, `new` and two named baselines; a guide-sized
/// bench binary is 5–15 MB, so a target costs at most about 60 MB.
pub const KEEP_PER_TARGET: usize = 4;

/// Kept binaries per bench target that keep their code layouts: the most
/// recently used two are the last run's and the one before (the default
/// flow compares each run with the one before); an older named baseline
/// is then compared on one layout of each side.
pub const KEEP_LAYOUTS_PER_TARGET: usize = 2;

/// The bench target this binary was built for: its file name without
/// cargo's `-<16 hex digits>`, made safe for a folder name.
pub(crate) fn this_target() -> &'static str {
    static TARGET: OnceLock<String> = OnceLock::new();
    TARGET.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let stem = exe
            .as_deref()
            .and_then(Path::file_stem)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        binary::target_name(&stem)
    })
}

/// The package named when the bench crate was compiled (`criterion_main!`
/// expands `CARGO_PKG_NAME` in the user's crate).
static COMPILED_PACKAGE: OnceLock<&'static str> = OnceLock::new();

/// Records the package the bench crate was compiled in; the first call
/// wins. Called by `criterion_main!` before anything is measured.
pub(crate) fn set_compiled_package(name: &'static str) {
    let _ = COMPILED_PACKAGE.set(name);
}

/// The package of this bench target, when known: compiled in by
/// `criterion_main!`, else `CARGO_PKG_NAME` of the environment, which
/// cargo sets when it runs a bench (`cargo bench`, `cargo test`); a binary
/// of a hand-written `main` or divan's started outside cargo has none.
pub(crate) fn this_package() -> Option<&'static str> {
    static PACKAGE: OnceLock<Option<String>> = OnceLock::new();
    PACKAGE
        .get_or_init(|| {
            let compiled = COMPILED_PACKAGE.get().map(|s| (*s).to_owned());
            let name = compiled.or_else(|| std::env::var("CARGO_PKG_NAME").ok())?;
            binary::package_name(&name)
        })
        .as_deref()
}

/// This bench target's folder name in the home (`<package>.<target>`).
pub(crate) fn this_key() -> String {
    binary::store_key(this_package(), this_target())
}

/// A bench target as a user reads it: `bench target t of package p`.
pub(crate) fn describe(package: Option<&str>, target: &str) -> String {
    match package {
        Some(p) => format!("bench target {target} of package {p}"),
        None => format!("bench target {target}"),
    }
}

/// Whether a folder `record` names was written by another bench target
/// than this one: another target name, or another package when both are
/// known. A record without a package (an earlier yardstick's) is this
/// target's when the names match; its binary is not compared with
/// ([`lockstep_refusal`]).
pub(crate) fn is_other_target(record: &BinaryFile) -> bool {
    record.target != this_target()
        || matches!((record.package.as_deref(), this_package()), (Some(a), Some(b)) if a != b)
}

/// Why the binary `record` names cannot be measured in lock-step with this
/// one although it is this target's: one of the two packages is unknown,
/// so it may be another package's target of the same name.
pub(crate) fn lockstep_refusal(record: &BinaryFile) -> Option<String> {
    match (record.package.as_deref(), this_package()) {
        (Some(_), Some(_)) => None,
        (None, Some(_)) => Some(
            "the baseline was saved by an earlier yardstick, which did not record the bench \
             target's package (its binary may be another package's target of the same name); \
             this run records it"
                .into(),
        ),
        (_, None) => Some(
            "this binary's package is unknown (started outside cargo, and its main is not \
             criterion_main!), so the baseline's binary may be another package's target of the \
             same name"
                .into(),
        ),
    }
}

/// The record of this run's binary for the folders it saves, the binary
/// (and the code layouts its build linked beside it) kept in `home` first,
/// once per process. `None` when it cannot be kept (said once): the
/// folders are saved without it, and the next run compares with their
/// numbers.
pub(crate) fn this_record(home: &Path, measurement: &str) -> Option<BinaryFile> {
    static KEPT: OnceLock<Result<(String, Vec<String>), String>> = OnceLock::new();
    let kept = KEPT.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let key = this_key();
        let mut name = keep(home, &key, &exe)?;
        // Held for the run: another run's clean-up leaves it alone until
        // this one has saved folders naming it. That clean-up may have
        // removed it between its keeping and the lock (no folder named it
        // yet): kept again, it is there once held.
        if !hold(&binary::kept_path(home, &key, &name)) {
            name = keep(home, &key, &exe)?;
            hold(&binary::kept_path(home, &key, &name));
        }
        let layouts = layouts::keep(home, &key, &exe, &name).unwrap_or_else(|note| {
            if crate::output::first_time(&note) {
                crate::output::errln!("note: {note}");
            }
            Vec::new()
        });
        // Every run that keeps its binary applies the retention rule, not
        // only those whose `main` ends in `final_summary`.
        prune(home);
        Ok((name, layouts))
    });
    match kept {
        Ok((name, layouts)) => Some(BinaryFile {
            version: binary::VERSION,
            target: this_target().to_owned(),
            binary: name.clone(),
            protocol: yardstick_format::worker::PROTOCOL_VERSION,
            measurement: measurement.to_owned(),
            package: this_package().map(str::to_owned),
            layouts: layouts.clone(),
        }),
        Err(e) => {
            let note = format!("the bench binary is not kept with the results ({e}): the next run compares with their saved numbers");
            if crate::output::first_time(&note) {
                crate::output::errln!("warning: {note}");
            }
            None
        }
    }
}

/// Keeps the bench binary at `exe` under `home` unless a trusted copy
/// holding the same bytes is there already, and marks it used now (its
/// modification time, which the retention rule reads). Returns its name.
///
/// The kept file never shares an inode with `exe`: linkers (mold) and
/// `strip` rewrite their output in place, which would rewrite a hard link
/// too, so every rebuild would overwrite the baseline. It is a reflink
/// where the file system shares blocks (Btrfs, XFS; no extra space until
/// one side changes), else a copy.
///
/// # Errors
///
/// One line: the file that cannot be read or written, or the kept file in
/// the way that is not this user's.
fn keep(home: &Path, key: &str, exe: &Path) -> Result<String, String> {
    keep_as(home, key, exe, |name| name.to_owned())
}

/// Keeps the file at `exe` as [`keep`] does, under the name `named` gives
/// its content's name ([`binary::binary_name`]); returns the content's
/// name. A kept layout is named after its binary, not after itself, so its
/// record says what it must hold.
pub(super) fn keep_as(
    home: &Path,
    key: &str,
    exe: &Path,
    named: impl Fn(&str) -> String,
) -> Result<String, String> {
    let at = |p: &Path, e: io::Error| format!("{}: {e}", p.display());
    let mut source = fs::File::open(exe).map_err(|e| at(exe, e))?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut source, &mut bytes).map_err(|e| at(exe, e))?;
    let name = binary::binary_name(&bytes);
    let path = binary::kept_path(home, key, &named(&name));
    let dir = path.parent().unwrap_or(home);
    private_dir(dir).map_err(|e| at(dir, e))?;
    if fs::symlink_metadata(&path).is_ok() && verified_as(&path, &name).is_ok() {
        binary::mark_used(&path);
        return Ok(name);
    }
    // Absent, or not what its name says (an older build of the same size
    // in its place, a planted file): replaced whole by a rename.
    let tmp = dir.join(format!(".keep.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    let placed = place(&source, &bytes, &tmp).and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = placed {
        let _ = fs::remove_file(&tmp);
        return Err(at(&path, e));
    }
    Ok(name)
}

/// Writes `tmp` afresh, executable by its owner and writable by no one
/// else: a reflink of `source` where the file system allows, else `bytes`.
fn place(source: &fs::File, bytes: &[u8], tmp: &Path) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o755);
    let mut file = options.open(tmp)?;
    if !reflink(source, &file) {
        io::Write::write_all(&mut file, bytes)?;
    }
    Ok(())
}

/// Shares `from`'s blocks with the empty `to` (Linux's `FICLONE`); false
/// where the file system cannot (ext4, tmpfs, another file system).
#[cfg(target_os = "linux")]
fn reflink(from: &fs::File, to: &fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: both descriptors are open for the duration of the call; the
    // ioctl reads no memory of ours.
    unsafe { libc::ioctl(to.as_raw_fd(), libc::FICLONE, from.as_raw_fd()) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn reflink(_: &fs::File, _: &fs::File) -> bool {
    false
}

/// Creates `dir` (and the binaries' folder above it) when missing, writable
/// by this user alone: a folder others can write is one where they can
/// swap a binary, which [`trusted`] refuses. Those two folders hold only
/// kept binaries, so when they are this user's but writable by the group
/// (an earlier yardstick made them under a umask of 002) they are made
/// private; another user's are left as they are.
fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o755);
    builder.create(dir)?;
    #[cfg(unix)]
    for d in dir.ancestors().take(2) {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let meta = fs::metadata(d)?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        if meta.uid() == unsafe { libc::geteuid() } && meta.mode() & 0o022 != 0 {
            let private = fs::Permissions::from_mode(meta.mode() & 0o7755);
            fs::set_permissions(d, private)?;
        }
    }
    Ok(())
}

/// Whether a kept binary may be run at all: the file (not a link) and the
/// two folders holding it (`<key>/` and `.binaries/`) belong to this user
/// and no one else (group, others) can write them, the rule ssh applies
/// to its keys. Otherwise one line naming the file or folder: another user
/// (a shared `YARDSTICK_HOME`, a CI cache restored from another job) may
/// have planted it.
pub(crate) fn trusted(path: &Path) -> Result<(), String> {
    let link = fs::symlink_metadata(path)
        .map_err(|e| format!("{} cannot be read ({e})", path.display()))?;
    if link.file_type().is_symlink() {
        return Err(format!("{} is a symbolic link", path.display()));
    }
    let dirs = path.ancestors().skip(1).take(2);
    for p in std::iter::once(path).chain(dirs) {
        let meta = fs::metadata(p).map_err(|e| format!("{} cannot be read ({e})", p.display()))?;
        owned_and_private(p, &meta)?;
    }
    Ok(())
}

#[cfg(unix)]
fn owned_and_private(p: &Path, meta: &fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(format!(
            "{} belongs to another user (uid {}, this one {me})",
            p.display(),
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "{} can be written by other users (mode {:o})",
            p.display(),
            meta.mode() & 0o7777
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn owned_and_private(_: &Path, _: &fs::Metadata) -> Result<(), String> {
    Ok(())
}

/// Whether the kept binary at `path` may be run as the binary its name
/// names: [`trusted`], and its content still what its name says.
pub(crate) fn verified(path: &Path) -> Result<(), String> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    verified_as(path, name.as_deref().unwrap_or_default())
}

/// Whether the kept file at `path` may be run as the binary named `name`
/// ([`binary::binary_name`]): [`trusted`], and its content that name's.
pub(crate) fn verified_as(path: &Path, name: &str) -> Result<(), String> {
    trusted(path)?;
    match binary::holds(path, name) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "{} changed since it was kept (truncated or overwritten)",
            path.display()
        )),
        Err(e) => Err(format!("{} cannot be read ({e})", path.display())),
    }
}

/// Files this run holds a shared lock on, until it exits.
static HELD: Mutex<Vec<fs::File>> = Mutex::new(Vec::new());

/// `trusted` and `verified`: whether the kept binary at `path` may be
/// run, for `cargo yardstick explain` (outside semver).
///
/// # Errors
///
/// The one line saying why not.
pub fn trusted_and_verified(path: &Path) -> Result<(), String> {
    trusted(path).and_then(|()| verified(path))
}

/// Takes a shared lock on `path` for the rest of the run; whether the file
/// is still there once locked (a clean-up may have removed it just
/// before).
pub(crate) fn hold(path: &Path) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    if super::lock::lock_shared(&file).is_err() || !path.exists() {
        return false;
    }
    HELD.lock().unwrap_or_else(|e| e.into_inner()).push(file);
    true
}

/// The kept binary a saved folder names.
pub(crate) fn path_of(home: &Path, record: &BinaryFile) -> PathBuf {
    binary::kept_path(home, &record.key(), &record.binary)
}

/// The retention rule (binaries no folder names go, and those past
/// `KEEP_PER_TARGET` per target, least recently used first), never
/// removing one a run holds. Applied when a run keeps its binary, at the
/// end of a saving run, and by `cargo yardstick binaries --prune`.
pub fn prune(home: &Path) -> Vec<binary::Kept> {
    binary::prune(
        home,
        KEEP_PER_TARGET,
        KEEP_LAYOUTS_PER_TARGET,
        &super::lock::remove_unless_locked,
    )
}

/// Removes every kept binary no run holds (`cargo yardstick binaries
/// --remove-all`); those in use stay, and go at a later clean-up.
pub fn remove_all(home: &Path) -> Vec<binary::Kept> {
    binary::kept(home)
        .into_iter()
        .filter(|k| super::lock::remove_unless_locked(&k.path))
        .collect()
}

#[cfg(test)]
mod tests;

//! `<id>/<baseline>/binary.json`: which bench binary measured a saved
//! baseline, so that the next run can measure that very binary in
//! lock-step with its own. The binaries themselves are kept once each,
//! content-addressed, under the home's [`BINARIES_DIR`], in a folder per
//! bench target named by its [`store_key`]. Schema:
//! `schemas/binary.v1.json`.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The folder of the home directory that keeps the bench binaries (hidden:
/// no benchmark's folder begins with a dot).
pub const BINARIES_DIR: &str = ".binaries";

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct BinaryFile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The bench target that wrote the folder (its binary's name without
    /// cargo's hash): a run of another target with the same id neither
    /// compares with the folder nor overwrites it.
    pub target: String,
    /// The binary's content hash (16 hex digits) and size, its
    /// name under [`BINARIES_DIR`]`/<target>/`: `<hash>-<size>`.
    pub binary: String,
    /// The worker protocol the binary speaks
    /// ([`crate::worker::PROTOCOL_VERSION`]).
    pub protocol: u32,
    /// The measurement that measured it (`wall`, `cpu`, or a custom
    /// measurement's type name): a binary measuring another kind is not
    /// compared with.
    pub measurement: String,
    /// The package of the bench target (its `CARGO_PKG_NAME`, made safe
    /// by [`target_name`]'s rule): every package of a workspace may have a
    /// `benches/bench.rs`, so a target is its package and its name. `None`
    /// in files written before yardstick recorded it, and by a binary run
    /// outside cargo whose package is unknown; such a record is compared
    /// with by its saved numbers only (the package of its binary is
    /// unknown).
    pub package: Option<String>,
    /// The names (as [`BinaryFile::binary`]) of the binary's code layouts,
    /// kept beside it as `<binary>.layout1..` ([`crate::linked`]): empty
    /// when its build linked none.
    pub layouts: Vec<String>,
}

crate::json_object!(BinaryFile {
    version,
    target,
    binary,
    protocol,
    measurement (default),
    package (skip),
    layouts (skip),
});

impl BinaryFile {
    /// The file, when it is of this version and names a binary the way
    /// this crate names them.
    ///
    /// # Errors
    ///
    /// A sentence saying what is wrong.
    pub fn checked(self) -> Result<BinaryFile, String> {
        if self.version != VERSION {
            return Err(format!(
                "version {} (this yardstick reads {VERSION})",
                self.version
            ));
        }
        let package_ok = self.package.as_deref().map_or(true, is_target_name);
        let names_ok =
            is_binary_name(&self.binary) && self.layouts.iter().all(|l| is_binary_name(l));
        if !names_ok || !is_target_name(&self.target) || !package_ok {
            return Err("its target, package or binary name is not one yardstick writes".into());
        }
        Ok(self)
    }

    /// The folder of [`BINARIES_DIR`] its binary is kept in.
    #[must_use]
    pub fn key(&self) -> String {
        store_key(self.package.as_deref(), &self.target)
    }
}

/// The name of a bench target's folders in the home (its kept binaries,
/// its layout spread): `<package>.<target>`, or the target alone when the
/// package is unknown (as every store before the package was recorded).
/// Neither name holds a `.` ([`target_name`]'s rule), so two targets
/// never share a key.
#[must_use]
pub fn store_key(package: Option<&str>, target: &str) -> String {
    match package {
        Some(p) => format!("{p}.{target}"),
        None => target.to_owned(),
    }
}

/// What the name of a kept binary's build record adds to the binary's
/// (`<hash>-<size>.build.json`, beside it; the format is
/// [`crate::build`]'s).
pub const BUILD_RECORD_SUFFIX: &str = ".build.json";

/// The binary whose build record a file of a kept binaries' folder is,
/// when its name is one: a [binary name](is_binary_name) and
/// [`BUILD_RECORD_SUFFIX`].
#[must_use]
pub fn build_record_of(file_name: &str) -> Option<&str> {
    file_name
        .strip_suffix(BUILD_RECORD_SUFFIX)
        .filter(|b| is_binary_name(b))
}

/// Whether `name` is a [`store_key`]: one or two target names joined by a
/// `.` (so never `..`, nor a name that leaves the folder).
#[must_use]
pub fn is_store_key(name: &str) -> bool {
    match name.split_once('.') {
        Some((p, t)) => is_target_name(p) && is_target_name(t),
        None => is_target_name(name),
    }
}

/// Whether `name` is `<16 hex digits>-<decimal size>`: a name that cannot
/// reach outside the binaries' folder.
#[must_use]
pub fn is_binary_name(name: &str) -> bool {
    name.split_once('-').is_some_and(|(h, n)| {
        h.len() == 16
            && h.bytes().all(|b| b.is_ascii_hexdigit())
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether `name` can be a bench target's folder: letters, digits, `_`
/// and `-`, not empty.
#[must_use]
pub fn is_target_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A bench target's name from its binary's file stem (cargo's
/// `-<16 hex digits>` dropped), made safe for a folder name: the one rule
/// the harness, `ab` and `calibrate --layouts` name targets by.
#[must_use]
pub fn target_name(stem: &str) -> String {
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name
        }
        _ => stem,
    };
    safe_name(name)
}

/// A package's name (`CARGO_PKG_NAME`) made safe for a folder name by
/// [`target_name`]'s rule; `None` when empty.
#[must_use]
pub fn package_name(name: &str) -> Option<String> {
    (!name.is_empty()).then(|| safe_name(name))
}

fn safe_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "bench".to_owned()
    } else {
        safe
    }
}

/// The name [`BinaryFile::binary`] gives `bytes`: a hash of its content
/// and its size.
#[must_use]
pub fn binary_name(bytes: &[u8]) -> String {
    format!("{:016x}-{}", word_hash(bytes), bytes.len())
}

/// FNV-1a's steps over the content taken eight bytes at a time (the last
/// word padded with zeros): a bench binary built without optimisations is
/// 70 MB, and byte-wise FNV-1a took most of a second on it.
fn word_hash(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.chunks(8).fold(OFFSET, |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        (h ^ u64::from_le_bytes(word)).wrapping_mul(PRIME)
    })
}

/// Where binary `binary` of the bench target of [`store_key`] `key` is
/// kept under `home`.
#[must_use]
pub fn kept_path(home: &Path, key: &str, binary: &str) -> PathBuf {
    home.join(BINARIES_DIR).join(key).join(binary)
}

/// Whether the file at `path` still holds what its name says (its name is
/// its content's hash and size): a file truncated or rewritten since it
/// was kept, or another build put in its place, is not the binary named.
///
/// # Errors
///
/// The I/O error of reading it.
pub fn holds_its_name(path: &Path) -> io::Result<bool> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    holds(path, name.as_deref().unwrap_or_default())
}

/// Whether the file at `path` holds the bytes [`binary_name`] names
/// `name`: a kept layout, named after its binary, is checked against the
/// name its binary's record gives it.
///
/// # Errors
///
/// The I/O error of reading it.
pub fn holds(path: &Path, name: &str) -> io::Result<bool> {
    let bytes = fs::read(path)?;
    Ok(binary_name(&bytes) == name)
}

/// Sets a kept binary's modification time to now: the retention rule drops
/// the least recently used first, and a binary is used when it is kept and
/// each time a run measures it as a baseline's.
pub fn mark_used(path: &Path) {
    // Opened for reading: a binary some run is executing cannot be opened
    // for writing, and its owner may set its times without.
    if let Ok(f) = fs::File::open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// One kept binary.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// Its bench target's [`store_key`] (its folder).
    pub key: String,
    /// Its name ([`BinaryFile::binary`]).
    pub binary: String,
    /// Where it is.
    pub path: PathBuf,
    /// Its size in bytes, its kept layouts' included.
    pub bytes: u64,
    /// When it was last kept or measured.
    pub used: std::time::SystemTime,
    /// How many saved folders (`new/` and baselines) name it.
    pub references: usize,
}

/// Every binary kept under `home`, most recently used first within each
/// bench target, with the number of saved folders that name it.
#[must_use]
pub fn kept(home: &Path) -> Vec<Kept> {
    kept_named(home, &references(home))
}

fn kept_named(home: &Path, refs: &BTreeMap<(String, String), usize>) -> Vec<Kept> {
    let mut out = Vec::new();
    let root = home.join(BINARIES_DIR);
    for key in read_dir_names(&root) {
        if !is_store_key(&key) {
            continue;
        }
        for binary in read_dir_names(&root.join(&key)) {
            if !is_binary_name(&binary) {
                continue;
            }
            let path = kept_path(home, &key, &binary);
            let Ok(meta) = fs::metadata(&path) else {
                continue;
            };
            let named = (key.clone(), binary.clone());
            let layouts: u64 = layouts_beside(&path)
                .iter()
                .filter_map(|l| fs::metadata(l).ok())
                .map(|m| m.len())
                .sum();
            out.push(Kept {
                references: refs.get(&named).copied().unwrap_or(0),
                used: meta.modified().unwrap_or(std::time::UNIX_EPOCH),
                bytes: meta.len() + layouts,
                key: key.clone(),
                binary,
                path,
            });
        }
    }
    out.sort_by(|a, b| a.key.cmp(&b.key).then(b.used.cmp(&a.used)));
    out
}

fn read_dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort_unstable();
    names
}

/// How many `binary.json` files under `home` name each (key, binary).
fn references(home: &Path) -> BTreeMap<(String, String), usize> {
    let mut refs = BTreeMap::new();
    let mut stack = vec![(home.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        // Benchmark folders nest by the id's parts; 16 is far deeper than
        // any id and stops a loop of links.
        if depth > 16 {
            continue;
        }
        for name in read_dir_names(&dir) {
            let path = dir.join(&name);
            if name == "binary.json" {
                let file = fs::read(&path)
                    .ok()
                    .and_then(|b| crate::json::from_slice::<BinaryFile>(&b).ok());
                if let Some(f) = file {
                    *refs.entry((f.key(), f.binary)).or_insert(0) += 1;
                }
            } else if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                stack.push((path, depth + 1));
            }
        }
    }
    refs
}

/// The kept code layouts of the kept binary at `path`
/// (`<binary>.layout<K>` beside it), in no particular order.
#[must_use]
pub fn layouts_beside(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let name = name.to_string_lossy();
    read_dir_names(dir)
        .into_iter()
        .filter(|n| {
            n.strip_prefix(name.as_ref())
                .and_then(crate::linked::layout_number)
                .is_some()
        })
        .map(|n| dir.join(n))
        .collect()
}

/// The retention rule: of each target's kept binaries, those no saved
/// folder names go, and past `keep_per_target` the least recently used go
/// too (their baselines are then compared by their saved numbers, as on
/// another machine); past `keep_layouts` the code layouts of the least
/// recently used go (their comparisons then run on one layout of each
/// side), and layouts whose binary is gone go with it. `remove` removes a
/// binary and says whether it did: the harness's refuses a binary a run is
/// measuring (it holds a lock on it, which covers its layouts). Returns
/// the binaries removed. A binary's build record
/// ([`BUILD_RECORD_SUFFIX`]) stays while a folder names the binary,
/// even once the binary is gone (a comparison still names the build), and
/// goes with the last folder.
pub fn prune(
    home: &Path,
    keep_per_target: usize,
    keep_layouts: usize,
    remove: &dyn Fn(&Path) -> bool,
) -> Vec<Kept> {
    let refs = references(home);
    let mut removed = Vec::new();
    let mut kept_of_target = 0;
    let mut key = String::new();
    for k in kept_named(home, &refs) {
        if k.key != key {
            key.clone_from(&k.key);
            kept_of_target = 0;
            remove_orphan_layouts(&home.join(BINARIES_DIR).join(&key));
        }
        let wanted = k.references > 0 && kept_of_target < keep_per_target;
        if !wanted && remove(&k.path) {
            layouts_beside(&k.path)
                .iter()
                .for_each(|l| drop(fs::remove_file(l)));
            removed.push(k);
            continue;
        }
        if kept_of_target >= keep_layouts {
            layouts_beside(&k.path)
                .iter()
                .for_each(|l| drop(fs::remove_file(l)));
        }
        kept_of_target += 1;
    }
    prune_build_records(home, &refs);
    removed
}

/// Removes the layouts in `dir` whose binary is not there (removed by an
/// earlier clean-up between the two removals, or by hand).
fn remove_orphan_layouts(dir: &Path) {
    for name in read_dir_names(dir) {
        let Some((binary, k)) = name.split_once(".layout") else {
            continue;
        };
        let layout = crate::linked::layout_number(&format!(".layout{k}")).is_some();
        if layout && is_binary_name(binary) && !dir.join(binary).exists() {
            let _ = fs::remove_file(dir.join(&name));
        }
    }
}

/// Removes the build records whose binary is gone and that no saved folder
/// names. A record whose binary is still kept stays: the run that kept it
/// may not have saved the folders naming it yet.
fn prune_build_records(home: &Path, refs: &BTreeMap<(String, String), usize>) {
    let root = home.join(BINARIES_DIR);
    for key in read_dir_names(&root)
        .into_iter()
        .filter(|k| is_store_key(k))
    {
        for name in read_dir_names(&root.join(&key)) {
            let Some(binary) = build_record_of(&name) else {
                continue;
            };
            let named = refs.contains_key(&(key.clone(), binary.to_owned()));
            if !named && !root.join(&key).join(binary).exists() {
                let _ = fs::remove_file(root.join(&key).join(&name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_leave_the_folder() {
        assert!(is_binary_name("00ff00ff00ff00ff-123"));
        assert!(!is_binary_name("../../etc/passwd"));
        assert!(!is_binary_name("00ff00ff00ff00ff-12/3"));
        assert!(!is_binary_name("00ff00ff00ff00f-123"));
        assert!(is_target_name("getting_started"));
        assert!(!is_target_name(".."));
        assert!(!is_target_name(""));
        // One padded word: (offset ^ 0x61) · prime, by hand:
        // 0xcbf29ce484222325 ^ 0x61 = 0xcbf29ce484222344, times
        // 0x100000001b3 mod 2^64 = 0xaf63dc4c8601ec8c (FNV-1a of "a").
        assert_eq!(binary_name(b"a"), "af63dc4c8601ec8c-1");
        assert_ne!(binary_name(b"ab"), binary_name(b"ba"));
        assert!(is_store_key("alpha.bench"));
        assert!(is_store_key("bench"));
        assert!(!is_store_key("a.b.c"));
        assert!(!is_store_key(".bench"));
        assert!(!is_store_key("alpha."));
    }

    #[test]
    fn two_packages_targets_of_one_name_have_two_keys() {
        assert_eq!(store_key(Some("alpha"), "bench"), "alpha.bench");
        assert_eq!(store_key(Some("beta"), "bench"), "beta.bench");
        // Stores written before the package was recorded keep their folder.
        assert_eq!(store_key(None, "bench"), "bench");
        // No package or target name holds a dot, so keys never collide:
        // package `a.b` would otherwise meet package `a`, target `b.bench`.
        assert_eq!(package_name("a.b").as_deref(), Some("a_b"));
        assert_eq!(package_name(""), None);
        let f = BinaryFile {
            version: VERSION,
            target: "bench".into(),
            binary: "af63dc4c8601ec8c-1".into(),
            protocol: 1,
            measurement: "wall".into(),
            package: Some("alpha".into()),
            layouts: Vec::new(),
        };
        assert_eq!(f.key(), "alpha.bench");
        let text = crate::json::to_string(&f);
        assert!(text.ends_with(r#""package":"alpha"}"#), "{text}");
        let old = crate::json::to_string(&BinaryFile {
            package: None,
            ..f.clone()
        });
        assert!(!old.contains("package"), "{old}");
        let bad = BinaryFile {
            package: Some("../x".into()),
            ..f
        };
        assert!(bad.checked().is_err());
    }

    fn home(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("yardstick-binary-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn record(dir: &Path, target: &str, binary: &str) {
        let f = BinaryFile {
            version: VERSION,
            target: target.into(),
            binary: binary.into(),
            protocol: 1,
            measurement: "wall".into(),
            package: None,
            layouts: Vec::new(),
        };
        crate::atomic::write_file(
            &dir.join("binary.json"),
            crate::json::to_string(&f).as_bytes(),
        )
        .unwrap();
    }

    /// A kept binary as the harness keeps it.
    fn keep(home: &Path, key: &str, bytes: &[u8]) -> String {
        let name = binary_name(bytes);
        let path = kept_path(home, key, &name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
        name
    }

    #[test]
    fn a_binary_is_pruned_when_no_folder_names_it() {
        let h = home("prune");
        let one = keep(&h, "t", b"one");
        let two = keep(&h, "t", b"two!");
        let three = keep(&h, "t", b"three");
        record(&h.join("fib").join("base"), "t", &one);
        record(&h.join("group").join("f").join("new"), "t", &one);
        record(&h.join("x").join("base"), "t", &two);
        let counts: Vec<(String, usize)> = kept(&h)
            .into_iter()
            .map(|k| (k.binary, k.references))
            .collect();
        assert!(counts.contains(&(one.clone(), 2)), "{counts:?}");
        assert!(counts.contains(&(three.clone(), 0)), "{counts:?}");
        // In use (the remover refuses): kept although nothing names it.
        let removed = prune(&h, 8, 8, &|_| false);
        assert!(removed.is_empty(), "{removed:?}");
        let remove = |p: &Path| fs::remove_file(p).is_ok();
        let removed = prune(&h, 8, 8, &remove);
        assert_eq!(removed.len(), 1);
        assert_eq!(removed[0].binary, three);
        // Past the bound, the least recently used goes even if named.
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        let f = fs::File::options()
            .append(true)
            .open(kept_path(&h, "t", &two))
            .unwrap();
        f.set_modified(old).unwrap();
        let removed = prune(&h, 1, 8, &remove);
        assert_eq!(removed.len(), 1);
        assert_eq!(removed[0].binary, two);
        assert!(kept_path(&h, "t", &one).exists());
        fs::remove_dir_all(&h).unwrap();
    }

    #[test]
    fn layouts_go_with_their_binary_and_past_their_own_bound() {
        let h = home("layouts");
        let remove = |p: &Path| fs::remove_file(p).is_ok();
        let names: Vec<String> = [&b"old"[..], b"mid!", b"newest"]
            .iter()
            .map(|b| keep(&h, "t", b))
            .collect();
        let hour = std::time::Duration::from_secs(3600);
        for (age, name) in names.iter().enumerate() {
            let path = kept_path(&h, "t", name);
            for k in 1..=2 {
                fs::write(crate::linked::layout_path(&path, k), b"elf").unwrap();
            }
            // names[0] the least recently used.
            let used = std::time::SystemTime::now() - hour * (3 - age as u32);
            fs::File::options()
                .append(true)
                .open(&path)
                .unwrap()
                .set_modified(used)
                .unwrap();
            record(&h.join(format!("b{age}")).join("base"), "t", name);
        }
        // Their bytes count with their binary's.
        let listed = kept(&h);
        assert_eq!(listed[0].bytes, 6 + 2 * 3, "{listed:?}");
        // A layout whose binary is gone, and a file that only looks alike.
        fs::write(h.join(".binaries/t/0123456789abcdef-9.layout1"), b"elf").unwrap();
        fs::write(h.join(".binaries/t/notes.layout1"), b"mine").unwrap();
        assert!(prune(&h, 8, 2, &remove).is_empty());
        let left = |name: &str| {
            let p = kept_path(&h, "t", name);
            (p.exists(), layouts_beside(&p).len())
        };
        assert_eq!(left(&names[2]), (true, 2));
        assert_eq!(left(&names[1]), (true, 2));
        assert_eq!(left(&names[0]), (true, 0), "past the layouts' bound");
        assert!(!h.join(".binaries/t/0123456789abcdef-9.layout1").exists());
        assert!(h.join(".binaries/t/notes.layout1").exists());
        // A binary removed takes its layouts along.
        let removed = prune(&h, 1, 2, &remove);
        assert_eq!(removed.len(), 2);
        assert_eq!(left(&names[1]), (false, 0));
        assert_eq!(left(&names[2]), (true, 2));
        fs::remove_dir_all(&h).unwrap();
    }

    #[test]
    fn a_build_record_stays_while_a_folder_names_its_binary() {
        let h = home("records");
        let named = keep(&h, "t", b"named");
        let gone = keep(&h, "t", b"gone!!");
        let running = keep(&h, "t", b"running");
        let build_of =
            |b: &str| PathBuf::from(format!("{}.build.json", kept_path(&h, "t", b).display()));
        for b in [&named, &gone, &running] {
            fs::write(build_of(b), "{}").unwrap();
        }
        record(&h.join("x").join("base"), "t", &named);
        // `named`'s binary goes past the bound, its record stays; `gone`
        // is named by nothing: both go; `running` is held by a run (the
        // remover refuses it), so its record stays too.
        let remove = |p: &Path| !p.ends_with(&running) && fs::remove_file(p).is_ok();
        let removed = prune(&h, 0, 8, &remove);
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(!kept_path(&h, "t", &named).exists());
        assert!(build_of(&named).exists());
        assert!(!build_of(&gone).exists());
        assert!(build_of(&running).exists());
        // The last folder naming it goes: so does the record.
        fs::remove_dir_all(h.join("x")).unwrap();
        prune(&h, 0, 8, &remove);
        assert!(!build_of(&named).exists());
        fs::remove_dir_all(&h).unwrap();
    }

    #[test]
    fn a_file_holds_its_name_until_rewritten() {
        let h = home("holds");
        let name = keep(&h, "t", b"the bench binary");
        let path = kept_path(&h, "t", &name);
        assert!(holds_its_name(&path).unwrap());
        // Another build of the same size in its place.
        fs::write(&path, b"the bench binarY").unwrap();
        assert!(!holds_its_name(&path).unwrap());
        fs::remove_dir_all(&h).unwrap();
    }

    #[test]
    fn a_file_of_another_version_is_refused() {
        let f = BinaryFile {
            version: 2,
            target: "t".into(),
            binary: "af63dc4c8601ec8c-1".into(),
            protocol: 1,
            measurement: "wall".into(),
            package: None,
            layouts: vec!["af63dc4c8601ec8c-1".into()],
        };
        assert!(f.clone().checked().unwrap_err().contains("version 2"));
        let f = BinaryFile { version: 1, ..f };
        assert!(f.clone().checked().is_ok());
        let planted = BinaryFile {
            layouts: vec!["../../x".into()],
            ..f
        };
        assert!(planted.checked().is_err());
    }
}

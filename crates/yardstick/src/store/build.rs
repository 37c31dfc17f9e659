//! This bench binary's build (`yardstick_format::build`), gathered once
//! per process: what cargo told the harness's build script at compile time
//! (`build.rs`: the compiler, target, opt-level, debug, flags, target
//! features, linker), what the harness's own `cfg` says (debug assertions,
//! panic), and what only the files around the binary say: the profile's
//! `lto`, `codegen-units` and `incremental` from the workspace's
//! `Cargo.toml` (and its `opt-level` where a per-package override gave the
//! harness another), the package's features from cargo's fingerprint of
//! the bench target. Kept once beside the kept bench binary
//! (`<hash>-<size>.build.json`, [`keep_record`]), which each saved folder's
//! `binary.json` names, and compared with the baseline's when a run
//! compares.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::BenchmarkDir;
use yardstick_format::binary::BinaryFile;
use yardstick_format::build::{self, BuildFile};

/// This binary's build, gathered the first time it is asked for.
pub(crate) fn this_build() -> &'static BuildFile {
    static BUILD: OnceLock<BuildFile> = OnceLock::new();
    BUILD.get_or_init(gather)
}

/// Keeps this binary's build record beside the kept binary `binary`
/// names, once per process. A readable record there is left alone and
/// nothing is gathered: the binary's name is its content's hash, and the
/// same bytes were built the same way (a run of an unchanged build, the
/// common case). Whether it is there; when not (the folder cannot be
/// written), the caller saves the record in each folder as the previous
/// layout did, so nothing is lost.
pub(crate) fn keep_record(home: &Path, binary: &BinaryFile) -> bool {
    static DONE: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());
    let path = build::kept_path(home, binary);
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, kept)) = done.iter().find(|(p, _)| *p == path) {
        return *kept;
    }
    let kept = matches!(build::read_record(&path), Ok(Some(_))) || {
        let text = yardstick_format::json::to_string(this_build());
        yardstick_format::atomic::write_file(&path, text.as_bytes()).is_ok()
    };
    done.push((path, kept));
    kept
}

/// How the binary that saved baseline `name` of `dir` was built
/// (`yardstick_format::build::of_saved`), `binary` being the folder's
/// `binary.json`. Read once per binary and process: every folder naming a
/// binary names its one build (a folder of the previous layout saved its
/// `build.json` with its `binary.json`), and a suite's benchmarks mostly
/// share one baseline binary.
pub(crate) fn of_baseline(
    dir: &BenchmarkDir,
    name: &str,
    binary: Option<&BinaryFile>,
) -> Result<Option<BuildFile>, String> {
    static READ: Mutex<Vec<(PathBuf, Option<BuildFile>)>> = Mutex::new(Vec::new());
    let key = binary.map(|b| build::kept_path(&dir.home, b));
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, hit)) = read.iter().find(|(p, _)| Some(p) == key.as_ref()) {
        return Ok(hit.clone());
    }
    let found = build::of_saved(&dir.home, &dir.sub(name), binary)?;
    if let Some(key) = key {
        read.push((key, found.clone()));
    }
    Ok(found)
}

/// The build's compile-time part as one text the binary carries, in
/// `yardstick_format::build::from_embedded`'s form, so that `cargo
/// yardstick ab` reads it from a binary's bytes; the values come from
/// `build.rs` and the harness's own `cfg`.
macro_rules! embedded {
    ($debug_assertions:literal, $panic:literal) => {
        concat!(
            "\n@yardstick-build-v1\n",
            "yardstick=",
            env!("CARGO_PKG_VERSION"),
            "\n",
            "rustc_vv=",
            env!("YARDSTICK_BUILD_RUSTC_VV"),
            "\n",
            "target=",
            env!("YARDSTICK_BUILD_TARGET"),
            "\n",
            "profile=",
            env!("YARDSTICK_BUILD_PROFILE"),
            "\n",
            "opt_level=",
            env!("YARDSTICK_BUILD_OPT_LEVEL"),
            "\n",
            "debug=",
            env!("YARDSTICK_BUILD_DEBUG"),
            "\n",
            "rustflags=",
            env!("YARDSTICK_BUILD_RUSTFLAGS"),
            "\n",
            "target_features=",
            env!("YARDSTICK_BUILD_TARGET_FEATURES"),
            "\n",
            "linker=",
            env!("YARDSTICK_BUILD_LINKER"),
            "\n",
            "debug_assertions=",
            $debug_assertions,
            "\n",
            "panic=",
            $panic,
            "\n@end\n"
        )
    };
}

#[cfg(all(debug_assertions, panic = "abort"))]
static EMBEDDED: &str = embedded!("true", "abort");
#[cfg(all(debug_assertions, not(panic = "abort")))]
static EMBEDDED: &str = embedded!("true", "unwind");
#[cfg(all(not(debug_assertions), panic = "abort"))]
static EMBEDDED: &str = embedded!("false", "abort");
#[cfg(all(not(debug_assertions), not(panic = "abort")))]
static EMBEDDED: &str = embedded!("false", "unwind");

fn gather() -> BuildFile {
    // Read through `black_box`, so the text stays whole in the binary.
    let text: &str = std::hint::black_box(EMBEDDED);
    let mut b = build::from_embedded(text.as_bytes()).unwrap_or_default();
    let exe = std::env::current_exe().ok();
    // `target/<profile dir>/deps/<target>-<hash>`, as cargo lays out a
    // bench binary; elsewhere (a copied binary) only the compile-time part
    // is known.
    let profile_dir = exe
        .as_deref()
        .and_then(Path::parent)
        .filter(|d| d.file_name().is_some_and(|n| n == "deps"))
        .and_then(Path::parent);
    let manifest = workspace_manifest(exe.as_deref());
    let chain = profile_chain(profile_dir, manifest.as_deref(), &b.profile.name);
    let names: Vec<&str> = chain.iter().map(String::as_str).collect();
    if let Some(m) = manifest.as_deref() {
        let [lto, codegen_units, incremental] = build::profile_settings(m, &names);
        b.profile.lto = overridden(&names, "LTO", lto.1);
        b.profile.codegen_units = overridden(&names, "CODEGEN_UNITS", codegen_units.1);
        b.profile.incremental = overridden(&names, "INCREMENTAL", incremental.1);
        // The harness's level is an override's: the bench package's own.
        let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
        if let Some((own, profile)) = build::bench_opt_level(m, &names, &package) {
            if let Some(level) = own.or_else(|| overridden(&names, "OPT_LEVEL", profile)) {
                b.profile.opt_level = level;
            }
        }
    }
    b.profile.name = chain.first().cloned().unwrap_or_default();
    b.features = profile_dir.and_then(|d| package_features(d, exe.as_deref()?));
    b
}

/// The profile and those it inherits, most specific first: a binary under
/// `target/release` was built by `cargo bench` (the `bench` profile, which
/// inherits `release`), one under `target/debug` by `cargo test`; another
/// folder is a custom profile of that name.
fn profile_chain(
    profile_dir: Option<&Path>,
    manifest: Option<&str>,
    compiled: &str,
) -> Vec<String> {
    let dir = profile_dir
        .and_then(Path::file_name)
        .map_or_else(|| compiled.to_owned(), |n| n.to_string_lossy().into_owned());
    let mut chain: Vec<String> = match dir.as_str() {
        "release" => vec!["bench".into(), "release".into()],
        "debug" => vec!["test".into(), "dev".into()],
        _ => vec![dir],
    };
    // A custom profile's `inherits`, to a built-in one (four steps at most:
    // cargo refuses a loop).
    while let (Some(m), Some(last)) = (manifest, chain.last().cloned()) {
        if chain.len() > 4 || matches!(last.as_str(), "release" | "dev") {
            break;
        }
        match build::profile_inherits(m, &last) {
            Some(parent) if !chain.contains(&parent) => chain.push(parent),
            _ => break,
        }
    }
    chain
}

/// A profile setting given in cargo's environment
/// (`CARGO_PROFILE_BENCH_LTO`), which wins over the manifest.
fn overridden(chain: &[&str], key: &str, from_manifest: Option<String>) -> Option<String> {
    chain
        .iter()
        .find_map(|p| std::env::var(format!("CARGO_PROFILE_{}_{key}", p.to_uppercase())).ok())
        .or_else(|| {
            (key == "INCREMENTAL")
                .then(|| std::env::var("CARGO_INCREMENTAL").ok())
                .flatten()
                .map(|v| {
                    if v == "1" {
                        "true".to_owned()
                    } else {
                        "false".to_owned()
                    }
                })
        })
        .or(from_manifest)
}

/// The workspace's `Cargo.toml`, where cargo reads profiles: the nearest
/// one with a `[workspace]` table above the package cargo ran (cargo sets
/// `CARGO_MANIFEST_DIR` for the bench binary), else the package's own.
fn workspace_manifest(exe: Option<&Path>) -> Option<String> {
    let start: PathBuf = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        // Run by hand: the folder holding `target/`.
        .or_else(|| exe?.ancestors().nth(4).map(Path::to_path_buf))?;
    let mut package = None;
    for dir in start.ancestors() {
        let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if text.lines().any(|l| l.trim() == "[workspace]") {
            return Some(text);
        }
        package.get_or_insert(text);
    }
    package
}

/// The bench package's enabled features, from cargo's fingerprint of this
/// binary (`<profile dir>/.fingerprint/<package>-<hash>/`, the hash the
/// binary's name ends with).
fn package_features(profile_dir: &Path, exe: &Path) -> Option<Vec<String>> {
    let stem = exe.file_stem()?.to_str()?;
    let (_, hash) = stem.rsplit_once('-')?;
    let prints = profile_dir.join(".fingerprint");
    let folder = match std::env::var("CARGO_PKG_NAME") {
        Ok(package) if prints.join(format!("{package}-{hash}")).is_dir() => {
            prints.join(format!("{package}-{hash}"))
        }
        _ => std::fs::read_dir(&prints)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(&format!("-{hash}")))
            })?,
    };
    std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .find_map(|p| build::fingerprint_features(&std::fs::read_to_string(p).ok()?))
}

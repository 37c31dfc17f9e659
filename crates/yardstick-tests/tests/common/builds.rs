//! Builds of the fixture for the kept-binary tests: a copy named like a
//! cargo bench binary, with a change "compiled in" as bytes appended (see
//! the fixture's `built_in_factor`), and the files the harness keeps.

use std::path::{Path, PathBuf};

use super::Run;

pub const ARGS: &[&str] = &[
    "--bench",
    "--color",
    "never",
    "--nresamples",
    "2000",
    "processes/steady",
];
pub const ENV: &[(&str, &str)] = &[("FIXTURE_PROCESSES", "1")];

/// [`ENV`] with Valgrind pointed at a file that is not there: the
/// instruction checks say they were skipped and the verdict stands (a
/// change of the fake clock alone, like code layout, would otherwise be
/// counted the same on both sides and be no verdict).
#[allow(dead_code)]
pub fn without_valgrind() -> Vec<(&'static str, &'static str)> {
    [
        ENV,
        &[("YARDSTICK_CALLGRIND_VALGRIND", "/nonexistent/valgrind")],
    ]
    .concat()
}

/// [`ARGS`] with another filter in place of `processes/steady`.
pub fn args_for(filter: &str) -> Vec<&str> {
    let mut args = ARGS[..ARGS.len() - 1].to_vec();
    args.push(filter);
    args
}

/// The line under a lock-step verdict, up to its pairs: 8, or 16 when
/// the first look was ambiguous and a second one ran (a real routine's
/// p-value falls there by chance).
pub const LOCKSTEP_LINE: &str = "Measured in lock-step with the baseline's binary (";

/// The folder of the fixture's kept binaries: its package (compiled in by
/// `criterion_main!`) and its bench target's name.
pub const KEY: &str = "yardstick-tests.fixture";

/// A copy of the fixture under `dir` named like a cargo bench binary, with
/// `tail` appended to its bytes; when there is one, the fixture's
/// `BUILD_MARK` is changed too, so that the copy is a build of other code
/// (one function differs), as a change compiled in would be.
pub fn build(dir: &Path, tail: &[u8]) -> PathBuf {
    let path = build_same_code(dir, tail);
    if !tail.is_empty() {
        let mut bytes = std::fs::read(&path).unwrap();
        let mark = 0x5eed_c0de_b1d5_0001_u64.to_le_bytes();
        let at: Vec<usize> = (0..bytes.len() - 8)
            .filter(|&i| bytes[i..i + 8] == mark)
            .collect();
        assert_eq!(at.len(), 1, "the fixture's BUILD_MARK, once");
        let other = 0x5eed_c0de_b1d5_0001_u64 ^ (u64::from(tail.len() as u32) << 8 | 0x80);
        bytes[at[0]..at[0] + 8].copy_from_slice(&other.to_le_bytes());
        write_executable(&path, &bytes);
    }
    path
}

/// A copy of the fixture under `dir` named like a cargo bench binary, with
/// `tail` appended to its bytes and its code as it is: a rebuild that
/// changed no function.
pub fn build_same_code(dir: &Path, tail: &[u8]) -> PathBuf {
    let path = dir.join("fixture-0123456789abcdef");
    let mut bytes = std::fs::read(env!("CARGO_BIN_EXE_fixture")).unwrap();
    bytes.extend_from_slice(tail);
    std::fs::create_dir_all(dir).unwrap();
    let _ = std::fs::remove_file(&path);
    write_executable(&path, &bytes);
    path
}

/// Writes `bytes` to `path`, runnable by everyone (on Unix).
pub fn write_executable(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

pub fn run_binary(exe: &Path, home: &Path, extra: &[&str]) -> Run {
    run_binary_with(exe, home, extra, ENV)
}

pub fn run_binary_with(exe: &Path, home: &Path, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let args: Vec<&str> = ARGS.iter().chain(extra).copied().collect();
    super::finished(super::command_of(exe, home, &args, env))
}

/// The folder of `processes/steady` under `home`.
pub fn folder(home: &Path) -> PathBuf {
    super::folder_starting_with(home, "processes_steady").expect("a saved benchmark")
}

pub fn kept_binaries(home: &Path) -> Vec<PathBuf> {
    let dir = home.join(".binaries").join(KEY);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    // Neither temporaries nor the build records kept beside the binaries.
    v.retain(|p| {
        let name = p.file_name().unwrap().to_string_lossy();
        !name.starts_with('.') && !name.ends_with(".build.json")
    });
    v.sort();
    v
}

/// The name a kept binary gets: FNV-1a's steps over 8-byte words, the
/// last padded with zeros, then `-<size>` (written here again from the
/// format's description, as a check of the harness's).
pub fn kept_name(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}-{}", bytes.len())
}

/// Whether every kept binary under `home` still holds what its name says.
pub fn all_hold_their_names(home: &Path) -> bool {
    kept_binaries(home).iter().all(|p| {
        let bytes = std::fs::read(p).unwrap();
        p.file_name().unwrap().to_string_lossy() == kept_name(&bytes)
    })
}

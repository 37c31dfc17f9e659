//! Hands the bench binary what only cargo knows at build time: the
//! compiler (`rustc -vV`), the target, the profile's opt-level and debug,
//! the flags, the target features and the linker, as `YARDSTICK_BUILD_*`
//! variables that `store::build` reads with `env!`. The harness is
//! compiled with the same toolchain, target, flags and (unless a
//! per-package override says otherwise) profile as the bench crate, so
//! these describe the bench binary. No dependency: this script is built
//! in every user's clean `cargo bench`.

use std::env::var;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for v in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_LINKER",
    ] {
        println!("cargo:rerun-if-env-changed={v}");
    }
    let rustc = var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let verbose = Command::new(rustc)
        .arg("-vV")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    // Values are one line each: rustc -vV's lines and the flags are joined
    // by the unit separator, as cargo encodes RUSTFLAGS.
    let sep = "\u{1f}";
    let lines: Vec<&str> = verbose.lines().collect();
    set("RUSTC_VV", &lines.join(sep));
    mark_bench_links();
    for (name, from) in [
        ("TARGET", "TARGET"),
        ("OPT_LEVEL", "OPT_LEVEL"),
        ("DEBUG", "DEBUG"),
        ("PROFILE", "PROFILE"),
        ("RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS"),
        ("TARGET_FEATURES", "CARGO_CFG_TARGET_FEATURE"),
        ("LINKER", "RUSTC_LINKER"),
    ] {
        set(name, &var(from).unwrap_or_default());
    }
}

fn set(name: &str, value: &str) {
    let value: String = value.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    println!("cargo:rustc-env=YARDSTICK_BUILD_{name}={value}");
}

/// Adds an empty folder named `yardstick-bench-harness` to the link search
/// path. Cargo hands a library's search paths to every link that includes
/// the library, LTO or not, so yardstick's linker wrapper (set up by
/// `cargo yardstick init`) tells a bench binary of this harness from the
/// project's other links by it, and links code layouts of the bench
/// binaries alone.
fn mark_bench_links() {
    let Ok(out) = var("OUT_DIR") else { return };
    let marker = std::path::Path::new(&out).join("yardstick-bench-harness");
    if std::fs::create_dir_all(&marker).is_ok() {
        println!("cargo:rustc-link-search=native={}", marker.display());
    }
}

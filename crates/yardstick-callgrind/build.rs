//! Exposes the target triple to the crate, for `--separate-targets`.

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".to_owned());
    println!("cargo:rustc-env=YARDSTICK_CALLGRIND_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}

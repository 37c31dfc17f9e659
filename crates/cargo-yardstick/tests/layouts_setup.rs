//! `cargo yardstick init`, end to end: a tiny crate made here (its only
//! dependency the harness, by path) is set up so that its bench binaries
//! link through the wrapper, and `cargo bench` is run after edits. Checked:
//! the layouts are linked for the bench binary and not for `cargo test`'s
//! binaries; the harness keeps them with its binary and names them in
//! `binary.json`; the next comparison runs over both builds' layouts
//! (`change/verdict.json`, the terminal line); and each bad case gets its
//! one line while the comparison goes on in lock-step: a baseline kept
//! without layouts, a kept layout removed, a build without the wrapper.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{stderr, stdout};

const BENCH: &str = r#"use criterion::{criterion_group, criterion_main, Criterion};

fn spin(c: &mut Criterion) {
    c.bench_function("spin", |b| {
        b.iter(|| (0..200u64).fold(0u64, |h, x| h.rotate_left(5) ^ std::hint::black_box(x)))
    });
}

criterion_group!(benches, spin);
criterion_main!(benches);
"#;

/// Layouts the test links: the fewest the comparison uses.
const LAYOUTS: usize = 2;

fn manifest() -> String {
    format!(
        "[package]\nname = \"laid\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dev-dependencies]\ncriterion = {{ package = \"yardstick\", path = {:?}, default-features = false }}\n\n\
         [[bench]]\nname = \"spin\"\nharness = false\n\n\
         [[test]]\nname = \"plain\"\npath = \"tests/plain.rs\"\n\n\
         [profile.bench]\nopt-level = 1\n{}",
        common::harness_dir(),
        common::DEPENDENCIES_UNOPTIMISED
    )
}

/// A target directory of its own, kept between test runs (the linker is
/// part of cargo's fingerprints: shared with another test, each would
/// rebuild the other's).
fn target_dir() -> PathBuf {
    common::kept_target_dir("yardstick-layouts-test")
}

fn cargo(krate: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(krate)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("YARDSTICK_LINK_LAYOUTS")
        .env_remove("YARDSTICK_LINK_WITH")
        .env_remove("YARDSTICK_LINK_ANY")
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .args(args);
    c
}

/// A neutral edit that makes a new build: bytes added to the binary
/// (a kept static), the benchmark's code untouched. A comment is not one:
/// rustc may build the same bytes for it.
fn edit(name: &str) -> String {
    format!(
        "#[used]\nstatic EDIT_{}: [u8; {}] = *b\"{name}\";\n",
        name.to_uppercase(),
        name.len()
    )
}

/// `cargo bench` after appending `edit` to the bench file (a new build);
/// its error output.
fn bench(krate: &Path, home: &Path, edit: &str) -> String {
    let file = krate.join("benches/spin.rs");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(edit);
    std::fs::write(&file, text).unwrap();
    let o = cargo(
        krate,
        &[
            "bench", "--bench", "spin", "--", "--color", "never", "--home",
        ],
    )
    .arg(home)
    .output()
    .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    format!("{}{}", stdout(&o), stderr(&o))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The comparison's code layouts, as `change/verdict.json` records them.
fn layouts_compared(home: &Path) -> u64 {
    let verdict = json(&home.join("spin/change/verdict.json"));
    verdict["lockstep"]["layouts"]
        .as_u64()
        .expect("measured in lock-step")
}

fn init(krate: &Path, args: &[&str]) -> String {
    let o = common::bin()
        .current_dir(krate)
        .args(["yardstick", "init"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn every_cargo_bench_samples_code_layouts_after_init() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("laid");
    for d in ["benches", "src", "tests"] {
        std::fs::create_dir_all(krate.join(d)).unwrap();
    }
    std::fs::write(krate.join("src/lib.rs"), "").unwrap();
    std::fs::write(krate.join("tests/plain.rs"), "#[test]\nfn t() {}\n").unwrap();
    std::fs::write(krate.join("benches/spin.rs"), BENCH).unwrap();
    std::fs::write(krate.join("Cargo.toml"), manifest()).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        krate.join("Cargo.lock"),
    )
    .unwrap();
    let home = dir.path().join("home");

    // Before the setup: a baseline kept without layouts.
    bench(&krate, &home, "");
    let said = init(&krate, &["--layouts", &LAYOUTS.to_string()]);
    assert!(
        said.contains("bench binaries link through yardstick (2 code layouts each)"),
        "{said}"
    );

    // The first run after it: the baseline has none, said once; the
    // comparison goes on in lock-step over the builds as linked.
    let out = bench(&krate, &home, &edit("one"));
    let line = "the baseline's binary was kept without code layouts";
    assert_eq!(out.matches(line).count(), 1, "{out}");
    assert!(
        !out.contains("after `cargo yardstick init`"),
        "set up already: {out}"
    );
    assert_eq!(layouts_compared(&home), 0);
    let record = json(&home.join("spin/new/binary.json"));
    let names = record["layouts"].as_array().expect("the layouts named");
    assert_eq!(names.len(), LAYOUTS);
    let kept = home
        .join(".binaries/laid.spin")
        .join(record["binary"].as_str().unwrap());
    for k in 1..=LAYOUTS {
        let layout = PathBuf::from(format!("{}.layout{k}", kept.display()));
        let bytes = std::fs::read(&layout).unwrap();
        // Named by content, as the kept binary is; and not the binary.
        assert_eq!(
            names[k - 1].as_str().unwrap(),
            format!("{:016x}-{}", fnv_words(&bytes), bytes.len())
        );
        assert_ne!(bytes, std::fs::read(&kept).unwrap());
    }

    // A neutral edit: both builds' layouts, pair k running layout k.
    let out = bench(&krate, &home, &edit("two"));
    assert_eq!(layouts_compared(&home), LAYOUTS as u64, "{out}");
    assert!(out.contains("2 code layouts of each build"), "{out}");
    assert!(!out.contains("code layout is not sampled"), "{out}");
    // The edit changed no function (both binaries kept their code's
    // relocations): nothing is counted under Callgrind.
    let verdict = json(&home.join("spin/change/verdict.json"));
    assert_eq!(verdict["lockstep"]["same_code"], true, "{verdict}");
    assert!(verdict["lockstep"].get("counted").is_none(), "{verdict}");

    // `cargo test` (the debug profile) and its tests link as before.
    let o = cargo(&krate, &["test", "--test", "plain"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let debug_records = std::fs::read_dir(target_dir().join("debug/deps"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".layouts.json"))
        .count();
    assert_eq!(debug_records, 0);

    // A kept layout of the baseline removed: one line, lock-step goes on.
    let baseline = json(&home.join("spin/base/binary.json"));
    let kept = home
        .join(".binaries/laid.spin")
        .join(baseline["binary"].as_str().unwrap());
    std::fs::remove_file(format!("{}.layout1", kept.display())).unwrap();
    // And the benchmark's own code changed this time.
    let file = krate.join("benches/spin.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("0..200u64", "0..201u64")).unwrap();
    let out = bench(&krate, &home, &edit("three"));
    let verdict = json(&home.join("spin/change/verdict.json"));
    assert_eq!(verdict["lockstep"]["same_code"], false, "{verdict}");
    // One function of the build's: not the whole build rewritten.
    assert!(verdict["lockstep"].get("rewritten").is_none(), "{verdict}");
    assert_eq!(
        out.matches("the baseline's code layout 1 is refused")
            .count(),
        1,
        "{out}"
    );
    assert_eq!(layouts_compared(&home), 0);

    // The setup removed: the baseline has layouts, this build none.
    let said = init(&krate, &["--remove"]);
    assert!(said.contains("removed"), "{said}");
    assert!(!krate.join(".cargo/config.toml").exists());
    let out = bench(&krate, &home, &edit("four"));
    assert_eq!(
        out.matches("this build linked no code layouts").count(),
        1,
        "{out}"
    );
    assert_eq!(layouts_compared(&home), 0);
}

/// The kept binaries' content hash, written out here: FNV-1a over 8-byte
/// little-endian words, the last one padded with zeros.
fn fnv_words(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(0xcbf2_9ce4_8422_2325, |h, c| {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        (h ^ u64::from_le_bytes(w)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The wrapper as rustc starts it, with a linker that is not there: the
/// link fails with one line naming it and what to do, as any missing
/// linker fails a build; and started as the linker without the setup's
/// variables (a `cargo --config` override), it links as the real linker.
#[test]
fn a_missing_linker_is_one_line_and_a_bare_link_passes_through() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deps").join("spin-0123456789abcdef");
    let o = common::bin()
        .env("YARDSTICK_LINK_LAYOUTS", "2")
        .env("YARDSTICK_LINK_WITH", dir.path().join("no-such-linker"))
        .args(["-m64", "a.o", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: yardstick's linker wrapper cannot run the linker ")
            && err.contains("no-such-linker")
            && err.contains("YARDSTICK_LINK_WITH"),
        "{err}"
    );
    // Without the variables: the stand-in linker (`true`) runs with the
    // same arguments and nothing else happens.
    let o = common::bin()
        .env_remove("YARDSTICK_LINK_LAYOUTS")
        .env("YARDSTICK_LINK_WITH", "true")
        .args(["-m64", "a.o", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dir.path().join("deps").exists(), "no layouts, no record");
}

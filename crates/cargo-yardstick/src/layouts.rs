//! Several code layouts of one build, for comparisons between builds.
//!
//! A neutral edit moves every function linked after it, and the alignment
//! of hot loops with them: `ab HEAD rename-another-benchmark` once called an
//! untouched benchmark 0.865× three times in a row. So each bench binary is
//! linked again N times with lld's `--shuffle-sections=.text.*=SEED`
//! (rustc puts every function in its own section), seeds 1..=N, into
//! `<binary>.layoutK`, and the comparison spreads its worker pairs over
//! those layouts (`yardstick_stats::layouts`). Relinking costs a link, not
//! a compile.
//!
//! The objects exist only while rustc links, so the relinks happen then:
//! cargo-yardstick is the build's linker (`CARGO_TARGET_<TRIPLE>_LINKER`),
//! runs the real one, and in bench binaries' case the shuffled links after
//! it. A record beside the binary (`<binary>.layouts.json`, written last)
//! says what was linked or why nothing was: a linker that cannot shuffle
//! (GNU ld, an old lld) leaves one line of reason, and the comparison runs
//! on the build as linked.
//!
//! The linker is part of cargo's fingerprints: a build through this
//! wrapper recompiles everything once in its target directory, which is
//! why the working tree is then built in `ab`'s own target directory, not
//! the user's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use yardstick_format::linked::{layout_path, record_path, LinkedFile};

/// Layouts a side gets by default: four relinks of every bench target of
/// the guide's examples cost 3.9 s of linking on this project's 2-core
/// machine (20 targets), within the 5 s a revision may spend on it.
pub const DEFAULT: usize = 4;

/// Set in the build's environment to the number of layouts: tells this
/// executable it was started as the linker.
const LAYOUTS_VAR: &str = "YARDSTICK_LINK_LAYOUTS";
/// The linker the wrapper runs (the user's, or `cc` as rustc's default).
const LINKER_VAR: &str = "YARDSTICK_LINK_WITH";
/// Set by `ab` (which builds bench targets alone, in its own target
/// directory): every executable linked into `deps` gets layouts. Without
/// it only bench binaries of the yardstick harness do ([`is_bench_link`]).
const ANY_VAR: &str = "YARDSTICK_LINK_ANY";
/// The folder the harness's build script adds to the link search path of
/// every binary that links it (cargo hands a library's search paths to
/// each link that includes it, LTO or not): how a bench binary of the
/// harness is told from the project's other links.
const MARKER: &str = "yardstick-bench-harness";

/// When rustc started this process as the linker: links, relinks a bench
/// binary's layouts and returns the exit status. `None` otherwise.
///
/// Started as the linker without the layouts' variable (a project's
/// configuration names this wrapper, but cargo's `[env]` did not reach
/// the build: a `cargo --config` override, a rustc run by hand), it links
/// as the real linker would and nothing else: the build is never broken
/// by the wrapper.
pub fn link_if_asked() -> Option<u8> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let n: usize = match std::env::var(LAYOUTS_VAR) {
        Ok(v) => v.trim().parse().unwrap_or(0),
        Err(_) if looks_like_a_link(&args) => 0,
        Err(_) => return None,
    };
    let linker = std::env::var_os(LINKER_VAR)
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| "cc".into());
    let any = std::env::var_os(ANY_VAR).is_some();
    // rustc's argument file read once, for both questions.
    let all = expanded(&args);
    let out = bench_output(&all).filter(|out| n > 0 && (any || is_bench_link(&all, out)));
    let status = match link(&linker, &args, out.is_some()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "error: yardstick's linker wrapper cannot run the linker {} ({e}); set {LINKER_VAR} to the linker to use, or run `cargo yardstick init --remove`",
                linker.to_string_lossy()
            );
            return Some(1);
        }
    };
    if !status.success() {
        return Some(status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)));
    }
    if let Some(out) = out {
        let record = relink(&linker, &args, &out, n);
        let text = yardstick_format::json::to_string(&record);
        // A record the build could not write only loses the layouts.
        let _ = crate::atomic::write_atomic(&record_path(&out), text.as_bytes());
    }
    Some(0)
}

/// Runs the real link. A bench binary keeps the relocations of its code
/// (`--emit-relocs`, sections that are not loaded): they tell which of its
/// functions changed between two builds and which only moved
/// (`yardstick_format::elf`). A linker that refuses the option links as
/// asked, its first attempt's messages dropped.
fn link(
    linker: &OsString,
    args: &[OsString],
    keep_relocations: bool,
) -> std::io::Result<std::process::ExitStatus> {
    if keep_relocations {
        let first = Command::new(linker)
            .args(args)
            .arg("-Wl,--emit-relocs")
            .stderr(Stdio::piped())
            .output()?;
        if first.status.success() {
            // The linker's warnings, as the build would have shown them.
            let _ = std::io::Write::write_all(&mut std::io::stderr(), &first.stderr);
            return Ok(first.status);
        }
    }
    Command::new(linker).args(args).status()
}

/// Whether the arguments are a C compiler driver's link (rustc's): an
/// argument file, or an output named with `-o`. `cargo yardstick`'s own
/// first argument is always `yardstick`.
fn looks_like_a_link(args: &[OsString]) -> bool {
    let first = args.first().map(|a| a.to_string_lossy());
    match first.as_deref() {
        None | Some("yardstick") => false,
        Some(a) => a.starts_with('@') || args.iter().any(|a| a == "-o"),
    }
}

/// Whether this link is a bench binary of the harness as `cargo bench`
/// builds it: a test or bench target (cargo sets `CARGO_TARGET_TMPDIR`
/// for those alone), not in the `debug` profile's folder (`cargo test`),
/// and linking the harness (its [`MARKER`] among the search paths).
/// `cargo build`, `cargo test` and `cargo run` links pass through.
fn is_bench_link(all: &[String], out: &Path) -> bool {
    let profile = out
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name);
    std::env::var_os("CARGO_TARGET_TMPDIR").is_some()
        && profile.is_some_and(|p| p != "debug")
        && all.iter().any(|a| {
            let dir = a.strip_prefix("-L").unwrap_or(a);
            Path::new(dir).file_name().is_some_and(|f| f == MARKER)
        })
}

/// The arguments, with rustc's `@file` (used when the command line grows
/// long: one argument a line, `\` and `"` escaped) read out.
fn expanded(args: &[OsString]) -> Vec<String> {
    let mut all = Vec::new();
    for a in args {
        let a = a.to_string_lossy();
        match a.strip_prefix('@').map(std::fs::read_to_string) {
            Some(Ok(text)) => all.extend(
                text.lines()
                    .map(|l| l.replace("\\\"", "\"").replace("\\\\", "\\")),
            ),
            _ => all.push(a.into_owned()),
        }
    }
    all
}

/// The output of an executable linked into a `deps` folder (bench, test
/// and binary targets; build scripts go elsewhere, libraries are `-shared`).
fn bench_output(all: &[String]) -> Option<PathBuf> {
    if all.iter().any(|a| a == "-shared" || a == "-r") {
        return None;
    }
    let out = all
        .windows(2)
        .rev()
        .find(|w| w[0] == "-o")
        .map(|w| PathBuf::from(&w[1]))?;
    let in_deps = out.parent()?.file_name()? == "deps";
    in_deps.then_some(out)
}

/// Links `out`'s layouts, all at once (the build waits for them).
fn relink(linker: &OsString, args: &[OsString], out: &Path, n: usize) -> LinkedFile {
    let start = std::time::Instant::now();
    let seeds: Vec<u64> = (1..=n as u64).collect();
    let children: Vec<_> = seeds
        .iter()
        .map(|&seed| {
            // The last `-o` wins with the C compiler driver rustc calls.
            Command::new(linker)
                .args(args)
                .arg(format!("-Wl,--shuffle-sections=.text.*={seed}"))
                .arg("-o")
                .arg(layout_path(out, seed as usize))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
        })
        .collect();
    let mut error = None;
    for child in children {
        let failed = match child.and_then(std::process::Child::wait_with_output) {
            Ok(o) if o.status.success() => None,
            Ok(o) => Some(first_line(&String::from_utf8_lossy(&o.stderr))),
            Err(e) => Some(e.to_string()),
        };
        error = error.or(failed);
    }
    let seconds = start.elapsed().as_secs_f64();
    // The binary the layouts belong to: linked again later without the
    // wrapper, it no longer has this name and the layouts are stale.
    let binary = std::fs::read(out)
        .ok()
        .map(|b| yardstick_format::binary::binary_name(&b));
    let record = LinkedFile {
        version: yardstick_format::linked::VERSION,
        binary,
        seconds,
        ..LinkedFile::default()
    };
    match error {
        Some(e) => LinkedFile {
            error: Some(format!("the linker cannot shuffle sections ({e})")),
            ..record
        },
        None => LinkedFile { seeds, ..record },
    }
}

fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    line.trim().chars().take(200).collect()
}

/// The environment that makes a build link `n` layouts of each bench
/// binary, or why it cannot.
pub fn build_env(n: usize, dir: &Path) -> Result<Vec<(String, OsString)>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find cargo-yardstick: {e}"))?;
    let triple = host_triple()?;
    let var = format!(
        "CARGO_TARGET_{}_LINKER",
        triple.to_uppercase().replace(['-', '.'], "_")
    );
    let linker = match std::env::var_os(&var) {
        Some(l) => l,
        None => match configured_linker(dir, &triple) {
            Some(l) => l.into(),
            None => "cc".into(),
        },
    };
    Ok(vec![
        (var, exe.into_os_string()),
        (LAYOUTS_VAR.to_owned(), n.to_string().into()),
        (LINKER_VAR.to_owned(), linker),
        (ANY_VAR.to_owned(), "1".into()),
    ])
}

/// The compiler's host triple (`rustc -vV`'s `host:` line).
pub(crate) fn host_triple() -> Result<String, String> {
    crate::host::rustc_verbose()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| "cannot read the host triple from `rustc -vV`".to_owned())
}

/// `target.<triple>.linker` from the cargo configuration files that apply
/// in `dir` (its folders' `.cargo/config.toml` upwards, then cargo's
/// home), the nearest first, as cargo reads them.
fn configured_linker(dir: &Path, triple: &str) -> Option<String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let folders = dir.ancestors().map(|d| d.join(".cargo")).chain(home);
    folders
        .flat_map(|f| [f.join("config.toml"), f.join("config")])
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .find_map(|text| {
            let value: toml::Value = toml::from_str(&text).ok()?;
            value
                .get("target")?
                .get(triple)?
                .get("linker")?
                .as_str()
                .map(str::to_owned)
        })
}

/// Why a binary has no layouts to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    /// One line.
    pub reason: String,
    /// Whether linking the binary again would make them (an earlier build
    /// linked fewer, or they were removed).
    pub relink: bool,
}

/// The layouts linked beside `exe`, the first `n`.
///
/// # Errors
///
/// Why there are none: the build did not go through the wrapper, the
/// linker cannot shuffle, or fewer were linked than asked for.
pub fn of(exe: &Path, n: usize) -> Result<Linked, Missing> {
    let missing = |reason: String, relink| Missing { reason, relink };
    let text = std::fs::read_to_string(record_path(exe)).map_err(|_| {
        missing(
            "the build linked no layouts (is the linker set in RUSTFLAGS?)".into(),
            false,
        )
    })?;
    let record: LinkedFile = yardstick_format::json::from_str(&text)
        .map_err(|e| missing(format!("unreadable layout record: {e}"), true))?;
    if let Some(e) = record.error {
        return Err(missing(e, false));
    }
    if record.seeds.len() < n {
        let got = record.seeds.len();
        return Err(missing(
            format!("{got} layouts linked, {n} asked for"),
            true,
        ));
    }
    let paths: Vec<PathBuf> = (1..=n).map(|k| layout_path(exe, k)).collect();
    match paths.iter().find(|p| !p.is_file()) {
        Some(p) => Err(missing(format!("{} is gone", p.display()), true)),
        None => Ok(Linked {
            paths,
            seconds: record.seconds,
        }),
    }
}

/// A binary's layouts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Linked {
    /// `<binary>.layout1..=n`.
    pub paths: Vec<PathBuf>,
    /// Wall seconds their links took (0 for an earlier build's record).
    pub seconds: f64,
}

/// Forgets the layouts of `exe` (so that the next build links them again).
pub fn forget(exe: &Path) {
    let _ = std::fs::remove_file(record_path(exe));
    let _ = std::fs::remove_file(exe);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn only_executables_in_deps_get_layouts() {
        let bench = os(&["-m64", "a.o", "-o", "/t/release/deps/fib-0a1b", "-pie"]);
        assert_eq!(
            bench_output(&expanded(&bench)),
            Some(PathBuf::from("/t/release/deps/fib-0a1b"))
        );
        let script = os(&["a.o", "-o", "/t/release/build/x-1/build_script_build-1"]);
        assert_eq!(bench_output(&expanded(&script)), None);
        let dylib = os(&["-shared", "-o", "/t/release/deps/libm.so"]);
        assert_eq!(bench_output(&expanded(&dylib)), None);
    }

    #[test]
    fn only_the_harness_bench_binaries_of_a_release_build_are_bench_links() {
        let marker = "-L/t/release/build/yardstick-1/out/yardstick-bench-harness";
        let out = Path::new("/t/release/deps/fib-0a1b");
        let with = |tmpdir: bool, args: &[&str], out: &Path| {
            // The variable is this process's: set and read in one place.
            let _guard = ENV.lock().unwrap();
            if tmpdir {
                std::env::set_var("CARGO_TARGET_TMPDIR", "/t/tmp");
            } else {
                std::env::remove_var("CARGO_TARGET_TMPDIR");
            }
            let r = is_bench_link(&expanded(&os(args)), out);
            std::env::remove_var("CARGO_TARGET_TMPDIR");
            r
        };
        assert!(with(true, &["a.o", marker, "-o", "x"], out));
        // `cargo build`/`cargo run` of a binary target: no TMPDIR.
        assert!(!with(false, &["a.o", marker], out));
        // `cargo test`: the debug profile's folder.
        assert!(!with(
            true,
            &["a.o", marker],
            Path::new("/t/debug/deps/fib-0a1b")
        ));
        // A test or bench target that does not link the harness.
        assert!(!with(true, &["a.o", "-L/t/release/deps"], out));
        // The marker read from rustc's argument file.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("linker-arguments");
        std::fs::write(&file, format!("a.o\n{marker}\n")).unwrap();
        let at = format!("@{}", file.display());
        assert!(with(true, &[&at], out));
    }

    static ENV: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn a_link_is_told_from_a_command() {
        assert!(looks_like_a_link(&os(&["@/tmp/rustcX/linker-arguments"])));
        assert!(looks_like_a_link(&os(&["-m64", "a.o", "-o", "out"])));
        assert!(!looks_like_a_link(&os(&["yardstick", "bench", "-o", "x"])));
        assert!(!looks_like_a_link(&os(&["--help"])));
        assert!(!looks_like_a_link(&[]));
    }

    #[test]
    fn rustcs_argument_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("linker-arguments");
        std::fs::write(&file, "a.o\n-o\n/t/deps/say \\\"hi\\\"-1\n").unwrap();
        let args = vec![OsString::from(format!("@{}", file.display()))];
        assert_eq!(
            bench_output(&expanded(&args)),
            Some(PathBuf::from("/t/deps/say \"hi\"-1"))
        );
    }

    #[test]
    fn the_record_says_what_there_is() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("fib-0a1b");
        let why = |n| of(&exe, n).unwrap_err();
        assert!(why(2).reason.contains("linked no layouts") && !why(2).relink);
        let write = |r: &LinkedFile| {
            std::fs::write(record_path(&exe), yardstick_format::json::to_string(r))
        };
        write(&LinkedFile {
            error: Some("the linker cannot shuffle sections (x)".into()),
            ..LinkedFile::default()
        })
        .unwrap();
        assert_eq!(why(2).reason, "the linker cannot shuffle sections (x)");
        assert!(!why(2).relink);
        write(&LinkedFile {
            seeds: vec![1],
            seconds: 0.5,
            ..LinkedFile::default()
        })
        .unwrap();
        assert_eq!(why(2).reason, "1 layouts linked, 2 asked for");
        assert!(why(2).relink);
        write(&LinkedFile {
            seeds: vec![1, 2],
            seconds: 0.5,
            ..LinkedFile::default()
        })
        .unwrap();
        assert!(why(2).reason.ends_with(".layout1 is gone") && why(2).relink);
        for k in 1..=2 {
            std::fs::write(layout_path(&exe, k), "elf").unwrap();
        }
        let linked = of(&exe, 2).unwrap();
        assert_eq!(linked.paths, [layout_path(&exe, 1), layout_path(&exe, 2)]);
        assert_eq!(linked.seconds, 0.5);
    }

    #[test]
    fn a_configured_linker_is_the_one_wrapped() {
        let dir = tempfile::tempdir().unwrap();
        let cargo = dir.path().join("ws/.cargo");
        std::fs::create_dir_all(&cargo).unwrap();
        std::fs::write(
            cargo.join("config.toml"),
            "[target.x86_64-unknown-linux-gnu]\nlinker = \"clang\"\n",
        )
        .unwrap();
        let inner = dir.path().join("ws/crate");
        assert_eq!(
            configured_linker(&inner, "x86_64-unknown-linux-gnu").as_deref(),
            Some("clang")
        );
        assert_eq!(configured_linker(&inner, "aarch64-unknown-linux-gnu"), None);
    }

    /// A stand-in linker at `dir/name`: a shell script that, for each
    /// argument `$a`, runs `each` (`refuse` rejects an option), then `end`.
    fn stand_in_linker(dir: &Path, name: &str, each: &str, end: &str) -> OsString {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!("#!/bin/sh\nout=; prev=\nfor a in \"$@\"; do {each} done\n{end}\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.into_os_string()
    }

    /// A stand-in linker: writes its last `-o`, and refuses lld's shuffle
    /// option when `refuse` (as GNU ld does).
    fn fake_linker(dir: &Path, refuse: bool) -> OsString {
        let reject = if refuse {
            "case \"$a\" in *--shuffle-sections*) echo \"ld: unrecognized option '--shuffle-sections=.text.*=1'\" >&2; exit 1;; esac;"
        } else {
            ""
        };
        let name = if refuse { "ld-old" } else { "ld-new" };
        let each = format!("{reject} [ \"$prev\" = -o ] && out=\"$a\"; prev=\"$a\";");
        stand_in_linker(dir, name, &each, "echo elf > \"$out\"")
    }

    #[test]
    fn a_linker_that_cannot_shuffle_leaves_one_line_of_reason() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("fib-0a1b");
        let args = os(&["a.o", "-o", out.to_str().unwrap()]);
        let r = relink(&fake_linker(dir.path(), true), &args, &out, 2);
        assert!(r.seeds.is_empty());
        assert_eq!(
            r.error.as_deref(),
            Some("the linker cannot shuffle sections (ld: unrecognized option '--shuffle-sections=.text.*=1')")
        );
        std::fs::write(&out, "elf\n").unwrap();
        let r = relink(&fake_linker(dir.path(), false), &args, &out, 2);
        assert_eq!((r.seeds, r.error), (vec![1, 2], None));
        // Named as the harness names kept binaries: its bytes' hash.
        let name = yardstick_format::binary::binary_name(b"elf\n");
        assert_eq!(r.binary.as_deref(), Some(name.as_str()));
        assert!(layout_path(&out, 1).is_file() && layout_path(&out, 2).is_file());
    }

    /// A stand-in linker that writes the arguments it was given to
    /// `linked` beside it, and refuses `--emit-relocs` when `refuse`.
    fn echoing_linker(dir: &Path, refuse: bool) -> OsString {
        let reject = if refuse {
            "case \"$a\" in *--emit-relocs*) echo 'ld: unknown option' >&2; exit 1;; esac;"
        } else {
            ""
        };
        let name = if refuse { "ld-echo-old" } else { "ld-echo" };
        let end = "echo \"$@\" > \"$(dirname \"$0\")/linked\"";
        stand_in_linker(dir, name, &format!("{reject} :;"), end)
    }

    #[test]
    fn a_bench_binary_keeps_its_relocations_unless_the_linker_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let linked = || std::fs::read_to_string(dir.path().join("linked")).unwrap();
        let args = os(&["a.o", "-o", "bench-0a1b"]);
        assert!(link(&echoing_linker(dir.path(), false), &args, true)
            .unwrap()
            .success());
        assert_eq!(linked().trim(), "a.o -o bench-0a1b -Wl,--emit-relocs");
        // Another link is left as it was.
        assert!(link(&echoing_linker(dir.path(), false), &args, false)
            .unwrap()
            .success());
        assert_eq!(linked().trim(), "a.o -o bench-0a1b");
        // A linker without the option links as asked.
        assert!(link(&echoing_linker(dir.path(), true), &args, true)
            .unwrap()
            .success());
        assert_eq!(linked().trim(), "a.o -o bench-0a1b");
    }
}

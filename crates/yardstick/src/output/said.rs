//! Notes said once a `cargo bench`, not once a bench binary. Cargo runs
//! one binary per bench target (the guide's 63 benchmarks are 20), and a
//! note about the whole run printed by each: `code layout is not sampled`
//! read 15 times in one run of the guide's examples without the setup.
//! The binaries of one `cargo bench` share their parent, cargo, so a file
//! in the results home named after it (its pid and its start time, so that
//! a pid used again is another run) holds the notes said. A binary run by
//! anything else than cargo (a shell, a test) says its notes itself.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// The folder of the home holding the notes said, one file a run.
const FOLDER: &str = ".notes-said";

/// How long a run's file is kept: removed by a later run.
const KEPT: Duration = Duration::from_secs(24 * 3600);

/// Says `note` on `terminal` the first time this `cargo bench` passes it.
pub(crate) fn note(terminal: &super::Terminal, home: &Path, note: &str) {
    if first_in_run(home, note) {
        terminal.note(note);
    }
}

/// True the first time `note` is passed in this `cargo bench` (in this
/// process when cargo did not start it, or the home cannot be written).
fn first_in_run(home: &Path, note: &str) -> bool {
    if !super::first_time(note) {
        return false;
    }
    match cargo_run() {
        Some(run) => !said_before(&home.join(FOLDER), &run, note),
        None => true,
    }
}

/// Whether `note` is among run `run`'s notes in `dir`; records it when not.
fn said_before(dir: &Path, run: &str, note: &str) -> bool {
    let file = dir.join(run);
    let line = yardstick_format::names::one_line(note);
    match std::fs::read_to_string(&file) {
        Ok(text) if text.lines().any(|l| l == line) => return true,
        Ok(_) => {}
        Err(_) => prune(dir),
    }
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .and_then(|mut f| writeln!(f, "{line}"));
    false
}

/// Removes the files of runs older than [`KEPT`].
fn prune(dir: &Path) {
    let now = SystemTime::now();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > KEPT));
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `<pid>-<start time>` of this process's parent when it is cargo.
fn cargo_run() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        let ppid = std::os::unix::process::parent_id();
        let stat = std::fs::read_to_string(format!("/proc/{ppid}/stat")).ok()?;
        cargo_started(ppid, &stat)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The run's name from the parent's `/proc/<pid>/stat`: `None` unless its
/// command is cargo. The command is in parentheses and may hold spaces and
/// parentheses itself; the start time is the 22nd field.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn cargo_started(ppid: u32, stat: &str) -> Option<String> {
    let (head, rest) = stat.rsplit_once(')')?;
    let command = head.split_once('(')?.1;
    if command != "cargo" {
        return None;
    }
    // `rest` starts at the third field.
    let start = rest.split_whitespace().nth(22 - 3)?;
    Some(format!("{ppid}-{start}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_said_once_a_run_of_cargo() {
        let dir = std::env::temp_dir().join(format!("yardstick-said-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let note = "code layout is not sampled: …";
        assert!(!said_before(&dir, "41-100", note));
        assert!(said_before(&dir, "41-100", note));
        assert!(!said_before(&dir, "41-100", "another note"));
        // Another run (a pid used again starts later).
        assert!(!said_before(&dir, "41-200", note));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unusable_folder_says_the_note_and_never_fails() {
        let base = std::env::temp_dir().join(format!("yardstick-said-bad-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        // The folder is a file: nothing can be recorded, so each binary
        // says the note, as before there was a record.
        let file = base.join("plain-file");
        std::fs::write(&file, "x").unwrap();
        assert!(!said_before(&file, "41-100", "a note"));
        assert!(!said_before(&file, "41-100", "a note"));
        // A run's record that is not text is read as nothing said.
        let dir = base.join("dir");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("41-100"), [0xff, 0xfe, 0x00]).unwrap();
        assert!(!said_before(&dir, "41-100", "a note"));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn only_cargo_names_a_run() {
        // Fields as proc(5) lists them: pid (comm) state ppid … starttime.
        let fields = |comm: &str| {
            let mut f = vec![format!("77 ({comm})"), "S".into()];
            f.extend((4..=22).map(|n| n.to_string()));
            f.join(" ")
        };
        assert_eq!(cargo_started(77, &fields("cargo")), Some("77-22".into()));
        assert_eq!(cargo_started(77, &fields("bash")), None);
        assert_eq!(cargo_started(77, &fields("x) (cargo")), None);
        assert_eq!(cargo_started(77, "77 (cargo"), None);
    }
}

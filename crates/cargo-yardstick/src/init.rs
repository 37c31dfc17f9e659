//! `cargo yardstick init`: sets a project up so that every `cargo bench`
//! samples code layouts. It writes two settings into the workspace's
//! `.cargo/config.toml`, keeping what is there:
//!
//! - `target.<host>.linker = "cargo-yardstick"`: rustc links through
//!   yardstick's wrapper ([`crate::layouts`]), which runs the real linker
//!   and, for the harness's bench binaries of a release build alone, links
//!   each again N times with its functions shuffled;
//! - `[env] YARDSTICK_LINK_LAYOUTS = "N"` (and `YARDSTICK_LINK_WITH`, the
//!   linker the project had configured, if any).
//!
//! The bench binary keeps its layouts with the baseline, and the next run's
//! comparison spreads its worker pairs over the layouts of both builds.
//! `--remove` puts the configuration back as it was.

use std::path::{Path, PathBuf};
use std::process::Command;

use toml_edit::{value, DocumentMut, Item, Table};

/// `cargo yardstick init [--layouts N] [--remove]`.
#[derive(Debug, Clone, clap::Args)]
pub struct InitArgs {
    /// Code layouts each bench binary is linked in (2 to 16): the lock-step
    /// comparison's interval is over them.
    #[arg(long, default_value_t = LAYOUTS,
          value_parser = clap::value_parser!(u64).range(2..=16))]
    pub layouts: u64,
    /// Undo: take yardstick's linker out of the project's configuration.
    #[arg(long)]
    pub remove: bool,
    /// The project (a folder of the workspace); the current one by default.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Layouts by default: as many as the lock-step comparison's worker pairs
/// a look (16), so that each pair of a look runs its own layout. The
/// interval's units are the layouts: sixteen give Student's t fifteen
/// degrees of freedom, eight would give seven, and judged at its share of
/// a suite's error rate (about 0.001) t's critical value is 4.1 against
/// 5.4, with a standard error √2 smaller: a change about half as large is
/// found. A second look runs the same sixteen again.
const LAYOUTS: u64 = 16;

/// The wrapper's name in the configuration: found on `PATH` by rustc, so
/// that the file holds no path of this machine and can be committed.
const WRAPPER: &str = "cargo-yardstick";
const LAYOUTS_VAR: &str = "YARDSTICK_LINK_LAYOUTS";
const LINKER_VAR: &str = "YARDSTICK_LINK_WITH";

/// Runs `init`; what it did, as lines for the terminal.
///
/// # Errors
///
/// One line: the workspace cannot be found, its configuration cannot be
/// read, parsed or written, or the host triple is unknown.
pub fn run(args: &InitArgs) -> Result<String, String> {
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => {
            std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?
        }
    };
    let root = workspace_root(&dir)?;
    let path = config_path(&root);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: cannot read it: {e}", path.display())),
    };
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e| format!("{}: not TOML cargo can read: {e}", path.display()))?;
    let triple = crate::layouts::host_triple()?;
    let shown = path
        .strip_prefix(&root)
        .unwrap_or(&path)
        .display()
        .to_string();
    let mut lines = Vec::new();
    if args.remove {
        if !remove(&mut doc, &triple) {
            return Ok(format!(
                "{shown}: yardstick's linker is not set up here; nothing to remove\n"
            ));
        }
        lines.push(format!(
            "{shown}: yardstick's linker removed; bench binaries link as before"
        ));
    } else {
        let wrapper = wrapper_name(&mut lines);
        set_up(&mut doc, &triple, &wrapper, args.layouts);
        lines.push(format!(
            "{shown}: bench binaries link through yardstick ({} code layouts each)",
            args.layouts
        ));
        lines.extend(caveats(args.layouts));
    }
    write(&path, &doc.to_string())?;
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

/// What a user should know after the setup.
fn caveats(n: u64) -> Vec<String> {
    let mut lines = vec![
        format!("the next cargo bench builds the project once more (the linker is part of cargo's fingerprint), then links {n} layouts of each bench binary beside it: about a second of linking each"),
        "that run's comparison still runs on the builds as linked; from the one after, every comparison spreads its worker pairs over both builds' layouts".into(),
        "cargo build, cargo test and cargo run link as before (the wrapper only starts the linker)".into(),
    ];
    let flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    if flags.contains("linker=") {
        lines.push("warning: RUSTFLAGS names a linker (-C linker=), which overrides the configuration: no layouts are linked while it is set".into());
    }
    lines
}

/// `cargo-yardstick` when the one on `PATH` is this executable, else this
/// executable's path (said: the file then names a path of this machine).
fn wrapper_name(lines: &mut Vec<String>) -> String {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(WRAPPER))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    match (me, on_path) {
        (Some(me), Some(found)) if me == found => WRAPPER.to_owned(),
        (Some(me), _) => {
            lines.push(format!("note: this cargo-yardstick is not the one on PATH, so the configuration names it by its path ({}): keep the file out of version control, or install cargo-yardstick (cargo install cargo-yardstick) and run init again", me.display()));
            me.display().to_string()
        }
        (None, _) => WRAPPER.to_owned(),
    }
}

/// Sets the wrapper as the host's linker, keeping a linker the project
/// had configured as the one the wrapper runs.
fn set_up(doc: &mut DocumentMut, triple: &str, wrapper: &str, layouts: u64) {
    let target = table(doc.as_table_mut(), "target");
    let host = table(target, triple);
    let before = host.get("linker").and_then(Item::as_str).map(str::to_owned);
    host["linker"] = value(wrapper);
    let env = table(doc.as_table_mut(), "env");
    env[LAYOUTS_VAR] = value(layouts.to_string());
    // A linker of the project's own (clang, mold's wrapper) stays the one
    // that links; the wrapper's own entry is never its own linker.
    if let Some(l) = before.filter(|l| !is_wrapper(l)) {
        env[LINKER_VAR] = value(l);
    }
}

/// Undoes [`set_up`]; whether there was anything to undo.
fn remove(doc: &mut DocumentMut, triple: &str) -> bool {
    let ours = doc
        .get("target")
        .and_then(|t| t.get(triple))
        .and_then(|h| h.get("linker"))
        .and_then(Item::as_str)
        .is_some_and(is_wrapper);
    if !ours {
        return false;
    }
    let mut restored = None;
    if let Some(env) = doc.get_mut("env").and_then(Item::as_table_mut) {
        env.remove(LAYOUTS_VAR);
        restored = env
            .remove(LINKER_VAR)
            .and_then(|i| i.as_str().map(str::to_owned));
    }
    let target = table(doc.as_table_mut(), "target");
    let host = table(target, triple);
    match restored {
        Some(l) => host["linker"] = value(l),
        None => drop(host.remove("linker")),
    }
    drop_empty(doc.as_table_mut(), &["env"]);
    if let Some(t) = doc.get_mut("target").and_then(Item::as_table_mut) {
        drop_empty(t, &[triple]);
    }
    drop_empty(doc.as_table_mut(), &["target"]);
    true
}

fn is_wrapper(linker: &str) -> bool {
    Path::new(linker).file_name().is_some_and(|f| f == WRAPPER)
}

/// The table `key` of `parent`, made when missing (implicit when it would
/// only hold tables, as `[target.x86_64-unknown-linux-gnu]` is written).
fn table<'a>(parent: &'a mut Table, key: &str) -> &'a mut Table {
    if !parent.get(key).is_some_and(Item::is_table) {
        let mut t = Table::new();
        t.set_implicit(key == "target");
        parent.insert(key, Item::Table(t));
    }
    parent[key].as_table_mut().expect("a table, made above")
}

fn drop_empty(parent: &mut Table, keys: &[&str]) {
    for key in keys {
        if parent
            .get(key)
            .and_then(Item::as_table)
            .is_some_and(Table::is_empty)
        {
            parent.remove(key);
        }
    }
}

/// The folder of the workspace's `Cargo.toml` (where cargo reads
/// `.cargo/config.toml` for every member).
fn workspace_root(dir: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["locate-project", "--workspace", "--message-format", "plain"])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run cargo locate-project: {e}"))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let line = why
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no Cargo.toml");
        return Err(format!(
            "{} is not in a cargo project ({})",
            dir.display(),
            line.trim()
        ));
    }
    let manifest = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    Ok(manifest
        .parent()
        .map_or(manifest.clone(), Path::to_path_buf))
}

/// `.cargo/config.toml`, or the older `.cargo/config` where only that one
/// exists (cargo reads the one it finds).
fn config_path(root: &Path) -> PathBuf {
    let dir = root.join(".cargo");
    let old = dir.join("config");
    if old.is_file() && !dir.join("config.toml").exists() {
        old
    } else {
        dir.join("config.toml")
    }
}

/// Writes the configuration, or removes the file when nothing is left in
/// it (init made it).
fn write(path: &Path, text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(format!("{}: cannot remove it: {e}", path.display())),
        };
    }
    crate::atomic::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: &str = "x86_64-unknown-linux-gnu";

    fn set(text: &str) -> String {
        let mut doc: DocumentMut = text.parse().unwrap();
        set_up(&mut doc, HOST, WRAPPER, 4);
        doc.to_string()
    }

    fn undone(text: &str) -> String {
        let mut doc: DocumentMut = text.parse().unwrap();
        assert!(remove(&mut doc, HOST));
        doc.to_string()
    }

    /// What cargo reads: the `toml` crate, not the editor that wrote it.
    fn read(text: &str) -> toml::Value {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn an_empty_project_gets_the_linker_and_the_count() {
        let text = set("");
        let v = read(&text);
        assert_eq!(
            v["target"][HOST]["linker"].as_str(),
            Some("cargo-yardstick")
        );
        assert_eq!(v["env"][LAYOUTS_VAR].as_str(), Some("4"));
        assert!(v["env"].get(LINKER_VAR).is_none());
        assert_eq!(undone(&text).trim(), "");
    }

    #[test]
    fn the_projects_own_linker_and_comments_are_kept_and_restored() {
        let before = "# our flags\n[build]\nrustflags = [\"-C\", \"target-cpu=native\"]\n\n[target.x86_64-unknown-linux-gnu]\nlinker = \"clang\" # for mold\n";
        let text = set(before);
        let v = read(&text);
        assert_eq!(
            v["target"][HOST]["linker"].as_str(),
            Some("cargo-yardstick")
        );
        assert_eq!(v["env"][LINKER_VAR].as_str(), Some("clang"));
        assert!(text.contains("# our flags"), "{text}");
        // Set up twice: the wrapper never becomes its own linker.
        let twice = set(&text);
        assert_eq!(read(&twice)["env"][LINKER_VAR].as_str(), Some("clang"));
        let after = read(&undone(&twice));
        assert_eq!(after["target"][HOST]["linker"].as_str(), Some("clang"));
        assert!(after.get("env").is_none());
        assert_eq!(
            after["build"]["rustflags"][1].as_str(),
            Some("target-cpu=native")
        );
    }

    #[test]
    fn removing_what_is_not_there_changes_nothing() {
        let mut doc: DocumentMut = "[target.x86_64-unknown-linux-gnu]\nlinker = \"clang\"\n"
            .parse()
            .unwrap();
        assert!(!remove(&mut doc, HOST));
        assert!(is_wrapper("/home/u/.cargo/bin/cargo-yardstick"));
        assert!(!is_wrapper("clang"));
    }
}

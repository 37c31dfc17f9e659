//! Where a build record is kept, and how a saved folder's is found. A
//! run's bench binary is kept once under the home's
//! [`BINARIES_DIR`](crate::binary::BINARIES_DIR), and its build record
//! once beside it (`<hash>-<size>.build.json`): one file a run, where a
//! file in every saved folder cost a write per folder (63 benchmarks saved
//! 126 of them). A folder names its binary in `binary.json`, and so its
//! build record. Results saved by the previous layout keep `build.json` in
//! the folder itself, and still read.

use std::fs;
use std::path::{Path, PathBuf};

use super::{BuildFile, FILE_NAME};
use crate::binary::{self, BinaryFile};

/// Where the build record of the kept binary `binary` names is kept under
/// `home`: beside the binary, its name and
/// [`BUILD_RECORD_SUFFIX`](binary::BUILD_RECORD_SUFFIX).
#[must_use]
pub fn kept_path(home: &Path, binary: &BinaryFile) -> PathBuf {
    let mut path = binary::kept_path(home, &binary.key(), &binary.binary).into_os_string();
    path.push(binary::BUILD_RECORD_SUFFIX);
    PathBuf::from(path)
}

/// The build record at `path`, read and checked; `None` when there is no
/// file.
///
/// # Errors
///
/// One line naming the file and what is wrong with it.
pub fn read_record(path: &Path) -> Result<Option<BuildFile>, String> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    crate::json::from_slice::<BuildFile>(&bytes)
        .map_err(|e| format!("not a valid build record ({e})"))
        .and_then(BuildFile::checked)
        .map(Some)
        .map_err(|problem| format!("{}: {problem}", path.display()))
}

/// How the binary that saved `folder` (a benchmark's `new/` or a
/// baseline, under `home`) was built: the record kept beside the binary
/// its `binary.json` names, else the folder's own `build.json` (saved by
/// the previous layout, or by a run that could not keep its binary);
/// `None` when neither is there (saved by Criterion.rs or an earlier
/// yardstick, or the binary's record was removed).
///
/// # Errors
///
/// One line naming the record that is unreadable or of another version.
pub fn of_folder(home: &Path, folder: &Path) -> Result<Option<BuildFile>, String> {
    // An unreadable binary.json is reported where the binary is used; here
    // it only means the folder's own record is the one to read.
    let named = fs::read(folder.join("binary.json"))
        .ok()
        .and_then(|b| crate::json::from_slice::<BinaryFile>(&b).ok())
        .and_then(|b| b.checked().ok());
    of_saved(home, folder, named.as_ref())
}

/// [`of_folder`] when the folder's `binary.json` is already read
/// (`binary`, `None` when it has none).
///
/// # Errors
///
/// As [`of_folder`].
pub fn of_saved(
    home: &Path,
    folder: &Path,
    binary: Option<&BinaryFile>,
) -> Result<Option<BuildFile>, String> {
    if let Some(b) = binary {
        if let Some(found) = read_record(&kept_path(home, b))? {
            return Ok(Some(found));
        }
    }
    read_record(&folder.join(FILE_NAME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("yardstick-kept-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn binary_file(name: &str) -> BinaryFile {
        BinaryFile {
            version: binary::VERSION,
            target: "spin".into(),
            binary: name.into(),
            protocol: 1,
            measurement: "wall".into(),
            package: Some("alpha".into()),
            layouts: Vec::new(),
        }
    }

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn build(rustc: &str) -> BuildFile {
        BuildFile {
            version: super::super::VERSION,
            rustc: rustc.into(),
            ..BuildFile::default()
        }
    }

    #[test]
    fn the_record_is_named_after_its_binary() {
        let b = binary_file("af63dc4c8601ec8c-1");
        let p = kept_path(Path::new("h"), &b);
        assert_eq!(
            p,
            Path::new("h/.binaries/alpha.spin/af63dc4c8601ec8c-1.build.json")
        );
        assert_eq!(
            binary::build_record_of("af63dc4c8601ec8c-1.build.json"),
            Some("af63dc4c8601ec8c-1")
        );
        // The binary itself, and names that are not a binary's, are not.
        assert_eq!(binary::build_record_of("af63dc4c8601ec8c-1"), None);
        assert_eq!(binary::build_record_of("../x.build.json"), None);
    }

    #[test]
    fn a_folder_finds_its_record_through_its_binary_then_its_own_file() {
        let h = home("folder");
        let folder = h.join("spin").join("base");
        let b = binary_file("af63dc4c8601ec8c-1");
        // Nothing: an earlier yardstick's folder.
        assert_eq!(of_folder(&h, &folder), Ok(None));
        // The previous layout: build.json in the folder.
        write(
            &folder.join(FILE_NAME),
            &crate::json::to_string(&build("rustc 1.0.0")),
        );
        assert_eq!(of_folder(&h, &folder), Ok(Some(build("rustc 1.0.0"))));
        // binary.json naming a binary without a record: still the folder's.
        write(&folder.join("binary.json"), &crate::json::to_string(&b));
        assert_eq!(of_folder(&h, &folder), Ok(Some(build("rustc 1.0.0"))));
        // The record beside the binary wins.
        write(
            &kept_path(&h, &b),
            &crate::json::to_string(&build("rustc 2.0.0")),
        );
        assert_eq!(of_folder(&h, &folder), Ok(Some(build("rustc 2.0.0"))));
        // A record of another version: one line naming the file.
        write(&kept_path(&h, &b), r#"{"version":9}"#);
        let e = of_folder(&h, &folder).unwrap_err();
        assert!(e.contains("af63dc4c8601ec8c-1.build.json"), "{e}");
        fs::remove_dir_all(&h).unwrap();
    }
}

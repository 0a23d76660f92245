//! Files and directories only their owner may read: the control plane's data directory and
//! what the plane and the CLI keep in it (the store with its secrets and bootstrap tokens,
//! private keys, kubeconfigs, the record, pid and log files).
//!
//! Every such file is created 0600 and every directory 0700, whatever the umask, and a file or
//! directory that already exists with a wider mode is narrowed: a data directory made by hand
//! with 0755, or state written by an older version, must not stay readable by other users.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The mode of every private directory.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every private file.
pub const FILE_MODE: u32 = 0o600;

/// Why a directory could not be made private.
#[derive(Debug, thiserror::Error)]
pub enum PrivateDirError {
    #[error("{} exists and is not a directory", path.display())]
    NotADirectory { path: PathBuf },
    /// Narrowing someone else's directory would take it from them (or fail); the plane keeps
    /// its secrets only in a directory of the user who runs it.
    #[error(
        "{} belongs to user id {owner}, not to the user running this command (id {user}); use a directory of your own, or give this one to user {user} with chown",
        path.display()
    )]
    NotOwned { path: PathBuf, owner: u32, user: u32 },
    #[error("cannot make {} private: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Makes `dir` a private directory: creates it (and missing parents) 0700, or, when it exists,
/// checks that it belongs to this user and narrows it to 0700.
pub fn adopt_dir(dir: &Path) -> Result<(), PrivateDirError> {
    let io = |source| PrivateDirError::Io { path: dir.to_path_buf(), source };
    let meta = match std::fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return std::fs::DirBuilder::new().recursive(true).mode(DIR_MODE).create(dir).map_err(io);
        }
        Err(e) => return Err(io(e)),
    };
    if !meta.is_dir() {
        return Err(PrivateDirError::NotADirectory { path: dir.to_path_buf() });
    }
    // SAFETY: geteuid has no preconditions.
    let user = unsafe { libc::geteuid() };
    if meta.uid() != user {
        return Err(PrivateDirError::NotOwned { path: dir.to_path_buf(), owner: meta.uid(), user });
    }
    if meta.mode() & 0o7777 != DIR_MODE {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE)).map_err(io)?;
    }
    Ok(())
}

/// Narrows an existing file to 0600 or directory to 0700. A missing path is fine (nothing to
/// protect); a symbolic link is left alone, so a link planted in the directory cannot make
/// this change the mode of a file elsewhere.
pub fn narrow(path: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let mode = if meta.is_dir() {
        DIR_MODE
    } else if meta.is_file() {
        FILE_MODE
    } else {
        return Ok(());
    };
    if meta.mode() & 0o7777 != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// Writes `contents` to `path` as a 0600 file: into a new temporary file next to it, then
/// renamed over it, so readers see the old file or the new one and the contents never sit in
/// a file with a wider mode.
pub fn write(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(path.file_name().unwrap_or_default());
    tmp_name.push(format!(".tmp-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        // create_new: never follow or reuse something already at the temporary name.
        let mut file = OpenOptions::new().write(true).create_new(true).mode(FILE_MODE).open(&tmp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        // Best effort: the temporary file may not exist if creating it was what failed.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Opens `path` for appending (a log), creating it 0600 and narrowing an existing one.
pub fn open_append(path: &Path) -> std::io::Result<File> {
    let file = OpenOptions::new().create(true).append(true).mode(FILE_MODE).open(path)?;
    if file.metadata()?.mode() & 0o7777 != FILE_MODE {
        file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))?;
    }
    Ok(file)
}

/// Creates `dir` and missing parents 0700; an existing directory is narrowed to 0700.
pub fn create_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::DirBuilder::new().recursive(true).mode(DIR_MODE).create(dir)?;
    narrow(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn adopting_creates_or_narrows() {
        let tmp = tempfile::tempdir().unwrap();
        let fresh = tmp.path().join("a/b");
        adopt_dir(&fresh).unwrap();
        assert_eq!((mode(&fresh), mode(&tmp.path().join("a"))), (0o700, 0o700));

        let loose = tmp.path().join("loose");
        std::fs::create_dir(&loose).unwrap();
        std::fs::set_permissions(&loose, std::fs::Permissions::from_mode(0o755)).unwrap();
        adopt_dir(&loose).unwrap();
        assert_eq!(mode(&loose), 0o700);

        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let err = adopt_dir(&file).unwrap_err();
        assert!(matches!(err, PrivateDirError::NotADirectory { .. }), "{err}");
    }

    #[test]
    fn a_directory_of_another_user_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let theirs = tmp.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o755)).unwrap();
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        let other = if me == 0 { 65534 } else { me };
        if me == 0 {
            std::os::unix::fs::chown(&theirs, Some(other), None).unwrap();
            let err = adopt_dir(&theirs).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "{} belongs to user id {other}, not to the user running this command (id 0); use a directory of your own, or give this one to user 0 with chown",
                    theirs.display()
                )
            );
            assert_eq!(mode(&theirs), 0o755, "the directory was changed");
        } else {
            // Without root the directory cannot be given away; this user's own is adopted.
            adopt_dir(&theirs).unwrap();
            assert_eq!(mode(&theirs), 0o700);
        }
    }

    #[test]
    fn files_are_written_and_narrowed_owner_only() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("record.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!((std::fs::read_to_string(&path).unwrap().as_str(), mode(&path)), ("new", 0o600));
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "no temporary file is left");

        let log = tmp.path().join("log");
        std::fs::write(&log, "line\n").unwrap();
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o666)).unwrap();
        open_append(&log).unwrap().write_all(b"more\n").unwrap();
        assert_eq!((std::fs::read_to_string(&log).unwrap().as_str(), mode(&log)), ("line\nmore\n", 0o600));

        let target = tmp.path().join("elsewhere");
        std::fs::write(&target, "").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        narrow(&link).unwrap();
        narrow(&tmp.path().join("missing")).unwrap();
        assert_eq!(mode(&target), 0o644, "a link is not followed");
    }
}

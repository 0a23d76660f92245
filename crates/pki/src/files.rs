//! Certificate and key files in a PKI directory: `<name>.crt` (0644) and `<name>.key` (0600).

use std::fs::{self, DirBuilder, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::{PkiError, random};

/// A certificate and its key, as PEM text.
#[derive(Clone, PartialEq, Eq)]
pub struct PemPair {
    pub cert_pem: String,
    pub key_pem: String,
}

impl std::fmt::Debug for PemPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PemPair").field("cert_pem", &self.cert_pem).field("key_pem", &"<redacted>").finish()
    }
}

/// `<dir>/<name>.crt`.
pub fn cert_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.crt"))
}

/// `<dir>/<name>.key`.
pub fn key_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.key"))
}

/// Writes `<name>.crt` and `<name>.key` into `dir` (created, mode 0755, if missing) and
/// returns their paths, certificate first.
pub fn write_pair(dir: &Path, name: &str, pair: &PemPair) -> Result<(PathBuf, PathBuf), PkiError> {
    let key = write_key(dir, name, &pair.key_pem)?;
    let cert = write_cert(dir, name, &pair.cert_pem)?;
    Ok((cert, key))
}

/// Writes `<dir>/<name>.crt` with mode 0644 (less if the umask says so).
pub fn write_cert(dir: &Path, name: &str, cert_pem: &str) -> Result<PathBuf, PkiError> {
    check_name(name)?;
    let path = cert_path(dir, name);
    write_atomically(&path, cert_pem.as_bytes(), 0o644)?;
    Ok(path)
}

/// Writes `<dir>/<name>.key` with mode 0600. The file is created with that mode, so the key is
/// never readable by others, not even for a moment.
pub fn write_key(dir: &Path, name: &str, key_pem: &str) -> Result<PathBuf, PkiError> {
    check_name(name)?;
    let path = key_path(dir, name);
    write_atomically(&path, key_pem.as_bytes(), 0o600)?;
    Ok(path)
}

/// Writes `<name>.crt` and `<name>.key` into `dir` with both files owner-only (0600): for a
/// PKI kept in a private directory, where nothing else needs to read the certificates.
pub fn write_private_pair(dir: &Path, name: &str, pair: &PemPair) -> Result<(PathBuf, PathBuf), PkiError> {
    check_name(name)?;
    let (cert, key) = (cert_path(dir, name), key_path(dir, name));
    write_atomically(&key, pair.key_pem.as_bytes(), 0o600)?;
    write_atomically(&cert, pair.cert_pem.as_bytes(), 0o600)?;
    Ok((cert, key))
}

/// Reads `<dir>/<name>.crt` and `<dir>/<name>.key`.
pub fn read_pair(dir: &Path, name: &str) -> Result<PemPair, PkiError> {
    check_name(name)?;
    let read = |path: PathBuf| fs::read_to_string(&path).map_err(|source| PkiError::Read { path, source });
    Ok(PemPair { cert_pem: read(cert_path(dir, name))?, key_pem: read(key_path(dir, name))? })
}

fn check_name(name: &str) -> Result<(), PkiError> {
    let reason = if name.is_empty() {
        "it is empty"
    } else if name.contains('/') || name.contains('\0') {
        "it contains a slash or a NUL byte"
    } else if name == "." || name == ".." {
        "it names a directory"
    } else {
        return Ok(());
    };
    Err(PkiError::InvalidFileName { name: name.to_owned(), reason })
}

/// Writes a temporary file next to `path` with `mode`, then renames it over `path`: readers
/// see the old file or the new one, never half of one, and a key never sits in a file that
/// had wider permissions before.
fn write_atomically(path: &Path, contents: &[u8], mode: u32) -> Result<(), PkiError> {
    let write_err = |source| PkiError::Write { path: path.to_owned(), source };
    let dir = path.parent().unwrap_or(Path::new("."));
    DirBuilder::new().recursive(true).mode(0o755).create(dir).map_err(write_err)?;
    let mut suffix = [0u8; 8];
    random::fill(&mut suffix).map_err(|_| PkiError::Random)?;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.{}.tmp", suffix.iter().map(|b| format!("{b:02x}")).collect::<String>()));
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).mode(mode).open(&tmp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        // Best effort: the temporary file may not exist if creating it was what failed.
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(write_err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn writes_and_reads_back_with_modes() {
        let dir = tempfile::tempdir().unwrap();
        let pki = dir.path().join("nested/pki");
        let pair = PemPair { cert_pem: "CERT\n".into(), key_pem: "KEY\n".into() };
        let (cert, key) = write_pair(&pki, "ca", &pair).unwrap();
        assert_eq!(cert, pki.join("ca.crt"));
        assert_eq!(key, pki.join("ca.key"));
        assert_eq!(fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(read_pair(&pki, "ca").unwrap(), pair);
        // Replacing keeps the mode and leaves no temporary files behind.
        write_key(&pki, "ca", "KEY2\n").unwrap();
        assert_eq!(fs::read_to_string(&key).unwrap(), "KEY2\n");
        assert_eq!(fs::read_dir(&pki).unwrap().count(), 2);
    }

    #[test]
    fn replaces_a_world_readable_key_with_a_private_one() {
        let dir = tempfile::tempdir().unwrap();
        let key = key_path(dir.path(), "k");
        fs::write(&key, "old").unwrap();
        fs::set_permissions(&key, fs::Permissions::from_mode(0o644)).unwrap();
        write_key(dir.path(), "k", "new").unwrap();
        assert_eq!(fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn refuses_names_that_escape_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["", "../x", "a/b", "..", "."] {
            assert!(matches!(write_cert(dir.path(), name, "x"), Err(PkiError::InvalidFileName { .. })), "{name}");
        }
    }

    #[test]
    fn missing_files_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_pair(dir.path(), "nope").unwrap_err();
        assert!(e.to_string().ends_with("nope.crt"), "{e}");
        assert!(e.hint().is_some());
    }
}

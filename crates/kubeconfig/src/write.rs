//! Serialising kubeconfigs in kubectl's key order and writing them atomically with mode 0600.

use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use kube::config::Kubeconfig;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use super::KubeconfigError;
use super::load::parse;

/// Mode of kubeconfig files this module creates: they hold credentials.
pub const KUBECONFIG_FILE_MODE: u32 = 0o600;
/// Mode of directories this module creates for kubeconfig files.
pub const KUBECONFIG_DIR_MODE: u32 = 0o700;

/// Serialises a kubeconfig as YAML the way kubectl writes it: keys sorted alphabetically at
/// every level (so `apiVersion, clusters, contexts, current-context, kind, preferences, users`
/// at the top, `certificate-authority-data` before `server`, `name` before `user`), unset
/// fields left out, long base64 strings kept on one plain line.
pub fn to_yaml(kc: &Kubeconfig) -> Result<String, KubeconfigError> {
    let encode = |detail: String| KubeconfigError::Encode { detail };
    // kube's structs serialise in declaration order; going through a JSON value lets the
    // emitter below sort the keys. kube's serializer also exposes the secret fields here.
    let value = serde_json::to_value(kc).map_err(|e| encode(e.to_string()))?;
    let mut options = serde_saphyr::SerializerOptions::default();
    // Folded block scalars (`>-`) for long base64 strings are valid YAML but not what kubectl
    // writes; plain scalars are what every kubeconfig reader expects.
    options.prefer_block_scalars = false;
    serde_saphyr::to_string_with_options(&Sorted(&value), options).map_err(|e| encode(e.to_string()))
}

/// Emits a JSON value with map keys sorted and null map entries dropped (kubectl omits empty
/// fields). Sorting here rather than relying on serde_json's map order keeps the output stable
/// even if serde_json's `preserve_order` feature gets enabled by another crate.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().filter(|(_, v)| !v.is_null()).collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                let mut out = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    out.serialize_entry(k, &Sorted(v))?;
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Sorted(item))?;
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

/// Writes a kubeconfig to `path` atomically with mode 0600, creating missing parent
/// directories with mode 0700.
pub fn write_file(path: &Path, kc: &Kubeconfig) -> Result<(), KubeconfigError> {
    write_file_with_mode(path, kc, KUBECONFIG_FILE_MODE)
}

/// Like [`write_file`] with another file mode (upstream `init` writes its admin kubeconfig
/// with 0640). The mode is applied at creation (subject to the umask), never by a later chmod,
/// so the file is never readable by others even for a moment.
pub fn write_file_with_mode(path: &Path, kc: &Kubeconfig, mode: u32) -> Result<(), KubeconfigError> {
    let yaml = to_yaml(kc)?;
    write_bytes_atomic(path, yaml.as_bytes(), mode)
}

/// Writes bytes through a temporary file in the same directory and renames it over `path`,
/// so readers see either the old or the new file, never half of one.
fn write_bytes_atomic(path: &Path, bytes: &[u8], mode: u32) -> Result<(), KubeconfigError> {
    let write_err = |source| KubeconfigError::Write { path: path.to_path_buf(), source };
    let file_name = path.file_name().ok_or_else(|| {
        write_err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path does not end in a file name"))
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(KUBECONFIG_DIR_MODE)
        .create(&dir)
        .map_err(|source| KubeconfigError::CreateDir { path: dir.clone(), source })?;

    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(format!(".tmp-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    let tmp = dir.join(tmp_name);

    let result = (|| {
        // create_new: never follow or reuse something already at the temporary name.
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(mode).open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // Persist the rename itself; a failure here does not undo a completed write.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(write_err)
}

/// Adds the clusters, users and contexts of `new` to `base`, replacing entries of the same
/// name in place (the new definition wins) and keeping everything else, unknown keys
/// included. With `set_current_context`, `new`'s current-context becomes `base`'s.
pub fn merge_entries(base: &mut Kubeconfig, new: &Kubeconfig, set_current_context: bool) {
    fn upsert<T: Clone>(list: &mut Vec<T>, items: &[T], name: impl Fn(&T) -> &str) {
        for item in items {
            match list.iter_mut().find(|x| name(x) == name(item)) {
                Some(slot) => *slot = item.clone(),
                None => list.push(item.clone()),
            }
        }
    }
    upsert(&mut base.clusters, &new.clusters, |c| &c.name);
    upsert(&mut base.auth_infos, &new.auth_infos, |u| &u.name);
    upsert(&mut base.contexts, &new.contexts, |c| &c.name);
    if set_current_context && new.current_context.is_some() {
        base.current_context = new.current_context.clone();
    }
    base.api_version.get_or_insert_with(|| "v1".into());
    base.kind.get_or_insert_with(|| "Config".into());
}

/// Merges `new` into the kubeconfig file at `path` (see [`merge_entries`]) and writes it back
/// atomically with mode 0600. A missing file is created. Relative paths in the existing file
/// are kept as written. Comments in the existing file are not kept (kubectl drops them too),
/// and there is no lock against concurrent writers.
pub fn merge_into_file(path: &Path, new: &Kubeconfig, set_current_context: bool) -> Result<(), KubeconfigError> {
    let mut base = match std::fs::read(path) {
        Ok(bytes) => parse(path, &bytes)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Kubeconfig::default(),
        Err(source) => return Err(KubeconfigError::Read { path: path.to_path_buf(), source }),
    };
    if base.preferences.is_none() {
        base.preferences = Some(Default::default());
    }
    merge_entries(&mut base, new, set_current_context);
    write_file(path, &base)
}

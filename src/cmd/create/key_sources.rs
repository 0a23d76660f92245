//! The keys of `create configmap` and `create secret generic`: `--from-literal=KEY=VALUE`,
//! `--from-file=[KEY=]PATH` (a directory adds each regular file), `--from-env-file=PATH`,
//! read and checked as kubectl reads them, and `--append-hash`'s name suffix.

use std::path::Path;

use karmadactl_apimachinery::{max_len_error, regex_error};
use sha2::Digest;

/// The most bytes one key file may hold: the API server refuses objects over about 1 MiB, so
/// anything much larger is a wrong path.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// One key's value: text, or bytes that are not UTF-8 (a ConfigMap's `binaryData`).
pub enum Content {
    Text(String),
    Binary(Vec<u8>),
}

fn chdir_prefix(value: &str) -> Option<String> {
    match value {
        "." => Some("must not be '.'".into()),
        ".." => Some("must not be '..'".into()),
        v if v.starts_with("..") => Some("must not start with '..'".into()),
        _ => None,
    }
}

/// Go's `IsConfigMapKey` (Secrets use it too).
pub fn config_map_key_errors(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if key.len() > 253 {
        errs.push(max_len_error(253));
    }
    if key.is_empty() || !key.bytes().all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c)) {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(chdir_prefix(key));
    errs
}

/// Go's `IsEnvVarName`.
fn env_var_name_errors(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let valid = key.bytes().next().is_some_and(|c| c.is_ascii_alphabetic() || b"-._".contains(&c))
        && key.bytes().all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c));
    if !valid {
        errs.push(regex_error(
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
            "[-._a-zA-Z][-._a-zA-Z0-9]*",
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    errs.extend(chdir_prefix(key));
    errs
}

/// kubectl's `ParseLiteralSource`.
pub fn literal(source: &str) -> Result<(String, String), String> {
    match source.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("invalid literal source {source}, expected key=value")),
    }
}

/// kubectl's `ParseFileSource`: the key and the path.
pub fn file_source(source: &str) -> Result<(String, String), String> {
    let separators = source.matches('=').count();
    match separators {
        0 => {
            let base = source.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
            let key = if base.is_empty() { if source.starts_with('/') { "/" } else { "." } } else { base };
            Ok((key.to_string(), source.to_string()))
        }
        1 if source.starts_with('=') => Err(format!("key name for file path {} missing", &source[1..])),
        1 if source.ends_with('=') => Err(format!("file path for key name {} missing", &source[..source.len() - 1])),
        1 => {
            let (k, p) = source.split_once('=').unwrap_or_default();
            Ok((k.to_string(), p.to_string()))
        }
        _ => Err("key names or file paths cannot contain '='".into()),
    }
}

/// A file's bytes, at most `MAX_FILE_BYTES`, failures in Go's words.
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("open {}: {}", path.display(), os_error(&e)))?;
    let mut data = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut data)
        .map_err(|e| format!("read {}: {}", path.display(), os_error(&e)))?;
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("{} is larger than {MAX_FILE_BYTES} bytes", path.display()));
    }
    Ok(data)
}

/// Go's wording of an OS error (`no such file or directory`).
fn os_error(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => {
            let t = &text[..i];
            let mut c = t.chars();
            c.next().map(|f| f.to_lowercase().collect::<String>() + c.as_str()).unwrap_or_default()
        }
        None => text,
    }
}

/// The keys of one `--from-file` source, in kubectl's order (a directory's entries sorted).
pub fn files(source: &str) -> Result<Vec<(String, Content)>, String> {
    let (key, path) = file_source(source)?;
    let meta = std::fs::metadata(&path).map_err(|e| format!("error reading {path}: {}", os_error(&e)))?;
    let content = |p: &Path| -> Result<Content, String> {
        let data = read_file(p)?;
        Ok(match String::from_utf8(data) {
            Ok(text) => Content::Text(text),
            Err(e) => Content::Binary(e.into_bytes()),
        })
    };
    if !meta.is_dir() {
        return Ok(vec![(key, content(Path::new(&path))?)]);
    }
    if source.contains('=') {
        return Err("cannot give a key name for a directory path".into());
    }
    let mut entries: Vec<_> = std::fs::read_dir(&path)
        .map_err(|e| format!("error listing files in {path}: {}", os_error(&e)))?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .collect();
    entries.sort_by_key(|e| e.file_name());
    let mut out = Vec::new();
    for e in entries {
        out.push((e.file_name().to_string_lossy().into_owned(), content(&e.path())?));
    }
    Ok(out)
}

/// The pairs of one `--from-env-file`, as kubectl's `AddFromEnvFile` reads them.
pub fn env_file(path: &str, directory_error: &str) -> Result<Vec<(String, String)>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("error reading {path}: {}", os_error(&e)))?;
    if meta.is_dir() {
        return Err(directory_error.into());
    }
    let data = read_file(Path::new(path))?;
    let mut out = Vec::new();
    for (i, line) in data.split(|b| *b == b'\n').enumerate() {
        let Ok(mut line) = std::str::from_utf8(line) else {
            return Err(format!("env file {path} contains invalid utf8 bytes at line {}: {line:?}", i + 1));
        };
        if i == 0 {
            line = line.trim_start_matches('\u{feff}');
        }
        let line = line.trim_start().trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (line.to_string(), std::env::var(line).unwrap_or_default()),
        };
        let errs = env_var_name_errors(&key);
        if !errs.is_empty() {
            return Err(format!("{key:?} is not a valid key name: {}", errs.join(";")));
        }
        out.push((key, value));
    }
    Ok(out)
}

/// kubectl's `encodeHash(hash(...))`: the first ten hex digits of the SHA-256 of `encoded`,
/// with the letters that could spell words swapped.
pub fn name_hash(encoded: &str) -> String {
    let hex = format!("{:x}", sha2::Sha256::digest(encoded.as_bytes()));
    hex[..10]
        .chars()
        .map(|c| match c {
            '0' => 'g',
            '1' => 'h',
            '3' => 'k',
            'a' => 'm',
            'e' => 't',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_as_kubectl_parses_them() {
        assert_eq!(literal("a=b=c").unwrap(), ("a".into(), "b=c".into()));
        assert_eq!(literal("=b").unwrap_err(), "invalid literal source =b, expected key=value");
        assert_eq!(literal("ab").unwrap_err(), "invalid literal source ab, expected key=value");
        assert_eq!(file_source("dir/f.txt").unwrap(), ("f.txt".into(), "dir/f.txt".into()));
        assert_eq!(file_source("k=dir/f.txt").unwrap(), ("k".into(), "dir/f.txt".into()));
        assert_eq!(file_source("=p").unwrap_err(), "key name for file path p missing");
        assert_eq!(file_source("k=").unwrap_err(), "file path for key name k missing");
        assert_eq!(file_source("a=b=c").unwrap_err(), "key names or file paths cannot contain '='");
    }

    #[test]
    fn keys_are_checked() {
        assert!(config_map_key_errors("a.b_c-1").is_empty());
        assert_eq!(config_map_key_errors("..x"), vec!["must not start with '..'".to_string()]);
        assert_eq!(config_map_key_errors("a b").len(), 1);
        assert!(env_var_name_errors("1X")[0].starts_with("a valid environment variable name"));
    }

    #[test]
    fn hashes_avoid_words() {
        // kubectl's own test vectors (hash_test.go), as its encodeConfigMap writes them.
        assert_eq!(name_hash(r#"{"data":{},"kind":"ConfigMap","name":""}"#), "42745tchd9");
        assert_eq!(name_hash(r#"{"data":{"one":""},"kind":"ConfigMap","name":""}"#), "9g67k2htb6");
    }
}

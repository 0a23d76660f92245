//! Reading `-f` arguments as kubectl's resource builder does for local files: a file, every
//! `.json`/`.yaml`/`.yml` file of a directory (its subdirectories too with `-R`), `-` for
//! standard input, or an http(s) URL; each file may hold several YAML documents or one JSON
//! document. Every document keeps where it came from, for `interpret --check`'s `SOURCE:` line
//! and `--edit`, which writes the file back, and for the objects `label`, `annotate` and the
//! other kubectl-like commands act on.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The most bytes one source may hold: customizations and test objects are small, and a
/// wrong path (a disk image, `/dev/zero`) must not fill memory.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Where a document came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A local file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// An http(s) URL.
    Url(String),
}

impl Origin {
    /// The name kubectl shows for it.
    pub fn display(&self) -> String {
        match self {
            Self::File(p) => p.display().to_string(),
            Self::Stdin => "STDIN".into(),
            Self::Url(u) => u.clone(),
        }
    }
}

/// One parsed document of a source.
#[derive(Debug, Clone)]
pub struct Document {
    pub origin: Origin,
    pub object: Value,
    /// Whether the source was JSON (`--edit` writes it back in the same format).
    pub json: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("the path \"{0}\" does not exist")]
    Missing(String),
    #[error("cannot read {0}: {1}")]
    Read(String, String),
    #[error("{0} is larger than {MAX_SOURCE_BYTES} bytes")]
    TooLarge(String),
    #[error("error parsing {0}: {1}")]
    Parse(String, String),
    #[error(transparent)]
    Download(#[from] crate::download::DownloadError),
}

/// Every document of every `-f` argument, in order. Empty documents are skipped.
pub async fn read_all(filenames: &[String], recursive: bool) -> Result<Vec<Document>, SourceError> {
    let mut out = Vec::new();
    for name in filenames {
        for (origin, text) in read_source(name, recursive).await? {
            out.extend(parse(&origin, &text)?);
        }
    }
    Ok(out)
}

/// The texts behind one `-f` argument.
async fn read_source(name: &str, recursive: bool) -> Result<Vec<(Origin, String)>, SourceError> {
    if name == "-" {
        let mut text = String::new();
        std::io::stdin()
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| SourceError::Read("STDIN".into(), e.to_string()))?;
        return bounded(Origin::Stdin, text).map(|t| vec![t]);
    }
    if name.starts_with("http://") || name.starts_with("https://") {
        let bytes = crate::download::fetch(name).await?;
        let text = String::from_utf8(bytes).map_err(|e| SourceError::Read(name.into(), e.to_string()))?;
        return bounded(Origin::Url(name.into()), text).map(|t| vec![t]);
    }
    let path = Path::new(name);
    if !path.exists() {
        return Err(SourceError::Missing(name.into()));
    }
    if path.is_dir() {
        let mut files = Vec::new();
        collect_dir(path, recursive, &mut files)?;
        return files.into_iter().map(read_file).collect();
    }
    read_file(path.to_path_buf()).map(|t| vec![t])
}

/// A directory's manifest files in name order, as kubectl visits them.
fn collect_dir(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) -> Result<(), SourceError> {
    let read_err = |e: std::io::Error| SourceError::Read(dir.display().to_string(), e.to_string());
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_err)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read_err)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if recursive {
                collect_dir(&path, recursive, out)?;
            }
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "json" | "yaml" | "yml")) {
            out.push(path);
        }
    }
    Ok(())
}

fn read_file(path: PathBuf) -> Result<(Origin, String), SourceError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(&path).map_err(|e| SourceError::Read(shown.clone(), e.to_string()))?;
    let mut text = String::new();
    file.take(MAX_SOURCE_BYTES + 1).read_to_string(&mut text).map_err(|e| SourceError::Read(shown, e.to_string()))?;
    bounded(Origin::File(path), text)
}

fn bounded(origin: Origin, text: String) -> Result<(Origin, String), SourceError> {
    if text.len() as u64 > MAX_SOURCE_BYTES {
        return Err(SourceError::TooLarge(origin.display()));
    }
    Ok((origin, text))
}

/// The documents of one source: a JSON document, or a YAML stream (checked against alias
/// bombs document by document, as the API server checks bodies).
pub fn parse(origin: &Origin, text: &str) -> Result<Vec<Document>, SourceError> {
    let parse_err = |e: String| SourceError::Parse(origin.display(), e);
    if text.trim_start().starts_with('{') {
        let object: Value = serde_json::from_str(text).map_err(|e| parse_err(e.to_string()))?;
        return Ok(vec![Document { origin: origin.clone(), object, json: true }]);
    }
    let mut out = Vec::new();
    for doc in split_yaml(text) {
        let object = karmadactl_apimachinery::from_yaml(doc).map_err(parse_err)?;
        if object.is_null() {
            continue;
        }
        out.push(Document { origin: origin.clone(), object, json: false });
    }
    Ok(out)
}

/// Splits a YAML stream at `---` lines, as kubectl's YAML reader does.
fn split_yaml(text: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "---" || line.starts_with("--- ") {
            docs.push(&text[start..offset]);
            start = offset + line.len();
        }
        offset += line.len();
    }
    docs.push(&text[start..]);
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_streams_split_and_empty_documents_are_skipped() {
        let origin = Origin::Stdin;
        let docs = parse(&origin, "---\na: 1\n---\n# only a comment\n---\nb: 2\n").unwrap();
        let objects: Vec<_> = docs.iter().map(|d| d.object.clone()).collect();
        assert_eq!(objects, vec![serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
        assert!(!docs[0].json);
    }

    #[test]
    fn json_documents_are_marked_as_json() {
        let docs = parse(&Origin::Stdin, " {\"a\": 1}").unwrap();
        assert!(docs[0].json);
    }

    #[test]
    fn a_bad_document_names_its_source() {
        let err = parse(&Origin::File("x.yaml".into()), "a: [1\n").unwrap_err();
        assert!(err.to_string().starts_with("error parsing x.yaml: "), "{err}");
    }
}

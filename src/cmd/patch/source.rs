//! The patch itself: its type (`--type`), where it comes from (`-p` or `--patch-file`), and
//! the checks kubectl makes of both before anything is read from a server.

use std::io::Read;

use super::PatchArgs;
use crate::cmd::objects::pairs::DryRun;

/// The most bytes a `--patch-file` may hold: the API server takes no larger request body.
const MAX_PATCH_BYTES: u64 = 3 << 20;

/// kubectl's `--type` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    Json,
    Merge,
    Strategic,
}

impl PatchType {
    /// Case-insensitively, as kubectl looks the value up.
    fn parse(s: &str) -> Option<Self> {
        match s.to_lowercase().as_str() {
            "json" => Some(Self::Json),
            "merge" => Some(Self::Merge),
            "strategic" => Some(Self::Strategic),
            _ => None,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Json => "application/json-patch+json",
            Self::Merge => "application/merge-patch+json",
            Self::Strategic => "application/strategic-merge-patch+json",
        }
    }
}

/// kubectl's `Validate`, in its order.
pub fn validate(args: &PatchArgs, dry_run: DryRun) -> Result<PatchType, String> {
    let given = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.is_empty());
    match (given(&args.patch), given(&args.patch_file)) {
        (true, true) => return Err("cannot specify --patch and --patch-file together".into()),
        (false, false) => {
            return Err("must specify --patch or --patch-file containing the contents of the patch".into());
        }
        _ => {}
    }
    if args.local && !args.args.is_empty() {
        return Err("cannot specify --local and server resources".into());
    }
    if args.local && dry_run == DryRun::Server {
        return Err("cannot specify --local and --dry-run=server - did you mean --dry-run=client?".into());
    }
    match args.patch_type.as_str() {
        "" => Ok(PatchType::Strategic),
        t => PatchType::parse(t).ok_or_else(|| format!("--type must be one of [json merge strategic], not {t:?}")),
    }
}

/// The patch as JSON: `-p`'s text or the file's, YAML converted as kubectl's `yaml.ToJSON`
/// converts it (text starting with `{` is taken as JSON, unchecked: the server judges it).
pub fn read(patch: Option<&str>, patch_file: Option<&str>) -> Result<Vec<u8>, String> {
    let text = match patch_file.filter(|f| !f.is_empty()) {
        Some(path) => read_bounded(path).map_err(|e| format!("unable to read patch file: {e}"))?,
        None => patch.unwrap_or_default().as_bytes().to_vec(),
    };
    if text.trim_ascii_start().starts_with(b"{") {
        return Ok(text);
    }
    // kubectl quotes -p here even when the patch came from a file.
    let unparsable = |e: String| {
        // The parser's first line: its diagnostic drawing does not fit on kubectl's one line.
        let first = e.lines().next().unwrap_or_default();
        format!(
            "unable to parse {:?}: yaml: {}",
            patch.unwrap_or_default(),
            first.strip_prefix("error: ").unwrap_or(first)
        )
    };
    let text = String::from_utf8(text).map_err(|e| unparsable(e.to_string()))?;
    let value = karmadactl_apimachinery::from_yaml(&text).map_err(unparsable)?;
    serde_json::to_vec(&value).map_err(|e| unparsable(e.to_string()))
}

/// The file's bytes, refused past [`MAX_PATCH_BYTES`]; errors worded as Go's `os.ReadFile`.
fn read_bounded(path: &str) -> Result<Vec<u8>, String> {
    let go_text = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => format!("open {path}: no such file or directory"),
        std::io::ErrorKind::PermissionDenied => format!("open {path}: permission denied"),
        std::io::ErrorKind::IsADirectory => format!("read {path}: is a directory"),
        _ => format!("read {path}: {e}"),
    };
    let file = std::fs::File::open(path).map_err(go_text)?;
    let mut out = Vec::new();
    file.take(MAX_PATCH_BYTES + 1).read_to_end(&mut out).map_err(go_text)?;
    if out.len() as u64 > MAX_PATCH_BYTES {
        return Err(format!("read {path}: the patch is larger than {MAX_PATCH_BYTES} bytes"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_passes_through_and_yaml_becomes_json() {
        assert_eq!(read(Some(" {bad"), None).unwrap(), b" {bad");
        assert_eq!(read(Some("spec:\n  replicas: 2"), None).unwrap(), br#"{"spec":{"replicas":2}}"#);
        assert_eq!(read(Some("[1]"), None).unwrap(), b"[1]");
        assert_eq!(
            read(None, Some("/nonexistent/p.json")).unwrap_err(),
            "unable to read patch file: open /nonexistent/p.json: no such file or directory"
        );
    }

    #[test]
    fn types_are_read_case_insensitively() {
        assert_eq!(PatchType::parse("JSON"), Some(PatchType::Json));
        assert_eq!(PatchType::parse("Merge"), Some(PatchType::Merge));
        assert_eq!(PatchType::parse("apply"), None);
    }
}

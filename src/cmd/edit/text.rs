//! The edited file's text as kubectl handles it: the header comment with the reasons of a
//! failed save, comments stripped for comparison, and whether anything is left.

/// Why the file was reopened: a heading and its details.
#[derive(Debug, Default, Clone)]
pub struct Reason {
    pub head: String,
    pub other: Vec<String>,
}

/// kubectl's `hashOnLineBreak`: continues a multi-line text as comments.
fn hash_on_line_break(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::new();
    for (i, ch) in s.char_indices() {
        if ch == '\n' && bytes.get(i + 1).is_some_and(|b| *b != b'#') {
            out.push_str("\n# ");
        } else {
            out.push(ch);
        }
    }
    out
}

/// The comment at the top of the YAML file, with the reasons of the last failed save.
pub fn header(reasons: &[Reason]) -> String {
    let mut out = String::from(
        "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n",
    );
    for r in reasons {
        match r.other.is_empty() {
            true => out.push_str(&format!("# {}\n", hash_on_line_break(&r.head))),
            false => out.push_str(&format!("# {}:\n", hash_on_line_break(&r.head))),
        }
        for o in &r.other {
            out.push_str(&format!("# * {}\n", hash_on_line_break(o)));
        }
        out.push_str("#\n");
    }
    out
}

/// kubectl's `ManualStrip`: drops comment lines (not `#!`).
pub fn manual_strip(file: &[u8]) -> Vec<u8> {
    let lines: Vec<&[u8]> = file.split(|b| *b == b'\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_ascii();
        if trimmed.starts_with(b"#") && !trimmed.starts_with(b"#!") {
            continue;
        }
        out.extend_from_slice(line);
        if i < lines.len() - 1 {
            out.push(b'\n');
        }
    }
    out
}

/// kubectl's `StripComments`: the document as JSON when it parses, else without comment lines.
pub fn strip_comments(file: &[u8]) -> Vec<u8> {
    match std::str::from_utf8(file).ok().and_then(|t| karmadactl_apimachinery::from_yaml(t).ok()) {
        Some(v) => serde_json::to_vec(&v).unwrap_or_default(),
        None => manual_strip(file),
    }
}

/// kubectl's `hasLines`: a line that is neither blank nor a comment.
pub fn has_lines(file: &[u8]) -> bool {
    file.split(|b| *b == b'\n').any(|l| {
        let t = l.trim_ascii();
        !t.is_empty() && t[0] != b'#'
    })
}

/// Why an edit ends without a change, as kubectl says it: the file came back as it was sent
/// (comments aside), or with nothing left in it.
pub fn cancelled(original: &[u8], edited: &[u8]) -> Option<&'static str> {
    if strip_comments(original) == strip_comments(edited) {
        return Some("Edit cancelled, no changes made.");
    }
    (!has_lines(edited)).then_some("Edit cancelled, saved file was empty.")
}

/// The editor's text: LF, or CRLF as kubectl's CRLF writer makes it (`--windows-line-endings`).
pub fn line_endings(text: Vec<u8>, windows: bool) -> Vec<u8> {
    if !windows {
        return text;
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 16);
    for b in text {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_continue_as_comments() {
        let text =
            header(&[Reason { head: "deployments.apps \"web\" was not valid".into(), other: vec!["a: b\nc".into()] }]);
        assert!(text.ends_with("# deployments.apps \"web\" was not valid:\n# * a: b\n# c\n#\n"), "{text}");
    }

    #[test]
    fn comments_are_stripped() {
        assert_eq!(manual_strip(b"# x\na: 1\n  # y\n#!keep\n"), b"a: 1\n#!keep\n");
        assert!(has_lines(b"# x\n\n a: 1"));
        assert!(!has_lines(b"# x\n\n   \n"));
        assert_eq!(strip_comments(b"# c\na: 1\n"), strip_comments(b"a: 1"));
        assert_eq!(strip_comments(&line_endings(b"# c\na: 1\n".to_vec(), true)), strip_comments(b"a: 1"));
        assert_eq!(line_endings(b"a\nb\n".to_vec(), true), b"a\r\nb\r\n");
    }
}

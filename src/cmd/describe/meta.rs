//! The object metadata lines every describer prints: labels and annotations one per line in
//! key order, `<none>` when there are none, long or multi-line annotation values folded as
//! kubectl folds them, and the last-applied-configuration annotation left out.

use serde_json::{Map, Value};

use super::prefix_writer::PrefixWriter;

/// Annotation values longer than this (with their key) are folded and cut.
const MAX_ANNOTATION_LEN: usize = 140;
/// kubectl never shows `kubectl apply`'s copy of the object.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The string entries of a map field (`metadata.labels`), in key order.
pub fn string_map(value: Option<&Value>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = value
        .and_then(Value::as_object)
        .map(|m: &Map<String, Value>| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// `printLabelsMultiline`: `Title:\tk=v` and further pairs under it.
pub fn labels(w: &mut PrefixWriter, title: &str, labels: &[(String, String)]) {
    labels_with_indent(w, "", title, labels);
}

/// `printLabelsMultilineWithIndent`: as `labels`, with `indent` before the title and before
/// every further pair.
pub fn labels_with_indent(w: &mut PrefixWriter, indent: &str, title: &str, labels: &[(String, String)]) {
    w.write(0, &format!("{indent}{title}:\t"));
    if labels.is_empty() {
        w.line("<none>");
        return;
    }
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.write(0, &format!("{indent}\t"));
        }
        w.write(0, &format!("{k}={v}\n"));
    }
}

/// `printAnnotationsMultiline`.
pub fn annotations(w: &mut PrefixWriter, title: &str, annotations: &[(String, String)]) {
    w.write(0, &format!("{title}:\t"));
    let shown: Vec<&(String, String)> = annotations.iter().filter(|(k, _)| k != LAST_APPLIED).collect();
    if shown.is_empty() {
        w.line("<none>");
        return;
    }
    for (i, (key, value)) in shown.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.len() + key.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.write(0, &format!("{key}:\n"));
            for line in value.split('\n') {
                w.write(0, &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.write(0, &format!("{key}: {value}\n"));
        }
    }
}

/// The first `max` bytes and `...` (on a character boundary: Go cuts bytes, which can split a
/// character; the cut here is at most three bytes earlier).
pub fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn labels_and_annotations_align_under_their_title() {
        let mut w = PrefixWriter::new();
        labels(&mut w, "Labels", &pairs(&[("a", "1"), ("b", "2")]));
        annotations(&mut w, "Annotations", &pairs(&[(LAST_APPLIED, "{}"), ("note", "x\ny\n")]));
        labels(&mut w, "Selector", &[]);
        assert_eq!(
            w.finish(),
            "Labels:       a=1\n              b=2\nAnnotations:  note:\n                x\n                y\nSelector:     <none>\n"
        );
    }

    #[test]
    fn long_values_are_cut_on_a_character_boundary() {
        let long = "é".repeat(100);
        let cut = shorten(&long, 138);
        assert_eq!(cut, format!("{}...", "é".repeat(69)));
    }
}

//! YAML request bodies (create, update, server-side apply) decoded only after a check against
//! alias bombs. The parser's own limits count replayed events, not bytes, so a large anchored
//! scalar aliased a few thousand times (or anchors of anchors) would still expand to gigabytes.
//! Here the document's size with every alias expanded is added up from the parser's events,
//! without expanding anything, and a document past the bound is refused before it is decoded.

use std::collections::HashMap;

use serde_json::Value;
use serde_saphyr::granit_parser::{Event, Parser};

/// The most scalar bytes a YAML body may hold once its aliases are expanded: well above the
/// 3 MiB a body may have, far below what would strain the server.
pub(crate) const MAX_EXPANDED_BYTES: usize = 8 * 1024 * 1024;

/// Decodes a YAML document into JSON, refusing one whose alias expansion passes the bound.
pub fn from_yaml(text: &str) -> Result<Value, String> {
    if expanded_size(text, MAX_EXPANDED_BYTES).is_none() {
        return Err(format!("the document expands (through aliases) to more than {MAX_EXPANDED_BYTES} bytes"));
    }
    serde_saphyr::from_str(text).map_err(|e| e.to_string())
}

/// The scalar bytes (plus one per node) of all documents in `text` with every alias expanded,
/// or None once past `limit`. Syntax errors end the count; decoding reports them.
fn expanded_size(text: &str, limit: usize) -> Option<usize> {
    let mut anchors: HashMap<usize, usize> = HashMap::new();
    // The collections being read: their anchor (0: none) and size so far.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut total = 0usize;
    for event in Parser::new_from_str(text) {
        let Ok((event, _)) = event else { break };
        let (anchor, size) = match event {
            Event::Scalar(value, _, anchor, _) => (anchor, value.len() + 1),
            Event::Alias(id) => (0, anchors.get(&id).copied().unwrap_or(0)),
            Event::SequenceStart(_, anchor, _) | Event::MappingStart(_, anchor, _) => {
                open.push((anchor, 1));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match open.pop() {
                Some(node) => node,
                None => break,
            },
            _ => continue,
        };
        if anchor != 0 {
            anchors.insert(anchor, size);
        }
        // Every node lies within its document, so checking the one that grew is enough.
        let grown = match open.last_mut() {
            Some((_, parent)) => parent,
            None => &mut total,
        };
        *grown = grown.saturating_add(size);
        if *grown > limit {
            return None;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_anchors_still_work() {
        let v = from_yaml("a: &x {k: v}\nb: *x\n").unwrap();
        assert_eq!(v, serde_json::json!({"a": {"k": "v"}, "b": {"k": "v"}}));
    }

    #[test]
    fn sizes_count_expanded_aliases() {
        assert_eq!(expanded_size("a: bb\n", 100), Some(1 + 2 + 3));
        // The anchored map (1 + "k" 2 + "v" 2 = 5) counted twice, plus the keys a and b.
        assert_eq!(expanded_size("a: &x {k: v}\nb: *x\n", 100), Some(1 + 2 + 5 + 2 + 5));
    }

    #[test]
    fn a_large_anchor_aliased_many_times_is_refused() {
        let big = format!("a: &x \"{}\"\nb: [{}]\n", "x".repeat(100_000), vec!["*x"; 100].join(", "));
        assert!(from_yaml(&big).unwrap_err().contains("expands (through aliases) to more than 8388608 bytes"));
        // Anchors of anchors: each level doubles, 40 levels would be a terabyte.
        let mut nested = String::from("l0: &l0 \"xxxxxxxx\"\n");
        for i in 1..40 {
            nested.push_str(&format!("l{i}: &l{i} [*l{p}, *l{p}]\n", p = i - 1));
        }
        assert!(expanded_size(&nested, MAX_EXPANDED_BYTES).is_none());
        assert!(from_yaml(&nested).is_err());
    }
}

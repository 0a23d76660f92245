//! YAML request bodies (create, update, server-side apply) decoded with a budget against alias
//! bombs: the parser's default limits count replayed events, not bytes, so a large anchored
//! scalar aliased a few thousand times would still expand to gigabytes. Here the bytes an
//! anchor may hold and the number of aliases are small enough that expansion stays within tens
//! of MiB, far above what hand-written manifests with anchors use.

use serde_json::Value;

/// At most this many alias (`*ref`) uses in one body.
pub const MAX_ALIASES: usize = 1000;
/// At most this many bytes of scalars held by all anchors together.
pub const MAX_ANCHORED_BYTES: usize = 64 * 1024;

/// Decodes a YAML document into JSON, refusing alias expansion past the budget above.
pub fn from_yaml(text: &str) -> Result<Value, serde_saphyr::Error> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_aliases = MAX_ALIASES;
    budget.max_recorded_anchor_bytes = MAX_ANCHORED_BYTES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    serde_saphyr::from_str_with_options(text, options)
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
    fn a_large_anchor_aliased_many_times_is_refused() {
        let mut text = format!("a: &x \"{}\"\nb: [", "x".repeat(MAX_ANCHORED_BYTES + 1));
        text.push_str(&vec!["*x"; 10].join(", "));
        text.push_str("]\n");
        assert!(from_yaml(&text).is_err());
        let many = format!("a: &x y\nb: [{}]\n", vec!["*x"; MAX_ALIASES + 1].join(", "));
        assert!(from_yaml(&many).is_err());
    }
}

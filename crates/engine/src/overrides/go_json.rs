//! JSON text as Go's `encoding/json` writes it, for strings upstream produces with
//! `json.Marshal`: compact, with `<`, `>`, `&`, U+2028 and U+2029 escaped.

use serde::Serialize;

/// Compact JSON with Go's HTML-safe escaping.
pub fn to_go_json<T: Serialize + ?Sized>(value: &T) -> String {
    // Serialising our own values cannot fail: every map key is a string.
    let text = serde_json::to_string(value).unwrap_or_default();
    // These characters only occur inside JSON strings, so replacing them anywhere is safe.
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_like_go() {
        assert_eq!(
            to_go_json(&json!({"b": "<x> & \u{2028}", "a": [1]})),
            r#"{"a":[1],"b":"\u003cx\u003e \u0026 \u2028"}"#
        );
    }
}

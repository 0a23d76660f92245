//! The substitution step of the embedded manifests: `{{key}}` becomes the value as a JSON
//! scalar (a valid YAML flow scalar, so no value can break the document's structure), then the
//! document is parsed.

use serde_json::Value;

/// A template that still holds a placeholder after substitution, or does not parse: both are
/// bugs in the embedded manifests, caught by the rendering tests.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("the embedded manifest {name} still holds a placeholder after substitution: {rest}")]
    Unfilled { name: &'static str, rest: String },
    #[error("the embedded manifest {name} is not valid YAML: {reason}")]
    Parse { name: &'static str, reason: String },
}

/// Fills `template` with `values` and parses it.
pub fn render(name: &'static str, template: &str, values: &[(&str, Value)]) -> Result<Value, TemplateError> {
    let mut text = template.to_string();
    for (key, value) in values {
        text = text.replace(&format!("{{{{{key}}}}}"), &value.to_string());
    }
    if let Some(at) = text.find("{{") {
        let rest: String = text[at..].chars().take(40).collect();
        return Err(TemplateError::Unfilled { name, rest });
    }
    serde_saphyr::from_str(&text).map_err(|e| TemplateError::Parse { name, reason: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_quoted_so_they_cannot_inject_structure() {
        let v = render("t", "a: {{x}}\nb: {{n}}\n", &[("x", json!("v: #1\nc: 2")), ("n", json!(3))]).unwrap();
        assert_eq!(v, json!({"a": "v: #1\nc: 2", "b": 3}));
    }

    #[test]
    fn leftover_placeholders_are_errors() {
        let e = render("t", "a: {{missing}}\n", &[]).unwrap_err();
        assert!(e.to_string().contains("{{missing}}"), "{e}");
    }
}

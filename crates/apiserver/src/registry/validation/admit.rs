//! The whole check kube-apiserver runs on a create or update body, in kube's order, so the
//! server only has to map the outcome to responses.

use serde_json::Value;

use super::field::{FieldError, go_quote};
use super::kinds::{decode, kind_checks};
use super::unknown::{duplicate_fields, prune_decoded};
use crate::registry::resources::ResourceDef;

/// What [`prepare`] found. Respond in field order: `decode_error`, then (with
/// `fieldValidation=Strict`) `unknown`/`duplicates`, then `errors`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// A built-in object that does not decode into its type. kube answers 400 BadRequest
    /// `<Kind> in version "<v>" cannot be handled as a <Kind>: <detail>`; nothing else was checked.
    pub decode_error: Option<FieldError>,
    /// Unknown fields, already removed from the object (kube drops them unless Strict).
    pub unknown: Vec<String>,
    /// Fields repeated in the raw body.
    pub duplicates: Vec<String>,
    /// Validation failures: 422 Invalid.
    pub errors: Vec<FieldError>,
}

impl Prepared {
    /// The 400 message for `fieldValidation=Strict`, when there are unknown or duplicate fields:
    /// `strict decoding error: unknown field "spec.foo", duplicate field "spec.replicas"`.
    pub fn strict_error(&self) -> Option<String> {
        let all = self.warnings();
        (!all.is_empty()).then(|| format!("strict decoding error: {}", all.join(", ")))
    }

    /// One `Warning` header text per unknown or duplicate field, for `fieldValidation=Warn`.
    pub fn warnings(&self) -> Vec<String> {
        let unknown = self.unknown.iter().map(|p| format!("unknown field {}", go_quote(p)));
        let duplicates = self.duplicates.iter().map(|p| format!("duplicate field {}", go_quote(p)));
        unknown.chain(duplicates).collect()
    }
}

/// Prepares `obj` for storage: for built-ins, typed decoding, unknown-field removal and the kind's
/// checks; for custom resources, pruning, defaulting and schema validation. `raw` is the request
/// body as sent, for duplicate detection (None for patches, whose result has no duplicates).
/// `old` is the stored object an update replaces: a custom resource's top-level fields left as
/// stored are not checked again (kube's validation ratcheting). `metadata` rules are not
/// checked here (apimachinery's job).
pub fn prepare(def: &ResourceDef, obj: &mut Value, raw: Option<&[u8]>, old: Option<&Value>) -> Prepared {
    let duplicates = raw.map(duplicate_fields).unwrap_or_default();
    if let Some(validator) = &def.validator {
        let unknown = validator.prune_update(obj, old);
        validator.default(obj);
        let errors = validator.validate_update(obj, old);
        return Prepared { decode_error: None, unknown, duplicates, errors };
    }
    match decode(def, obj) {
        Err(e) => Prepared { decode_error: Some(e), duplicates, ..Prepared::default() },
        Ok(None) => Prepared { duplicates, ..Prepared::default() },
        Ok(Some(decoded)) => {
            let errors = kind_checks(def, obj, &decoded);
            // The round trip that decoded the object also tells what it does not know.
            let unknown = prune_decoded(obj, &decoded);
            Prepared { decode_error: None, unknown, duplicates, errors }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use serde_json::json;

    #[test]
    fn builtin_outcomes() {
        let reg = Registry::builtin();
        let def = reg.lookup("", "v1", "configmaps").unwrap();
        let raw = br#"{"metadata": {"name": "c"}, "data": {"a": "1", "a": "2", "b c": "3"}, "dat": 1}"#;
        let mut obj: Value = serde_json::from_slice(raw).unwrap();
        let p = prepare(&def, &mut obj, Some(raw), None);
        assert_eq!(p.decode_error, None);
        assert_eq!(p.unknown, ["dat"]);
        assert_eq!(p.duplicates, ["data.a"]);
        assert_eq!(p.errors.len(), 1);
        assert_eq!(
            p.strict_error().unwrap(),
            "strict decoding error: unknown field \"dat\", duplicate field \"data.a\""
        );
        assert!(obj.get("dat").is_none());

        let mut bad = json!({"data": {"a": 1}});
        let p = prepare(&def, &mut bad, None, None);
        assert_eq!(p.decode_error.as_ref().unwrap().path, "data.a");
        assert!(p.errors.is_empty() && p.strict_error().is_none());
    }

    #[test]
    fn custom_resource_outcomes() {
        let mut reg = Registry::builtin();
        let crd = serde_json::from_value(json!({"metadata": {"name": "ws.example.com"},
            "spec": {"group": "example.com", "scope": "Cluster", "names": {"kind": "W", "plural": "ws"},
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema":
                    {"type": "object", "properties": {"spec": {"type": "object", "properties": {
                        "n": {"type": "integer", "default": 1}, "m": {"type": "integer"}}}}}}}]}}))
        .unwrap();
        let def = reg.apply_crd(&crd).unwrap().remove(0);
        let mut obj = json!({"apiVersion": "example.com/v1", "kind": "W", "spec": {"m": "x", "extra": true}});
        let p = prepare(&def, &mut obj, None, None);
        assert_eq!(p.unknown, ["spec.extra"]);
        assert_eq!(obj["spec"]["n"], 1);
        assert_eq!(p.errors[0].path, "spec.m");
        assert_eq!(p.warnings(), ["unknown field \"spec.extra\""]);
    }
}

//! Custom resource validation: a CRD version's structural schema, rewritten into plain JSON
//! Schema (draft 7), compiled with `jsonschema` when the first object of that version is
//! checked, errors worded like kube's go-openapi.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{Draft, PatternOptions, ValidationError};
use serde_json::{Map, Value, json};

use super::field::{FieldError, child, go_quote, go_value, index, json_type_name};
use super::structural;

/// Why a schema cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// The rewritten schema is not valid JSON Schema (for example a bad `pattern`).
    #[error("invalid schema: {0}")]
    Invalid(String),
}

/// One CRD version's schema, checked to compile when loaded and compiled for use on the first
/// object of that version.
///
/// kube-apiserver's order on create and update is: [`prune`](Self::prune) unknown fields,
/// [`default`](Self::default), then [`validate`](Self::validate).
#[derive(Debug)]
pub struct CrdValidator {
    schema: Arc<Value>,
    /// Built on first use: a plane serves many kinds that nobody writes, and the compiled form
    /// of a large schema holds several times the schema's own memory.
    compiled: OnceLock<Result<jsonschema::Validator, SchemaError>>,
    /// The schema split at the root, for updates that change only some top-level fields
    /// (a status write leaves `spec` as stored): built on the first such update.
    parts: OnceLock<Result<RootParts, SchemaError>>,
}

/// A root schema compiled in pieces: the root's own keywords with every property accepted,
/// and each property's schema on its own.
#[derive(Debug)]
struct RootParts {
    shell: jsonschema::Validator,
    fields: BTreeMap<String, jsonschema::Validator>,
}

impl CrdValidator {
    /// Checks that a version's `openAPIV3Schema` (a `JSONSchemaProps` as JSON) compiles.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        Self::shared(Arc::new(schema.clone()))
    }

    /// [`new`](Self::new) for a schema the caller keeps too.
    pub fn shared(schema: Arc<Value>) -> Result<Self, SchemaError> {
        compile(&schema)?;
        Ok(Self { schema, compiled: OnceLock::new(), parts: OnceLock::new() })
    }

    fn compiled(&self) -> &Result<jsonschema::Validator, SchemaError> {
        self.compiled.get_or_init(|| compile(&self.schema))
    }

    /// The original Kubernetes schema.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Every schema violation, with kube's field paths and wording.
    pub fn validate(&self, obj: &Value) -> Vec<FieldError> {
        let mut errs: Vec<FieldError> = match self.compiled() {
            Ok(compiled) => compiled.iter_errors(obj).map(|e| to_field_error(&e, obj, "")).collect(),
            // Compiling is deterministic and succeeded when the schema was loaded; should it
            // ever fail here, the object is refused rather than stored unchecked.
            Err(e) => vec![FieldError::invalid_raw("", "{...}", e.to_string())],
        };
        structural::extra_checks(obj, &self.schema, "", &mut errs);
        errs
    }

    /// [`validate`](Self::validate) for an update of `old`, with kube's validation ratcheting
    /// at the top level: a top-level field equal to the stored one is not checked again (kube
    /// drops errors in unchanged fields, so their outcome cannot matter). A status write then
    /// costs a check of `status` and the root only, not of the whole `spec`.
    pub fn validate_update(&self, obj: &Value, old: Option<&Value>) -> Vec<FieldError> {
        let (Some(old), Value::Object(map)) = (old, obj) else { return self.validate(obj) };
        let changed: Vec<&String> =
            map.iter().filter(|(k, v)| old.get(k.as_str()) != Some(*v)).map(|(k, _)| k).collect();
        if changed.len() == map.len() {
            return self.validate(obj);
        }
        let Ok(parts) = self.parts.get_or_init(|| compile_parts(&self.schema)) else { return self.validate(obj) };
        // The whole-object order: property errors, then the root's own, then kube's extra checks.
        let mut errs = Vec::new();
        for key in &changed {
            let value = &map[key.as_str()];
            if let Some(field) = parts.fields.get(key.as_str()) {
                errs.extend(field.iter_errors(value).map(|e| to_field_error(&e, value, key)));
            }
        }
        errs.extend(parts.shell.iter_errors(obj).map(|e| to_field_error(&e, obj, "")));
        for key in changed {
            if let Some(field_schema) = structural::field_schema(&self.schema, key) {
                structural::extra_checks(&map[key.as_str()], field_schema, key, &mut errs);
            }
        }
        errs
    }

    /// Removes fields the schema does not know and returns their paths (`spec.foo`).
    pub fn prune(&self, obj: &mut Value) -> Vec<String> {
        self.prune_update(obj, None)
    }

    /// [`prune`](Self::prune) for an update of `old`: a top-level field equal to the stored one
    /// holds nothing unknown (the stored copy was pruned), so it is not walked.
    pub fn prune_update(&self, obj: &mut Value, old: Option<&Value>) -> Vec<String> {
        let mut out = Vec::new();
        structural::prune_root(obj, &self.schema, old, &mut out);
        out
    }

    /// Applies `default:` values and drops nulls from fields that are not nullable.
    pub fn default(&self, obj: &mut Value) {
        structural::default(obj, &self.schema, true);
    }
}

/// The schema rewritten into JSON Schema draft 7 and compiled.
fn compile(schema: &Value) -> Result<jsonschema::Validator, SchemaError> {
    let mut converted = convert(schema);
    if let Value::Object(m) = &mut converted {
        m.insert("$schema".into(), json!("http://json-schema.org/draft-07/schema#"));
    }
    // Kubernetes patterns are Go RE2 syntax, which the `regex` engine matches best.
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .with_pattern_options(PatternOptions::regex())
        .should_validate_formats(false)
        .build(&converted)
        .map_err(|e| SchemaError::Invalid(e.to_string()))
}

const COPIED: &[&str] = &[
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
    "required",
];

fn flag(s: &Map<String, Value>, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

/// The root's keywords with each property accepted as is, and each property's schema compiled
/// on its own.
fn compile_parts(schema: &Value) -> Result<RootParts, SchemaError> {
    let mut fields = BTreeMap::new();
    let mut shell = schema.clone();
    if let Some(Value::Object(props)) = shell.get_mut("properties") {
        for (key, field) in props.iter_mut() {
            fields.insert(key.clone(), compile(field)?);
            // An empty schema accepts anything: the field is checked by its own validator.
            *field = json!({});
        }
    }
    Ok(RootParts { shell: compile(&shell)?, fields })
}

/// Rewrites Kubernetes' OpenAPI 3.0 dialect into draft-7 JSON Schema, keeping only validation
/// keywords (formats are not checked; CEL rules are ignored).
fn convert(s: &Value) -> Value {
    let Some(obj) = s.as_object() else { return Value::Bool(true) };
    let mut out = Map::new();
    let nullable = flag(obj, "nullable");
    let mut types: Vec<Value> = if flag(obj, "x-kubernetes-int-or-string") {
        vec![json!("integer"), json!("string")]
    } else {
        obj.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()).map(|t| vec![json!(t)]).unwrap_or_default()
    };
    if !types.is_empty() {
        if nullable {
            types.push(json!("null"));
        }
        let ty = if types.len() == 1 { types.remove(0) } else { Value::Array(types) };
        out.insert("type".into(), ty);
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        let mut values = values.clone();
        if nullable && !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
        out.insert("enum".into(), Value::Array(values));
    }
    for k in COPIED {
        if let Some(v) = obj.get(*k) {
            out.insert((*k).into(), v.clone());
        }
    }
    // OpenAPI 3.0 has boolean exclusiveMinimum/Maximum modifying minimum/maximum (draft 4).
    for (bound, exclusive) in [("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")] {
        if let Some(limit) = obj.get(bound) {
            let key = if flag(obj, exclusive) { exclusive } else { bound };
            out.insert(key.into(), limit.clone());
        }
    }
    let mut props: Map<String, Value> = match obj.get("properties") {
        Some(Value::Object(p)) => p.iter().map(|(k, v)| (k.clone(), convert(v))).collect(),
        _ => Map::new(),
    };
    if flag(obj, "x-kubernetes-embedded-resource") {
        for (k, ty) in [("apiVersion", "string"), ("kind", "string"), ("metadata", "object")] {
            props.entry(k).or_insert_with(|| json!({"type": ty}));
        }
    }
    if !props.is_empty() {
        out.insert("properties".into(), Value::Object(props));
    }
    match obj.get("additionalProperties") {
        Some(Value::Bool(b)) => {
            out.insert("additionalProperties".into(), Value::Bool(*b));
        }
        Some(a @ Value::Object(_)) => {
            out.insert("additionalProperties".into(), convert(a));
        }
        _ => {}
    }
    match obj.get("items") {
        Some(i @ Value::Object(_)) => {
            out.insert("items".into(), convert(i));
        }
        Some(Value::Array(list)) => {
            out.insert("items".into(), Value::Array(list.iter().map(convert).collect()));
        }
        _ => {}
    }
    for k in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = obj.get(k) {
            out.insert(k.into(), Value::Array(list.iter().map(convert).collect()));
        }
    }
    if let Some(n) = obj.get("not") {
        out.insert("not".into(), convert(n));
    }
    Value::Object(out)
}

/// Turns a JSON pointer location into kube's field path, using the instance to tell list
/// indices from numeric map keys.
fn kube_path(location: &Location, root: &Value, prefix: &str) -> String {
    let mut cur = Some(root);
    let mut path = prefix.to_string();
    for seg in location.segments() {
        let name = match seg {
            LocationSegment::Property(p) => p.into_owned(),
            LocationSegment::Index(i) => i.to_string(),
        };
        match cur {
            Some(Value::Array(items)) => {
                let i: usize = name.parse().unwrap_or(usize::MAX);
                path = index(&path, i);
                cur = items.get(i);
            }
            other => {
                path = child(&path, &name);
                cur = other.and_then(|v| v.get(&name));
            }
        }
    }
    path
}

/// Go's `%v` of a float64 limit: `1` rather than `1.0`.
fn go_number(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        _ => v.to_string(),
    }
}

/// `root` is the instance validated, found at `prefix` in the object (empty for the object).
fn to_field_error(err: &ValidationError<'_>, root: &Value, prefix: &str) -> FieldError {
    let path = kube_path(err.instance_path(), root, prefix);
    let value: &Value = err.instance();
    let invalid = |msg: String| FieldError::invalid(&path, value, format!("{path} in body {msg}"));
    match err.kind() {
        ValidationErrorKind::Type { kind } => {
            let expected: Vec<&str> = match kind {
                TypeKind::Single(t) => vec![t.as_str()],
                TypeKind::Multiple(set) => set.iter().map(|t| t.as_str()).collect(),
            };
            let expected: Vec<&str> = expected.into_iter().filter(|t| *t != "null").collect();
            let actual = json_type_name(value);
            let detail = format!("{path} in body must be of type {}: {}", expected.join(","), go_quote(actual));
            FieldError::type_mismatch(&path, actual, detail)
        }
        ValidationErrorKind::Required { property } => {
            FieldError::required(child(&path, property.as_str().unwrap_or_default()), "")
        }
        ValidationErrorKind::Enum { options } => {
            let supported: Vec<String> = options
                .as_array()
                .into_iter()
                .flatten()
                .filter(|o| !o.is_null())
                .map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_string))
                .collect();
            let refs: Vec<&str> = supported.iter().map(String::as_str).collect();
            FieldError::not_supported(&path, value, &refs)
        }
        ValidationErrorKind::Minimum { limit } => {
            invalid(format!("should be greater than or equal to {}", go_number(limit)))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            invalid(format!("should be greater than {}", go_number(limit)))
        }
        ValidationErrorKind::Maximum { limit } => {
            invalid(format!("should be less than or equal to {}", go_number(limit)))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => invalid(format!("should be less than {}", go_number(limit))),
        ValidationErrorKind::MinLength { limit } => invalid(format!("should be at least {limit} chars long")),
        ValidationErrorKind::MaxLength { limit } => {
            FieldError::too_long(&path, usize::try_from(*limit).unwrap_or(usize::MAX))
        }
        ValidationErrorKind::Pattern { pattern } => invalid(format!("should match '{pattern}'")),
        ValidationErrorKind::MinItems { limit } => invalid(format!("should have at least {limit} items")),
        ValidationErrorKind::MaxItems { limit } => {
            FieldError::too_many(&path, value.as_array().map_or(0, Vec::len), *limit)
        }
        ValidationErrorKind::UniqueItems => invalid("shouldn't contain duplicates".into()),
        ValidationErrorKind::MultipleOf { multiple_of } => {
            invalid(format!("should be a multiple of {}", go_number(&json!(multiple_of))))
        }
        ValidationErrorKind::MinProperties { limit } => invalid(format!("should have at least {limit} properties")),
        ValidationErrorKind::MaxProperties { limit } => {
            FieldError::too_many(&path, value.as_object().map_or(0, Map::len), *limit)
        }
        ValidationErrorKind::AnyOf { .. } => invalid("must validate at least one schema (anyOf)".into()),
        ValidationErrorKind::OneOfNotValid { .. } | ValidationErrorKind::OneOfMultipleValid { .. } => {
            invalid("must validate one and only one schema (oneOf)".into())
        }
        ValidationErrorKind::Not { .. } => invalid("must not validate the schema (not)".into()),
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let name = child(&path, unexpected.first().map(String::as_str).unwrap_or_default());
            FieldError::forbidden(&name, format!("{name} in body is a forbidden property"))
        }
        ValidationErrorKind::FalseSchema => {
            FieldError::forbidden(&path, format!("{path} in body is a forbidden property"))
        }
        _ => FieldError::invalid_raw(&path, go_value(value), err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator() -> CrdValidator {
        CrdValidator::new(&json!({
            "type": "object",
            "properties": {
                "spec": {
                    "type": "object",
                    "required": ["size"],
                    "properties": {
                        "size": {"type": "integer", "minimum": 1, "maximum": 10, "exclusiveMaximum": true},
                        "alias": {"type": "string", "enum": ["Phone", "Name"]},
                        "name": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
                        "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                        "note": {"type": "string", "nullable": true},
                        "items": {"type": "array", "maxItems": 1, "items": {"type": "object", "properties": {"n": {"type": "integer"}}}},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}}
                    }
                }
            }
        }))
        .unwrap()
    }

    fn msgs(obj: Value) -> Vec<String> {
        validator().validate(&obj).iter().map(FieldError::message).collect()
    }

    #[test]
    fn valid_object_passes() {
        assert!(
            msgs(json!({"spec": {"size": 3, "alias": "Name", "port": "http", "note": null,
            "items": [{"n": 1}], "labels": {"a": "b"}}}))
            .is_empty()
        );
        assert!(msgs(json!({"spec": {"size": 3, "port": 8080}})).is_empty());
    }

    #[test]
    fn errors_are_worded_like_kube() {
        assert_eq!(
            msgs(json!({"spec": {"size": "big"}})),
            ["spec.size: Invalid value: \"string\": spec.size in body must be of type integer: \"string\""]
        );
        assert_eq!(msgs(json!({"spec": {}})), ["spec.size: Required value"]);
        assert_eq!(
            msgs(json!({"spec": {"size": 0}})),
            ["spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"]
        );
        assert_eq!(
            msgs(json!({"spec": {"size": 10}})),
            ["spec.size: Invalid value: 10: spec.size in body should be less than 10"]
        );
        assert_eq!(
            msgs(json!({"spec": {"size": 2, "alias": "Foo"}})),
            ["spec.alias: Unsupported value: \"Foo\": supported values: \"Phone\", \"Name\""]
        );
        let errs = msgs(json!({"spec": {"size": 2, "name": "ABCD"}}));
        assert!(errs.contains(&"spec.name: Too long: may not be more than 3 bytes".to_string()), "{errs:?}");
        assert!(
            errs.contains(&"spec.name: Invalid value: \"ABCD\": spec.name in body should match '^[a-z]+$'".to_string())
        );
        assert_eq!(
            msgs(json!({"spec": {"size": 2, "items": [{"n": "x"}]}})),
            ["spec.items[0].n: Invalid value: \"string\": spec.items[0].n in body must be of type integer: \"string\""]
        );
        assert_eq!(
            msgs(json!({"spec": {"size": 2, "items": [{}, {}]}})),
            ["spec.items: Too many: 2: must have at most 1 items"]
        );
        let errs = msgs(json!({"spec": {"size": 2, "port": true}}));
        assert!(errs[0].ends_with("must be of type integer,string: \"boolean\""), "{errs:?}");
        assert_eq!(
            msgs(json!({"spec": {"size": 2, "labels": {"0": 1}}})),
            ["spec.labels.0: Invalid value: \"integer\": spec.labels.0 in body must be of type string: \"integer\""]
        );
    }

    /// A root with a required field and a status beside spec, as CRDs with a status subresource.
    fn with_status() -> CrdValidator {
        let spec = validator().schema()["properties"]["spec"].clone();
        CrdValidator::new(&json!({
            "type": "object",
            "required": ["spec"],
            "properties": {
                "spec": spec,
                "status": {"type": "object", "properties": {"ready": {"type": "integer", "minimum": 0},
                    "list": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}
            }
        }))
        .unwrap()
    }

    fn update_msgs(v: &CrdValidator, new: Value, old: &Value) -> Vec<String> {
        v.validate_update(&new, Some(old)).iter().map(FieldError::message).collect()
    }

    #[test]
    fn updates_ratchet_unchanged_top_level_fields() {
        let v = with_status();
        // Stored before the schema required spec.size: a status write still goes through, as
        // kube's ratcheting drops errors in fields the update leaves alone.
        let old = json!({"spec": {"name": "toolong"}, "status": {"ready": 1}});
        assert_eq!(v.validate(&old).len(), 2);
        assert!(update_msgs(&v, json!({"spec": {"name": "toolong"}, "status": {"ready": 2}}), &old).is_empty());
        // What changed is checked with the same paths and words as a whole-object check.
        let bad_status = json!({"spec": {"name": "toolong"}, "status": {"ready": -1, "list": ["a", "a"]}});
        assert_eq!(
            update_msgs(&v, bad_status, &old),
            [
                "status.ready: Invalid value: -1: status.ready in body should be greater than or equal to 0",
                "status.list[1]: Duplicate value: \"a\""
            ]
        );
        let new = json!({"spec": {"size": 20}, "status": {"ready": 1}});
        assert_eq!(update_msgs(&v, new.clone(), &old), msgs_of(&v, &new));
        // The root's own keywords are always checked.
        assert_eq!(update_msgs(&v, json!({"status": {"ready": 1}}), &old), ["spec: Required value"]);
    }

    #[test]
    fn updates_prune_only_changed_top_level_fields() {
        let v = with_status();
        let old = json!({"spec": {"size": 1, "stale": true}, "status": {"ready": 1}});
        let mut new = json!({"spec": {"size": 1, "stale": true}, "status": {"ready": 2, "extra": 1}});
        assert_eq!(v.prune_update(&mut new, Some(&old)), ["status.extra"]);
        assert_eq!(new, json!({"spec": {"size": 1, "stale": true}, "status": {"ready": 2}}));
        assert_eq!(v.prune_update(&mut new, None), ["spec.stale"]);
    }

    fn msgs_of(v: &CrdValidator, obj: &Value) -> Vec<String> {
        v.validate(obj).iter().map(FieldError::message).collect()
    }

    #[test]
    fn bad_patterns_do_not_compile() {
        assert!(CrdValidator::new(&json!({"type": "string", "pattern": "(["})).is_err());
    }
}

//! Full schemas of the built-in kinds and the apimachinery types, from k8s-openapi's
//! `JsonSchema` impls: kube's schema names and descriptions, generated once per process since
//! every document needs them and they never change.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use k8s_openapi::api::{authentication::v1::TokenRequest, autoscaling::v1::Scale, core::v1::Binding};
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::Value;

use crate::registry::builtin;

/// Every generated schema, by name.
fn all() -> &'static BTreeMap<String, Value> {
    static ALL: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    ALL.get_or_init(generate)
}

fn generate() -> BTreeMap<String, Value> {
    // OpenAPI 3.0 settings: references point into `#/components/schemas/`, and a reference with
    // siblings (the field's own description) is wrapped in `allOf` as kube-apiserver does, since
    // 3.0 ignores the siblings of a `$ref`.
    let mut generator = SchemaGenerator::new(SchemaSettings::openapi3());
    for def in builtin::defs() {
        builtin::register_schema(&def.group, &def.version, &def.kind, &mut generator);
    }
    generator.subschema_for::<meta::ObjectMeta>();
    generator.subschema_for::<meta::ListMeta>();
    generator.subschema_for::<meta::Status>();
    generator.subschema_for::<meta::DeleteOptions>();
    generator.subschema_for::<meta::Patch>();
    generator.subschema_for::<Scale>();
    generator.subschema_for::<TokenRequest>();
    generator.subschema_for::<Binding>();
    let mut out: BTreeMap<String, Value> = generator.take_definitions(true).into_iter().collect();
    out.values_mut().for_each(unrequire_metadata);
    out
}

/// k8s-openapi lists `metadata` as required wherever its Rust field is not optional; kube's
/// schemas never require it (the server fills it in from the URL and defaults).
fn unrequire_metadata(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    if let Some(Value::Array(required)) = obj.get_mut("required") {
        required.retain(|r| r != "metadata");
        if required.is_empty() {
            obj.remove("required");
        }
    }
}

/// The generated schema named `name`.
pub fn get(name: &str) -> Option<&'static Value> {
    all().get(name)
}

/// Schema name of a subresource body kind that k8s-openapi has a type for.
pub fn foreign_name(group: &str, version: &str, kind: &str) -> Option<String> {
    let name = match (group, version, kind) {
        ("autoscaling", "v1", "Scale") => Scale::schema_name(),
        ("authentication.k8s.io", "v1", "TokenRequest") => TokenRequest::schema_name(),
        ("", "v1", "Binding") => Binding::schema_name(),
        _ => return None,
    };
    Some(name.into_owned())
}

/// Adds to `components` every generated schema that something in it references, transitively,
/// so every reference in the document resolves within it.
pub fn add_referenced(components: &mut BTreeMap<String, Value>) {
    let mut pending = Vec::new();
    for schema in components.values() {
        collect_refs(schema, &mut pending);
    }
    while let Some(name) = pending.pop() {
        if components.contains_key(&name) {
            continue;
        }
        if let Some(schema) = get(&name) {
            collect_refs(schema, &mut pending);
            components.insert(name, schema.clone());
        }
    }
}

/// The schema names of every `#/components/schemas/` reference inside `value`.
pub fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(m) => {
            if let Some(name) =
                m.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(super::schemas::REF_PREFIX))
            {
                out.push(name.to_string());
            }
            m.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

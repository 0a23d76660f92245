//! Full schemas of the built-in kinds and the apimachinery types, with kube's schema names and
//! descriptions, served from the committed `builtin_schemas.json`. The `schema` feature
//! generates that file from k8s-openapi's `JsonSchema` impls (tests/it/openapi_schemas.rs keeps
//! it current), so the binary carries the document but none of the code that made it. Parsed
//! once per process, on the first OpenAPI request.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The committed document: schema names by kind, and the schemas by name.
const COMMITTED: &str = include_str!("builtin_schemas.json");

/// What `builtin_schemas.json` holds. Kinds are keyed `<group>/<version>/<kind>` (the core
/// group is empty: `/v1/Pod`).
#[derive(Serialize, Deserialize)]
pub struct BuiltinSchemas {
    /// kube's schema name of every built-in kind (`io.k8s.api.apps.v1.Deployment`).
    pub kinds: BTreeMap<String, String>,
    /// The schema names of subresource bodies that are no kind of their own (Scale, TokenRequest,
    /// Binding).
    pub subresource_bodies: BTreeMap<String, String>,
    /// Every schema a kind references, transitively, by name.
    pub schemas: BTreeMap<String, Value>,
}

fn committed() -> &'static BuiltinSchemas {
    static DOC: OnceLock<BuiltinSchemas> = OnceLock::new();
    // The file is generated and checked by tests, so a parse failure is a build defect.
    DOC.get_or_init(|| serde_json::from_str(COMMITTED).expect("the committed builtin_schemas.json parses"))
}

fn key(group: &str, version: &str, kind: &str) -> String {
    format!("{group}/{version}/{kind}")
}

/// kube's OpenAPI schema name of a built-in kind (`io.k8s.api.apps.v1.Deployment`).
pub fn kind_name(group: &str, version: &str, kind: &str) -> Option<&'static str> {
    committed().kinds.get(&key(group, version, kind)).map(String::as_str)
}

/// The schema named `name`.
pub fn get(name: &str) -> Option<&'static Value> {
    committed().schemas.get(name)
}

/// Schema name of a subresource body kind that k8s-openapi has a type for.
pub fn foreign_name(group: &str, version: &str, kind: &str) -> Option<String> {
    committed().subresource_bodies.get(&key(group, version, kind)).cloned()
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

/// Generates what `builtin_schemas.json` holds, from k8s-openapi's `JsonSchema` impls: kube's
/// schema names and descriptions.
#[cfg(feature = "schema")]
pub fn generate() -> BuiltinSchemas {
    use k8s_openapi::api::{authentication::v1::TokenRequest, autoscaling::v1::Scale, core::v1::Binding};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
    use schemars::JsonSchema;
    use schemars::generate::{SchemaGenerator, SchemaSettings};

    use crate::registry::builtin;

    // OpenAPI 3.0 settings: references point into `#/components/schemas/`, and a reference with
    // siblings (the field's own description) is wrapped in `allOf` as kube-apiserver does, since
    // 3.0 ignores the siblings of a `$ref`.
    let mut generator = SchemaGenerator::new(SchemaSettings::openapi3());
    let mut kinds = BTreeMap::new();
    for def in builtin::defs() {
        let name = builtin::register_schema(&def.group, &def.version, &def.kind, &mut generator)
            .unwrap_or_else(|| panic!("{} has a k8s-openapi type", def.kind));
        kinds.insert(key(&def.group, &def.version, &def.kind), name);
    }
    generator.subschema_for::<meta::ObjectMeta>();
    generator.subschema_for::<meta::ListMeta>();
    generator.subschema_for::<meta::Status>();
    generator.subschema_for::<meta::DeleteOptions>();
    generator.subschema_for::<meta::Patch>();
    generator.subschema_for::<Scale>();
    generator.subschema_for::<TokenRequest>();
    generator.subschema_for::<Binding>();
    let subresource_bodies = BTreeMap::from([
        (key("autoscaling", "v1", "Scale"), Scale::schema_name().into_owned()),
        (key("authentication.k8s.io", "v1", "TokenRequest"), TokenRequest::schema_name().into_owned()),
        (key("", "v1", "Binding"), Binding::schema_name().into_owned()),
    ]);
    let mut schemas: BTreeMap<String, Value> = generator.take_definitions(true).into_iter().collect();
    schemas.values_mut().for_each(unrequire_metadata);
    BuiltinSchemas { kinds, subresource_bodies, schemas }
}

/// k8s-openapi lists `metadata` as required wherever its Rust field is not optional; kube's
/// schemas never require it (the server fills it in from the URL and defaults).
#[cfg(feature = "schema")]
fn unrequire_metadata(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    if let Some(Value::Array(required)) = obj.get_mut("required") {
        required.retain(|r| r != "metadata");
        if required.is_empty() {
            obj.remove("required");
        }
    }
}

//! `components.schemas`: one schema per kind and list kind, named like kube's, plus the meta
//! types they reference. Built-in kinds get k8s-openapi's full schemas (see `typed`); custom
//! resources use their CRD schema.

use serde_json::{Map, Value, json};

use super::typed;
use crate::registry::resources::ResourceDef;

/// Where every reference points: the document's own `components.schemas`.
pub const REF_PREFIX: &str = "#/components/schemas/";
/// `ObjectMeta`'s schema name.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// `ListMeta`'s schema name.
pub const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
/// `Status`'s schema name.
pub const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
/// `DeleteOptions`' schema name.
pub const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
/// `Patch`'s schema name.
pub const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

/// `{"$ref": "#/components/schemas/<name>"}`.
pub fn reference(name: &str) -> Value {
    json!({"$ref": format!("{REF_PREFIX}{name}")})
}

/// kube wraps references to named types in `allOf` so siblings like `default` stay valid.
fn wrapped(name: &str, description: &str) -> Value {
    json!({"description": description, "default": {}, "allOf": [reference(name)]})
}

fn gvk(group: &str, version: &str, kind: &str) -> Value {
    json!([{"group": group, "kind": kind, "version": version}])
}

/// A generated schema marked as the schema of a kind, which is how kubectl finds it.
fn typed_kind(schema: &Value, group: &str, version: &str, kind: &str) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(m) = &mut schema {
        m.insert("x-kubernetes-group-version-kind".into(), gvk(group, version, kind));
    }
    schema
}

/// kube's schema name for a kind: k8s-openapi's (`io.k8s.api.apps.v1.Deployment`) for built-ins,
/// `io.karmada.policy.v1alpha1.PropagationPolicy` (reversed group) for everything else. A list
/// kind is named in its kind's package.
pub fn schema_name(def: &ResourceDef, kind: &str) -> String {
    if let Some(name) = typed::kind_name(&def.group, &def.version, &def.kind) {
        let package = name.rsplit_once('.').map_or("", |(package, _)| package);
        return format!("{package}.{kind}");
    }
    let reversed: Vec<&str> = def.group.rsplit('.').collect();
    format!("{}.{}.{kind}", reversed.join("."), def.version)
}

fn type_meta(props: &mut Map<String, Value>) {
    props.insert("apiVersion".into(), json!({"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"}));
    props.insert("kind".into(), json!({"type": "string", "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}));
}

/// The schema of a resource's kind.
pub fn kind_schema(def: &ResourceDef) -> Value {
    if def.schema.is_none()
        && let Some(typed) = typed::kind_name(&def.group, &def.version, &def.kind).and_then(typed::get)
    {
        return typed_kind(typed, &def.group, &def.version, &def.kind);
    }
    let mut schema = match &def.schema {
        Some(crd_schema) => (**crd_schema).clone(),
        None => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
    };
    if let Value::Object(m) = &mut schema {
        let props = m.entry("properties").or_insert_with(|| json!({}));
        if let Value::Object(props) = props {
            type_meta(props);
            props.insert("metadata".into(), wrapped(OBJECT_META, "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"));
        }
        m.entry("description")
            .or_insert_with(|| json!(format!("{} is the Schema for the {} API.", def.kind, def.plural)));
        m.insert("x-kubernetes-group-version-kind".into(), gvk(&def.group, &def.version, &def.kind));
    }
    schema
}

/// The schema of a resource's list kind.
pub fn list_schema(def: &ResourceDef) -> Value {
    let mut props = Map::new();
    type_meta(&mut props);
    props.insert(
        "items".into(),
        json!({"type": "array", "description": format!("List of {}.", def.plural),
        "items": {"default": {}, "allOf": [reference(&schema_name(def, &def.kind))]}}),
    );
    props.insert("metadata".into(), wrapped(LIST_META, "Standard list metadata."));
    json!({"description": format!("{} is a list of {}.", def.list_kind, def.kind), "type": "object",
        "required": ["items"], "properties": props,
        "x-kubernetes-group-version-kind": gvk(&def.group, &def.version, &def.list_kind)})
}

/// The apimachinery types every document references, k8s-openapi's like the kinds' (the types
/// they reference come in with [`typed::add_referenced`]).
pub fn meta_schemas() -> Vec<(String, Value)> {
    [OBJECT_META, LIST_META, STATUS, DELETE_OPTIONS, PATCH]
        .into_iter()
        .filter_map(|name| {
            let schema = typed::get(name)?;
            let schema = if name == STATUS { typed_kind(schema, "", "v1", "Status") } else { schema.clone() };
            Some((name.to_string(), schema))
        })
        .collect()
}

/// Schema name and schema of a subresource body kind from another group (`Scale`): k8s-openapi's
/// when it has the type, otherwise an outline with open `spec` and `status`.
pub fn foreign_schema(group: &str, version: &str, kind: &str) -> (String, Value) {
    if let Some(name) = typed::foreign_name(group, version, kind)
        && let Some(schema) = typed::get(&name)
    {
        return (name.clone(), typed_kind(schema, group, version, kind));
    }
    let reversed: Vec<&str> = group.rsplit('.').collect();
    let name = format!("{}.{version}.{kind}", reversed.join("."));
    let mut props = Map::new();
    type_meta(&mut props);
    props.insert("metadata".into(), wrapped(OBJECT_META, "Standard object metadata."));
    props.insert("spec".into(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    props.insert("status".into(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    let schema =
        json!({"type": "object", "properties": props, "x-kubernetes-group-version-kind": gvk(group, version, kind)});
    (name, schema)
}

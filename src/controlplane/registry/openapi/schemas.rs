//! `components.schemas`: one schema per kind and list kind, named like kube's, plus the meta
//! types they reference. Built-in kinds get an outline (typed top-level fields whose contents
//! are open) until full schemas are generated; custom resources use their CRD schema.

use serde_json::{Map, Value, json};

use crate::controlplane::registry::builtin;
use crate::controlplane::registry::resources::ResourceDef;

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1";
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
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// kube wraps references to named types in `allOf` so siblings like `default` stay valid.
fn wrapped(name: &str, description: &str) -> Value {
    json!({"description": description, "default": {}, "allOf": [reference(name)]})
}

fn gvk(group: &str, version: &str, kind: &str) -> Value {
    json!([{"group": group, "kind": kind, "version": version}])
}

/// kube's schema name for a kind: `io.k8s.api.apps.v1.Deployment` for built-ins,
/// `io.karmada.policy.v1alpha1.PropagationPolicy` (reversed group) for everything else.
pub fn schema_name(def: &ResourceDef, kind: &str) -> String {
    if builtin::top_fields(&def.group, &def.version, &def.kind).is_none() {
        let reversed: Vec<&str> = def.group.rsplit('.').collect();
        return format!("{}.{}.{kind}", reversed.join("."), def.version);
    }
    let package = match def.group.as_str() {
        "" => "io.k8s.api.core".to_string(),
        "apiextensions.k8s.io" => "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions".to_string(),
        g => format!("io.k8s.api.{}", g.split('.').next().unwrap_or(g)),
    };
    format!("{package}.{}.{kind}", def.version)
}

fn type_meta(props: &mut Map<String, Value>) {
    props.insert("apiVersion".into(), json!({"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"}));
    props.insert("kind".into(), json!({"type": "string", "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}));
}

/// The JSON type of a built-in top-level field, so `kubectl explain` shows something useful.
fn outline_field(name: &str) -> Value {
    let open = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
    match name {
        "data" | "stringData" => json!({"type": "object", "additionalProperties": {"type": "string"}}),
        "binaryData" => json!({"type": "object", "additionalProperties": {"type": "string", "format": "byte"}}),
        "immutable" | "automountServiceAccountToken" => json!({"type": "boolean"}),
        "count" => json!({"type": "integer", "format": "int32"}),
        "rules" | "subjects" | "subsets" | "secrets" | "imagePullSecrets" => {
            json!({"type": "array", "items": open})
        }
        "type" | "reason" | "message" | "action" | "reportingComponent" | "reportingInstance" => {
            json!({"type": "string"})
        }
        "firstTimestamp" | "lastTimestamp" | "eventTime" => json!({"type": "string", "format": "date-time"}),
        _ => open,
    }
}

/// The schema of a resource's kind.
pub fn kind_schema(def: &ResourceDef) -> Value {
    let mut schema = match (&def.schema, builtin::top_fields(&def.group, &def.version, &def.kind)) {
        (Some(crd_schema), _) => (**crd_schema).clone(),
        (None, Some(fields)) => {
            let props: Map<String, Value> = fields.iter().map(|f| (f.to_string(), outline_field(f))).collect();
            json!({"type": "object", "properties": props})
        }
        (None, None) => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
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

fn string() -> Value {
    json!({"type": "string"})
}

fn string_map() -> Value {
    json!({"type": "object", "additionalProperties": {"type": "string"}})
}

/// The apimachinery types every document references.
pub fn meta_schemas() -> Vec<(String, Value)> {
    let object_meta = json!({"description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
        "type": "object", "properties": {
            "annotations": string_map(), "creationTimestamp": {"type": "string", "format": "date-time"},
            "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
            "deletionTimestamp": {"type": "string", "format": "date-time"},
            "finalizers": {"type": "array", "items": string(), "x-kubernetes-list-type": "set"},
            "generateName": string(), "generation": {"type": "integer", "format": "int64"},
            "labels": string_map(),
            "managedFields": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
            "name": string(), "namespace": string(),
            "ownerReferences": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"],
                "items": {"type": "object", "required": ["apiVersion", "kind", "name", "uid"], "properties": {
                    "apiVersion": string(), "blockOwnerDeletion": {"type": "boolean"}, "controller": {"type": "boolean"},
                    "kind": string(), "name": string(), "uid": string()}}},
            "resourceVersion": string(), "selfLink": string(), "uid": string()}});
    let list_meta = json!({"description": "ListMeta describes metadata that synthetic resources must have, including lists and various status objects.",
        "type": "object", "properties": {"continue": string(), "remainingItemCount": {"type": "integer", "format": "int64"},
            "resourceVersion": string(), "selfLink": string()}});
    let mut status_props = Map::new();
    type_meta(&mut status_props);
    status_props.insert("code".into(), json!({"type": "integer", "format": "int32"}));
    status_props.insert("details".into(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    status_props.insert("message".into(), string());
    status_props.insert("metadata".into(), wrapped(LIST_META, "Standard list metadata."));
    status_props.insert("reason".into(), string());
    status_props.insert("status".into(), string());
    let status = json!({"description": "Status is a return value for calls that don't return other objects.",
        "type": "object", "properties": status_props, "x-kubernetes-group-version-kind": gvk("", "v1", "Status")});
    let mut delete_props = Map::new();
    type_meta(&mut delete_props);
    delete_props
        .insert("dryRun".into(), json!({"type": "array", "items": string(), "x-kubernetes-list-type": "atomic"}));
    delete_props.insert("gracePeriodSeconds".into(), json!({"type": "integer", "format": "int64"}));
    delete_props.insert("orphanDependents".into(), json!({"type": "boolean"}));
    delete_props.insert(
        "preconditions".into(),
        json!({"type": "object", "properties": {"resourceVersion": string(), "uid": string()}}),
    );
    delete_props.insert("propagationPolicy".into(), string());
    let delete_options = json!({"description": "DeleteOptions may be provided when deleting an API object.",
        "type": "object", "properties": delete_props});
    let patch = json!({"description": "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.", "type": "object"});
    vec![
        (OBJECT_META.to_string(), object_meta),
        (LIST_META.to_string(), list_meta),
        (STATUS.to_string(), status),
        (DELETE_OPTIONS.to_string(), delete_options),
        (PATCH.to_string(), patch),
        (format!("{META}.Time"), json!({"type": "string", "format": "date-time"})),
    ]
}

/// Schema name and schema of a subresource body kind from another group (`Scale`).
pub fn foreign_schema(group: &str, version: &str, kind: &str) -> (String, Value) {
    let package = if group.is_empty() { "core" } else { group.split('.').next().unwrap_or(group) };
    let name = format!("io.k8s.api.{package}.{version}.{kind}");
    let mut props = Map::new();
    type_meta(&mut props);
    props.insert("metadata".into(), wrapped(OBJECT_META, "Standard object metadata."));
    let schema = if kind == "Scale" {
        props.insert(
            "spec".into(),
            json!({"type": "object", "properties": {"replicas": {"type": "integer", "format": "int32"}}}),
        );
        props.insert(
            "status".into(),
            json!({"type": "object", "required": ["replicas"], "properties": {
            "replicas": {"type": "integer", "format": "int32"}, "selector": string()}}),
        );
        json!({"description": "Scale represents a scaling request for a resource.", "type": "object", "properties": props,
            "x-kubernetes-group-version-kind": gvk(group, version, kind)})
    } else {
        props.insert("spec".into(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
        props.insert("status".into(), json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
        json!({"type": "object", "properties": props, "x-kubernetes-group-version-kind": gvk(group, version, kind)})
    };
    (name, schema)
}

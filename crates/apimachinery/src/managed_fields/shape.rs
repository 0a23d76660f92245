//! How server-side apply treats each part of an object: which lists are associative (and by
//! which keys), which are sets, and which values are atomic. Built-in kinds take this from the
//! strategic-merge metadata; custom resources from their CRD's OpenAPI schema
//! (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`).

use serde_json::Value;

use crate::strategic::keys::OBJECT_META;
use crate::strategic::{FieldMeta, Strategy, TypeSchema};

/// How a list is merged and tracked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListType {
    /// Replaced whole and owned as one field.
    Atomic,
    /// Scalars tracked one by one (`v:"x"`).
    Set,
    /// Objects tracked by these key fields (`k:{"name":"x"}`), each with a default used when an
    /// item omits it (kube defaults `protocol` to TCP in port keys).
    Map(Vec<(&'static str, Option<&'static str>)>),
    /// A map keyed by fields a CRD names.
    CrdMap(Vec<String>),
}

/// The schema of one value in an object.
#[derive(Debug, Clone, Copy)]
pub enum Shape<'a> {
    /// Nothing known: objects are granular, lists atomic.
    Unknown,
    /// A value of a built-in kind: `ty` is its struct's patch metadata (the item type for lists),
    /// `field` the metadata of the field holding it.
    Builtin { ty: Option<&'static TypeSchema>, field: Option<&'static FieldMeta>, atomic: bool },
    /// A custom resource's JSONSchemaProps.
    Openapi(&'a Value),
}

/// Built-in struct fields kube declares atomic (`+structType=atomic`): label selectors of
/// workloads are replaced whole, not merged key by key.
const ATOMIC_BUILTIN_FIELDS: &[(&str, &str)] = &[
    ("io.k8s.api.apps.v1.DeploymentSpec", "selector"),
    ("io.k8s.api.apps.v1.ReplicaSetSpec", "selector"),
    ("io.k8s.api.apps.v1.StatefulSetSpec", "selector"),
    ("io.k8s.api.apps.v1.DaemonSetSpec", "selector"),
    ("io.k8s.api.batch.v1.JobSpec", "selector"),
];

/// The root of a kind without patch metadata of its own: its metadata still has some
/// (finalizers are a set, ownerReferences keyed by uid).
static METADATA_ONLY: TypeSchema = TypeSchema {
    name: "",
    fields: &[FieldMeta { name: "metadata", strategy: Strategy::None, merge_key: None, ty: Some(&OBJECT_META) }],
};

impl<'a> Shape<'a> {
    /// The shape of a built-in kind's object.
    pub fn builtin(ty: Option<&'static TypeSchema>) -> Shape<'static> {
        Shape::Builtin { ty: Some(ty.unwrap_or(&METADATA_ONLY)), field: None, atomic: false }
    }

    /// The shape of the value of object field `name`.
    pub fn field(&self, name: &str) -> Shape<'a> {
        match self {
            Shape::Unknown => Shape::Unknown,
            Shape::Builtin { ty, .. } => {
                let atomic = ty.is_some_and(|t| ATOMIC_BUILTIN_FIELDS.iter().any(|(n, f)| *n == t.name && *f == name));
                let field = ty.and_then(|t| t.field(name));
                Shape::Builtin { ty: field.and_then(|f| f.ty), field, atomic }
            }
            Shape::Openapi(schema) => {
                // A custom resource's metadata is ObjectMeta whatever its schema says.
                let root = schema.get("properties").is_some_and(|p| p.get("apiVersion").is_some());
                if root && name == "metadata" {
                    return Shape::Builtin { ty: Some(&OBJECT_META), field: None, atomic: false };
                }
                if let Some(p) = schema.get("properties").and_then(|p| p.get(name)) {
                    return Shape::Openapi(p);
                }
                match schema.get("additionalProperties") {
                    Some(p) if p.is_object() => Shape::Openapi(p),
                    _ => Shape::Unknown,
                }
            }
        }
    }

    /// The shape of a list's items.
    pub fn item(&self) -> Shape<'a> {
        match self {
            Shape::Unknown => Shape::Unknown,
            Shape::Builtin { ty, .. } => Shape::Builtin { ty: *ty, field: None, atomic: false },
            Shape::Openapi(schema) => schema.get("items").map(Shape::Openapi).unwrap_or(Shape::Unknown),
        }
    }

    /// Whether an object here is replaced and owned whole.
    pub(crate) fn atomic_object(&self) -> bool {
        match self {
            Shape::Unknown => false,
            Shape::Builtin { atomic, .. } => *atomic,
            // Objects kept with x-kubernetes-preserve-unknown-fields stay granular, as kube
            // treats schemaless parts (maps merge, lists are atomic).
            Shape::Openapi(schema) => schema.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic"),
        }
    }

    /// How a list here is merged.
    pub(crate) fn list_type(&self) -> ListType {
        match self {
            Shape::Unknown => ListType::Atomic,
            Shape::Builtin { field, .. } => match field {
                Some(f) if f.strategy.merges_lists() => match f.merge_key {
                    Some(key) => ListType::Map(apply_keys(key)),
                    None => ListType::Set,
                },
                _ => ListType::Atomic,
            },
            Shape::Openapi(schema) => match schema.get("x-kubernetes-list-type").and_then(Value::as_str) {
                Some("set") => ListType::Set,
                Some("map") => {
                    let keys: Vec<String> = schema
                        .get("x-kubernetes-list-map-keys")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                        .unwrap_or_default();
                    if keys.is_empty() { ListType::Atomic } else { ListType::CrdMap(keys) }
                }
                _ => ListType::Atomic,
            },
        }
    }
}

/// Server-side apply keys ports by port and protocol, where strategic merge uses the port alone.
fn apply_keys(merge_key: &'static str) -> Vec<(&'static str, Option<&'static str>)> {
    match merge_key {
        "containerPort" | "port" => vec![(merge_key, None), ("protocol", Some("TCP"))],
        other => vec![(other, None)],
    }
}

impl ListType {
    /// The path element of `item` in a keyed list; None when the item lacks a key field.
    pub fn key_of(&self, item: &Value) -> Option<super::fieldset::PathElement> {
        let fields: Vec<(String, Value)> = match self {
            ListType::Map(keys) => keys
                .iter()
                .map(|(k, default)| {
                    let v = item.get(*k).cloned().or_else(|| default.map(|d| Value::String(d.to_string())));
                    v.map(|v| (k.to_string(), v))
                })
                .collect::<Option<_>>()?,
            ListType::CrdMap(keys) => {
                keys.iter().map(|k| item.get(k).map(|v| (k.clone(), v.clone()))).collect::<Option<_>>()?
            }
            _ => return None,
        };
        Some(super::fieldset::PathElement::key(fields))
    }

    pub(crate) fn is_keyed(&self) -> bool {
        matches!(self, ListType::Map(_) | ListType::CrdMap(_))
    }
}

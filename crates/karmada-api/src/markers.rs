//! Field schemas that a Rust type cannot state by itself, used with `#[schemars(schema_with)]`.
//! Each mirrors a kubebuilder marker (or a Go type) on the upstream field.
//!
//! An optional field using one of these also needs `#[serde(default)]`: behind `schema_with`
//! schemars cannot see that the field is an `Option`, and would list it as required.

use schemars::{Schema, SchemaGenerator, json_schema};

/// Any JSON value kept as written (`+kubebuilder:pruning:PreserveUnknownFields` on a
/// `apiextensionsv1.JSON`): an override's `value`.
pub fn any_value(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"x-kubernetes-preserve-unknown-fields": true})
}

/// A JSON object kept as written (`runtime.RawExtension`): a manifest, a member's status.
pub fn any_object(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
}

/// A Go `int`: an integer without a format.
pub fn go_int(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "integer"})
}

/// A list of objects kept as written (`[]runtime.RawExtension`): a Work's manifests.
pub fn any_objects(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}})
}

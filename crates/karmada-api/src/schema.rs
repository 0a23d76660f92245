//! OpenAPI v3 schemas for the Karmada types in the structural form Kubernetes requires: every
//! node typed, no `$ref`, no `anyOf`/`oneOf` alternatives, no `nullable`.
//!
//! schemars describes Rust types in JSON Schema 2020-12; this module turns that into what
//! controller-gen writes for the upstream Go types. The generator runs with no transforms and
//! without inlining, so the definitions of the embedded Kubernetes types can be completed by
//! name ([`complete_core_definition`]) before everything is inlined.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// The structural schema of `T`.
pub fn of<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.transforms.clear();
            s.meta_schema = None;
            s.inline_subschemas = false;
        })
        .into_generator();
    let mut root = generator.into_root_schema_for::<T>().to_value();
    let mut defs = match root.as_object_mut().and_then(|m| m.remove("$defs")) {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    for (name, def) in defs.iter_mut() {
        complete_core_definition(name, def);
    }
    if let Value::Object(m) = &mut root {
        // The root's title is the Rust type name; upstream schemas have none.
        m.remove("title");
    }
    structural(root, &defs)
}

/// Resolves references and optional-value alternatives into one plain schema per node.
fn structural(schema: Value, defs: &Map<String, Value>) -> Value {
    let Value::Object(mut node) = schema else { return schema };

    if let Some(Value::String(reference)) = node.remove("$ref") {
        let name = reference.rsplit('/').next().unwrap_or_default();
        let target =
            defs.get(name).cloned().unwrap_or_else(|| panic!("schemars left a dangling reference {reference}"));
        return merge(structural(target, defs), node, defs);
    }

    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(alternatives)) = node.remove(keyword) else { continue };
        // `Option<T>` is `T | null`; Kubernetes expresses optional fields by leaving them out of
        // `required`, so the null alternative goes.
        let alternatives: Vec<Value> = alternatives.into_iter().filter(|a| !is_null_schema(a)).collect();
        if let Some(values) = enum_values(&alternatives) {
            // A Rust enum whose variants carry doc comments comes out as one `const` per variant.
            let base = json!({"type": "string", "enum": values});
            return merge(base, node, defs);
        }
        match <[Value; 1]>::try_from(alternatives) {
            Ok([only]) => return merge(structural(only, defs), node, defs),
            Err(several) => {
                let several: Vec<Value> = several.into_iter().map(|a| structural(a, defs)).collect();
                node.insert(keyword.into(), Value::Array(several));
            }
        }
    }

    if let Some(Value::Array(types)) = node.get("type") {
        let types: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
        if let [only] = types.as_slice() {
            node.insert("type".into(), (*only).clone());
        }
    }

    if let Some(Value::Object(props)) = node.remove("properties") {
        let props: Map<String, Value> = props.into_iter().map(|(k, v)| (k, structural(v, defs))).collect();
        node.insert("properties".into(), Value::Object(props));
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = node.remove(keyword) {
            node.insert(keyword.into(), structural(sub, defs));
        }
    }
    Value::Object(node)
}

/// The referenced (or selected) schema with the referring node's own keywords on top: a field's
/// description, default and narrowed enum win over the type's.
fn merge(base: Value, overrides: Map<String, Value>, defs: &Map<String, Value>) -> Value {
    let Value::Object(mut base) = base else { return base };
    for (k, v) in overrides {
        base.insert(k, structural(v, defs));
    }
    Value::Object(base)
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null") || schema.get("const") == Some(&Value::Null)
}

/// The values of alternatives that are all single constants (`const` or one-value `enum`).
fn enum_values(alternatives: &[Value]) -> Option<Vec<Value>> {
    if alternatives.is_empty() {
        return None;
    }
    alternatives
        .iter()
        .map(|a| match (a.get("const"), a.get("enum").and_then(Value::as_array)) {
            (Some(c), _) => Some(vec![c.clone()]),
            (None, Some(values)) => Some(values.clone()),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|v| v.into_iter().flatten().collect())
}

/// Adds what k8s-openapi's schemas of core types leave out and controller-gen writes from the Go
/// source: the `+structType=atomic`/`+listType=atomic` markers of selectors and the validation
/// markers of `metav1.Condition`, and Quantity's int-or-string form.
fn complete_core_definition(name: &str, def: &mut Value) {
    let atomic_lists: &[&str] = match name {
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector" => &["matchExpressions"],
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement" => &["values"],
        "io.k8s.api.core.v1.NodeSelector" => &["nodeSelectorTerms"],
        "io.k8s.api.core.v1.NodeSelectorTerm" => &["matchExpressions", "matchFields"],
        "io.k8s.api.core.v1.NodeSelectorRequirement" => &["values"],
        _ => &[],
    };
    for list in atomic_lists {
        if let Some(prop) = def.pointer_mut(&format!("/properties/{list}")) {
            prop["x-kubernetes-list-type"] = json!("atomic");
        }
    }
    if matches!(
        name,
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
            | "io.k8s.api.core.v1.NodeSelector"
            | "io.k8s.api.core.v1.NodeSelectorTerm"
    ) {
        def["x-kubernetes-map-type"] = json!("atomic");
    }
    match name {
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition" => {
            let props = &mut def["properties"];
            props["message"]["maxLength"] = json!(32768);
            props["observedGeneration"]["minimum"] = json!(0);
            props["reason"]["maxLength"] = json!(1024);
            props["reason"]["minLength"] = json!(1);
            props["reason"]["pattern"] = json!("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
            props["status"]["enum"] = json!(["True", "False", "Unknown"]);
            props["type"]["maxLength"] = json!(316);
            props["type"]["pattern"] = json!(
                r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"
            );
        }
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => {
            // A quantity is written as a string or a bare number; controller-gen spells that as
            // both types plus the int-or-string marker, and checks the string's syntax.
            def["anyOf"] = json!([{"type": "integer"}, {"type": "string"}]);
            def["pattern"] = json!(QUANTITY_PATTERN);
            def["x-kubernetes-int-or-string"] = json!(true);
            // k8s-openapi's page-long essay on the format; controller-gen writes none here.
            if let Value::Object(m) = def {
                m.remove("description");
            }
        }
        _ => {}
    }
}

/// The syntax of a `resource.Quantity` string, as controller-gen writes it.
const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

/// The schema of a whole object: type metadata, `spec` (required) and optional `status`, the
/// layout controller-gen writes for a kind.
pub fn object(kind: &str, description: &str, spec: Value, status: Option<Value>) -> Value {
    let mut properties = Map::new();
    properties.insert(
        "apiVersion".into(),
        json!({"description": "APIVersion defines the versioned schema of this representation of an object.", "type": "string"}),
    );
    properties.insert(
        "kind".into(),
        json!({"description": "Kind is a string value representing the REST resource this object represents.", "type": "string"}),
    );
    properties.insert("metadata".into(), json!({"type": "object"}));
    properties.insert("spec".into(), described(spec, &format!("Spec is the desired state of the {kind}.")));
    if let Some(status) = status {
        properties.insert("status".into(), described(status, &format!("Status is the observed state of the {kind}.")));
    }
    json!({"description": description, "properties": properties, "required": ["spec"], "type": "object"})
}

fn described(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

//! `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key` on the published schemas,
//! from the table the server merges with (`apimachinery::strategic::keys`), so a client reading
//! them computes the patches the server expects.
//!
//! Strategic merge patch is still not listed among the PATCH content types (see
//! `paths::patch_body`): kubectl computes patches from OpenAPI v3 only for kinds that list it.
//! The schemas are kube's full ones now (k8s-openapi's), but k8s-openapi carries none of these
//! extensions, so the merge keys would come only from the table, which holds the fields leading
//! to keyed lists that the server merges, not every Go tag; that has not been checked against
//! every kubectl. Without it, every kubectl from 1.27 to 1.33 computes the patch from its
//! compiled-in Go types, whose tags the table is taken from, and still sends a strategic merge
//! patch.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use karmadactl_apimachinery::strategic::keys::{TypeSchema, all_types};

/// Annotates every component schema named like a type in the table.
pub fn annotate(components: &mut BTreeMap<String, Value>) {
    for ty in all_types() {
        if let Some(Value::Object(schema)) = components.get_mut(ty.name) {
            annotate_schema(schema, ty);
        }
    }
}

/// Sets the extensions on the properties `schema` describes inline, following inline objects and
/// array items into nested types (named references get theirs through [`annotate`]).
fn annotate_schema(schema: &mut Map<String, Value>, ty: &'static TypeSchema) {
    let Some(Value::Object(props)) = schema.get_mut("properties") else { return };
    for field in ty.fields {
        let Some(Value::Object(prop)) = props.get_mut(field.name) else { continue };
        if let Some(strategy) = field.strategy.as_extension() {
            prop.insert("x-kubernetes-patch-strategy".into(), Value::from(strategy));
        }
        if let Some(key) = field.merge_key {
            prop.insert("x-kubernetes-patch-merge-key".into(), Value::from(key));
        }
        if let Some(nested) = field.ty {
            if let Some(Value::Object(items)) = prop.get_mut("items") {
                annotate_schema(items, nested);
            }
            annotate_schema(prop, nested);
        }
    }
}

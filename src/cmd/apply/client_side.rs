//! Client-side apply, as kubectl does it: the configuration is kept in the object's
//! `kubectl.kubernetes.io/last-applied-configuration` annotation; a missing object is
//! created with it, an existing one gets the three-way patch between the last applied
//! configuration, the new one and the live object (strategic for built-in kinds, JSON merge
//! for custom resources), and nothing is sent when that patch is empty.

use serde_json::{Map, Value};

use karmadactl_apimachinery::strategic::{self, three_way_patch};

use super::{Info, Options, request};
use crate::cli::Context;
use crate::cmd::objects::Failure;
use crate::cmd::objects::pairs::DryRun;

pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// API groups of kubectl's built-in scheme (and of the API server's own typed kinds), which
/// take strategic merge patches; every other group is custom and gets JSON merge patches.
pub(crate) const STRATEGIC_GROUPS: &[&str] = &[
    "",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "flowcontrol.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
];

/// Applies one object; the object as it is afterwards and kubectl's word for what happened.
pub async fn apply(
    client: &kube::Client,
    info: &Info,
    options: &Options,
    ctx: &Context,
) -> Result<(Value, &'static str), Failure> {
    if info.name.is_empty()
        && let Some(generate) = info.object.pointer("/metadata/generateName").and_then(Value::as_str)
    {
        return Err(Failure::Plain(format!("from {generate}: cannot use generate name with apply")));
    }
    let modified = modified_configuration(info);
    let target = info.target();
    let get = http::Request::get(target.path()).body(Vec::new()).map_err(|e| Failure::Plain(e.to_string()))?;
    let current = match client.request::<Value>(get).await.map_err(Failure::from_kube) {
        Ok(current) => current,
        Err(Failure::Api(s)) if s.code == 404 => return create(client, info, modified, options).await,
        Err(f) => {
            let verb = format!("retrieving current configuration of:\n{}\nfrom server for:", info.describe());
            return Err(request::with_source(&verb, &info.source, f));
        }
    };
    let original = current.pointer("/metadata/annotations").and_then(|a| a.get(LAST_APPLIED));
    if original.is_none() {
        let group = &info.resource.group;
        let resource =
            if group.is_empty() { info.resource.plural.clone() } else { format!("{}.{group}", info.resource.plural) };
        let base = &options.base_name;
        ctx.printer.progress(&format!(
            "Warning: resource {resource}/{} is missing the {LAST_APPLIED} annotation which is required by {base} apply. {base} apply should only be used on resources created declaratively by either {base} create --save-config or {base} apply. The missing annotation will be patched automatically.",
            info.name
        ));
    }
    let original: Option<Value> = original.and_then(Value::as_str).and_then(|t| serde_json::from_str(t).ok());
    let group = info.resource.group.as_str();
    let strategic = STRATEGIC_GROUPS.contains(&group);
    let schema = strategic::schema_for(group, &info.resource.kind);
    let patch = three_way_patch(original.as_ref(), &modified, &current, schema, strategic);
    if patch.is_empty() {
        return Ok((current, "unchanged"));
    }
    let body = serde_json::to_vec(&patch).map_err(|e| Failure::Plain(e.to_string()))?;
    let content_type =
        if strategic { "application/strategic-merge-patch+json" } else { "application/merge-patch+json" };
    let patched = if options.dry_run == DryRun::Client {
        let local = match strategic {
            true => strategic::apply_strategic_merge_patch(&current, &body, schema),
            false => karmadactl_apimachinery::apply_merge_patch(&current, &body),
        };
        local.map_err(|e| Failure::Plain(e.to_string()))
    } else {
        let uri = format!("{}?{}", target.path(), request::query(options, None));
        request::send(client, http::Method::PATCH, uri, content_type, body.clone()).await
    };
    match patched {
        Ok(object) => Ok((object, "configured")),
        Err(f) => {
            let verb = format!("applying patch:\n{}\nto:\n{}\nfor:", String::from_utf8_lossy(&body), info.describe());
            Err(request::with_source(&verb, &info.source, f))
        }
    }
}

/// Creates the object with its last-applied annotation (nulls dropped, as an update would
/// drop them), or only shows it with `--dry-run=client`.
async fn create(
    client: &kube::Client,
    info: &Info,
    mut object: Value,
    options: &Options,
) -> Result<(Value, &'static str), Failure> {
    prune_nulls(&mut object);
    if options.dry_run == DryRun::Client {
        return Ok((object, "created"));
    }
    let body = serde_json::to_vec(&object).map_err(|e| Failure::Plain(e.to_string()))?;
    let path = crate::cmd::get::fetch::collection_path(&info.resource, info.namespace.as_deref());
    let uri = format!("{path}?{}", request::query(options, None));
    match request::send(client, http::Method::POST, uri, "application/json", body).await {
        Ok(created) => Ok((created, "created")),
        Err(f) => Err(request::with_source("creating", &info.source, f)),
    }
}

/// kubectl's `GetModifiedConfiguration`: the object without a last-applied annotation,
/// serialized as Go serializes it, then set as that annotation. For unstructured objects the
/// annotations map stays (empty) in the serialized text; a generated policy is a typed Go
/// object upstream, whose text was made when it was generated.
fn modified_configuration(info: &Info) -> Value {
    modified_configuration_of(&info.object, |object| match &info.typed_json {
        Some(t) => t.clone(),
        None => crate::output::to_compact_go_json(object),
    })
}

/// The object with its last-applied annotation set to `encode` of the object without it
/// (`create --save-config` encodes its typed objects in Go's field order).
pub(crate) fn modified_configuration_of(object: &Value, encode: impl Fn(&Value) -> String) -> Value {
    let mut object = object.clone();
    let Some(root) = object.as_object_mut() else { return object };
    let meta = root.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    let Some(meta) = meta.as_object_mut() else { return object };
    let annotations = meta.entry("annotations").or_insert_with(|| Value::Object(Map::new()));
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    if let Some(a) = annotations.as_object_mut() {
        a.remove(LAST_APPLIED);
    }
    let text = encode(&object);
    if let Some(a) = object.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
        a.insert(LAST_APPLIED.into(), Value::String(text));
    }
    object
}

/// kubectl's `pruneNullsFromMap`: drops null fields of maps at every depth.
fn prune_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(prune_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::cmd::get::discovery::Resource;

    fn info(object: Value) -> Info {
        Info {
            resource: Resource::new("", "v1", "configmaps", "ConfigMap", true),
            namespace: Some("default".into()),
            name: "c".into(),
            object,
            source: "c.yaml".into(),
            typed_json: None,
        }
    }

    #[test]
    fn the_annotation_holds_the_object_with_empty_annotations_as_kubectl_writes_it() {
        let object = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"},
                            "data": {"a": "<b>"}});
        let modified = modified_configuration(&info(object));
        assert_eq!(
            modified["metadata"]["annotations"][LAST_APPLIED],
            "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"\\u003cb\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\",\"namespace\":\"default\"}}\n"
        );
    }

    #[test]
    fn an_old_annotation_in_the_file_is_replaced() {
        let object = json!({"metadata": {"name": "c", "annotations": {LAST_APPLIED: "old", "x": "y"}}});
        let modified = modified_configuration(&info(object));
        assert_eq!(
            modified["metadata"]["annotations"][LAST_APPLIED],
            "{\"metadata\":{\"annotations\":{\"x\":\"y\"},\"name\":\"c\"}}\n"
        );
        assert_eq!(modified["metadata"]["annotations"]["x"], "y");
    }

    #[test]
    fn nulls_are_pruned_at_every_depth() {
        let mut v = json!({"a": null, "b": {"c": null, "d": [{"e": null, "f": 1}]}});
        prune_nulls(&mut v);
        assert_eq!(v, json!({"b": {"d": [{"f": 1}]}}));
    }
}

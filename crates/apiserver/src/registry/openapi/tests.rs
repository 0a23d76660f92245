//! Checks the documents the way kubectl reads them.

use serde_json::{Value, json};

use super::*;
use crate::registry::ResourceDef;

/// References with sibling keys, which OpenAPI 3.0 ignores (kube wraps them in `allOf`).
fn refs_with_siblings(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                // A string: JSONSchemaProps has a property named `$ref`.
                if m.get("$ref").is_some_and(Value::is_string) && m.len() > 1 {
                    out.push(Value::Object(m.clone()).to_string());
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    out
}

/// Follows `$ref` and kube's single-element `allOf` wrapping to the schema they name, as kubectl
/// explain does.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    if let Some(r) = schema["$ref"].as_str() {
        return resolve(doc, &doc["components"]["schemas"][r.strip_prefix("#/components/schemas/").unwrap()]);
    }
    match schema["allOf"].as_array().map(Vec::as_slice) {
        Some([only]) if schema.get("properties").is_none() => resolve(doc, only),
        _ => schema,
    }
}

/// The schema at a field path below a kind's schema, stepping into array items.
fn field<'a>(doc: &'a Value, kind_schema: &'a Value, path: &[&str]) -> &'a Value {
    let mut schema = resolve(doc, kind_schema);
    let mut prop = schema;
    for name in path {
        prop = &schema["properties"][*name];
        assert!(prop.is_object(), "no {name} in {path:?}");
        schema = resolve(doc, prop);
        if schema["type"] == "array" {
            schema = resolve(doc, &schema["items"]);
        }
    }
    prop
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|c| collect_refs(c, out));
        }
        Value::Array(a) => a.iter().for_each(|c| collect_refs(c, out)),
        _ => {}
    }
}

/// What kubectl's `supportsQueryParamV3` does: find a PATCH for the kind and look for the
/// parameter among the operation's own parameters. Checks every such PATCH, since kubectl
/// stops at whichever it meets first.
fn patch_ops_support(doc: &Value, group: &str, version: &str, kind: &str, param: &str) -> bool {
    let mut found = false;
    for item in doc["paths"].as_object().unwrap().values() {
        let Some(op) = item.get("patch") else { continue };
        if op["x-kubernetes-group-version-kind"] != json!({"group": group, "version": version, "kind": kind}) {
            continue;
        }
        found = true;
        let params = op["parameters"].as_array().unwrap();
        if !params.iter().any(|p| p["name"] == param && p["in"] == "query") {
            return false;
        }
    }
    found
}

fn crd_registry() -> Registry {
    let mut reg = Registry::karmada();
    let crd = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "propagationpolicies.policy.karmada.io"},
        "spec": {"group": "policy.karmada.io", "scope": "Namespaced",
            "names": {"kind": "PropagationPolicy", "plural": "propagationpolicies", "shortNames": ["pp"]},
            "versions": [{"name": "v1alpha1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "description": "PP",
                    "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}}}}}]}
    }))
    .unwrap();
    reg.apply_crd(&crd).unwrap();
    reg
}

#[test]
fn every_resource_is_described_for_kubectl() {
    let reg = crd_registry();
    let index = openapi_v3_index(&reg);
    for def in reg.resources() {
        let key = group_version_key(&def.group, &def.version);
        let url = index["paths"][&key]["serverRelativeURL"].as_str().unwrap_or_else(|| panic!("{key} not indexed"));
        assert!(url.starts_with(&format!("/openapi/v3/{key}?hash=")));
        let doc = openapi_v3_document(&reg, &key).unwrap().json.clone();
        check_resource(&doc, &def);
    }
}

fn check_resource(doc: &Value, def: &ResourceDef) {
    let kind = &def.kind;
    if def.supports("patch") {
        for param in ["fieldValidation", "dryRun", "fieldManager"] {
            assert!(patch_ops_support(doc, &def.group, &def.version, kind, param), "{kind} PATCH lacks {param}");
        }
    }
    // Every operation names its kind, and writes carry fieldValidation.
    let mut ops = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.contains(&format!("/{}", def.plural)) {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            if method == "parameters" {
                continue;
            }
            ops += 1;
            assert!(op["x-kubernetes-group-version-kind"]["kind"].is_string(), "{path} {method}");
            if ["post", "put", "patch"].contains(&method.as_str()) {
                let names: Vec<&str> =
                    op["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
                assert!(names.contains(&"fieldValidation") && names.contains(&"dryRun"), "{path} {method}");
            }
        }
    }
    assert!(ops > 0, "{kind} has no operations");
    // The kind's schema is findable by its group-version-kind, as kubectl explain does.
    let gvk = json!([{"group": def.group, "kind": kind, "version": def.version}]);
    assert!(
        doc["components"]["schemas"].as_object().unwrap().values().any(|s| s["x-kubernetes-group-version-kind"] == gvk),
        "no schema for {kind}"
    );
}

#[test]
fn references_resolve_and_shapes_match_kube() {
    let reg = crd_registry();
    for (group, version) in reg.group_versions() {
        let doc = openapi_v3_document(&reg, &group_version_key(&group, &version)).unwrap().json.clone();
        assert_eq!(doc["openapi"], "3.0.0");
        let mut refs = Vec::new();
        collect_refs(&doc, &mut refs);
        assert!(!refs.is_empty());
        for r in refs {
            let name = r.strip_prefix("#/components/schemas/").unwrap();
            assert!(doc["components"]["schemas"].get(name).is_some(), "{group}/{version}: dangling {r}");
        }
        assert_eq!(refs_with_siblings(&doc), Vec::<String>::new(), "{group}/{version}");
    }
    let apps = openapi_v3_document(&reg, "apis/apps/v1").unwrap().json.clone();
    let item = &apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"];
    assert_eq!(item["patch"]["operationId"], "patchAppsV1NamespacedDeployment");
    assert_eq!(item["patch"]["x-kubernetes-action"], "patch");
    let coll = &apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments"];
    assert_eq!(coll["delete"]["operationId"], "deleteAppsV1CollectionNamespacedDeployment");
    assert_eq!(
        apps["paths"]["/apis/apps/v1/deployments"]["get"]["operationId"],
        "listAppsV1DeploymentForAllNamespaces"
    );
    let scale = &apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"]["patch"];
    assert_eq!(
        scale["x-kubernetes-group-version-kind"],
        json!({"group": "autoscaling", "version": "v1", "kind": "Scale"})
    );
    assert!(apps["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"].is_object());
    assert!(apps["components"]["schemas"]["io.k8s.api.autoscaling.v1.Scale"].is_object());
    // No strategic merge patch (see paths::patch_body).
    assert!(item["patch"]["requestBody"]["content"].get("application/strategic-merge-patch+json").is_none());

    let core = openapi_v3_document(&reg, "api/v1").unwrap().json.clone();
    assert!(core["paths"]["/api/v1/namespaces/{name}"]["get"].is_object());
    assert!(core["paths"]["/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token"]["post"].is_object());
    assert!(core["components"]["schemas"]["io.k8s.api.core.v1.ConfigMap"]["properties"]["data"].is_object());

    let authz = openapi_v3_document(&reg, "apis/authorization.k8s.io/v1").unwrap().json.clone();
    let ssar = &authz["paths"]["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"];
    assert!(ssar["post"].is_object() && ssar.get("get").is_none());

    let crd = openapi_v3_document(&reg, "apis/policy.karmada.io/v1alpha1").unwrap().json.clone();
    let pp = &crd["components"]["schemas"]["io.karmada.policy.v1alpha1.PropagationPolicy"];
    assert_eq!(pp["properties"]["spec"]["properties"]["x"]["type"], "string");
    assert!(pp["properties"]["metadata"]["allOf"].is_array());
    assert!(crd["components"]["schemas"]["io.karmada.policy.v1alpha1.PropagationPolicyList"].is_object());
}

#[test]
fn unknown_keys_and_hash_changes() {
    let reg = Registry::builtin();
    assert!(openapi_v3_document(&reg, "apis/nope/v1").is_none());
    assert!(openapi_v3_document(&reg, "apis/apps").is_none());
    assert!(openapi_v3_document(&reg, "api/v2").is_none());
    assert!(openapi_v3_document(&reg, "/api/v1").is_some());
    let before = openapi_v3_index(&reg);
    let after = openapi_v3_index(&crd_registry());
    assert!(before["paths"].get("apis/policy.karmada.io/v1alpha1").is_none());
    assert!(after["paths"].get("apis/policy.karmada.io/v1alpha1").is_some());
    assert_eq!(before["paths"]["apis/apps/v1"], after["paths"]["apis/apps/v1"]);
    let doc = openapi_v3_document(&reg, "api/v1").unwrap();
    assert_eq!(doc.hash.len(), 64);
    assert_eq!(serde_json::from_slice::<Value>(&doc.bytes).unwrap(), doc.json);
}

/// The name a schema refers to, directly or through kube's `allOf` wrapping.
fn ref_name(schema: &Value) -> Option<&str> {
    let target = match schema["allOf"].as_array().map(Vec::as_slice) {
        Some([only]) => only,
        _ => schema,
    };
    target["$ref"].as_str()
}

/// Every `x-kubernetes-patch-*` extension found at `path` (field names from the kind's root),
/// following references into named types but not into a type already on the path (CRD's
/// JSONSchemaProps refers to itself).
fn collect_patch_extensions(
    doc: &Value,
    schema: &Value,
    path: &mut Vec<String>,
    types: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Value, Value)>,
) {
    if let Some(name) = ref_name(schema) {
        if types.iter().any(|t| t == name) {
            return;
        }
        types.push(name.to_string());
        collect_patch_extensions(doc, resolve(doc, schema), path, types, out);
        types.pop();
        return;
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
    for (name, prop) in props {
        path.push(name.clone());
        let strategy = prop.get("x-kubernetes-patch-strategy").cloned().unwrap_or(Value::Null);
        let key = prop.get("x-kubernetes-patch-merge-key").cloned().unwrap_or(Value::Null);
        if !strategy.is_null() || !key.is_null() {
            out.push((path.clone(), strategy, key));
        }
        collect_patch_extensions(doc, prop, path, types, out);
        for nested in ["items", "additionalProperties"] {
            if let Some(items) = prop.get(nested) {
                collect_patch_extensions(doc, items, path, types, out);
            }
        }
        path.pop();
    }
}

#[test]
fn patch_extensions_come_from_the_merge_key_table() {
    use karmadactl_apimachinery::strategic::lookup;

    let reg = crd_registry();
    let core = openapi_v3_document(&reg, "api/v1").unwrap().json.clone();
    let schemas = &core["components"]["schemas"];
    let meta = &schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"];
    assert_eq!(meta["finalizers"]["x-kubernetes-patch-strategy"], "merge");
    assert_eq!(meta["ownerReferences"]["x-kubernetes-patch-strategy"], "merge");
    assert_eq!(meta["ownerReferences"]["x-kubernetes-patch-merge-key"], "uid");
    let sa = &schemas["io.k8s.api.core.v1.ServiceAccount"]["properties"]["secrets"];
    assert_eq!(
        (sa["x-kubernetes-patch-strategy"].as_str(), sa["x-kubernetes-patch-merge-key"].as_str()),
        (Some("merge"), Some("name"))
    );

    // Whatever a kind's schema annotates is what the server merges with.
    for def in reg.resources() {
        let doc = openapi_v3_document(&reg, &group_version_key(&def.group, &def.version)).unwrap().json.clone();
        let schema = &doc["components"]["schemas"][schema_name(&def, &def.kind)];
        let mut found = Vec::new();
        collect_patch_extensions(&doc, schema, &mut Vec::new(), &mut Vec::new(), &mut found);
        if def.kind == "Deployment" {
            // Nested named types are annotated too, not just the kind's own fields.
            let path = ["spec", "template", "spec", "containers", "env"].map(String::from).to_vec();
            assert!(found.contains(&(path, json!("merge"), json!("name"))), "{found:?}");
        }
        for (path, strategy, key) in found {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let Some(meta) = lookup(&def.group, &def.kind, &path) else {
                // Types carry kube's annotations wherever they are reached; the table only
                // descends into fields that lead to keyed lists, so a type reached through
                // another field (ObjectMeta under volumeClaimTemplates) is not in it. Its
                // annotated fields must then lie below a field the table does not descend into.
                let parent = &path[..path.len() - 1];
                let descended = lookup(&def.group, &def.kind, parent).and_then(|m| m.ty).is_some();
                assert!(!parent.is_empty() && !descended, "{} {path:?} not in the table", def.kind);
                continue;
            };
            assert_eq!(strategy.as_str(), meta.strategy.as_extension(), "{} {path:?}", def.kind);
            assert_eq!(key.as_str(), meta.merge_key, "{} {path:?}", def.kind);
        }
    }
}

#[test]
fn built_in_kinds_have_full_nested_schemas() {
    let reg = crd_registry();
    let mut checked = 0;
    for def in reg.resources() {
        if super::typed::kind_name(&def.group, &def.version, &def.kind).is_none() {
            continue;
        }
        let doc = openapi_v3_document(&reg, &group_version_key(&def.group, &def.version)).unwrap();
        let doc = &doc.json;
        let kind_schema = &doc["components"]["schemas"][schema_name(&def, &def.kind)];
        assert!(kind_schema["description"].as_str().is_some_and(|d| !d.is_empty()), "{}", def.kind);
        let props = kind_schema["properties"].as_object().unwrap_or_else(|| panic!("{} has no properties", def.kind));
        assert!(props.len() > 3, "{} has only {:?}", def.kind, props.keys());
        for (name, prop) in props {
            // Described (kube leaves a few `metadata` fields undescribed) and typed all the way
            // down: no open outline, a type or nested fields.
            assert!(prop["description"].is_string() || name == "metadata", "{}.{name} has no description", def.kind);
            let resolved = resolve(doc, prop);
            assert!(resolved.get("x-kubernetes-preserve-unknown-fields").is_none(), "{}.{name} is open", def.kind);
            let shaped =
                ["properties", "items", "additionalProperties", "type"].iter().any(|k| resolved.get(k).is_some());
            assert!(shaped, "{}.{name}: {resolved}", def.kind);
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} built-in kinds");

    let apps = openapi_v3_document(&reg, "apis/apps/v1").unwrap();
    let deployment = &apps.json["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"];
    let image = field(&apps.json, deployment, &["spec", "template", "spec", "containers", "image"]);
    assert_eq!(image["type"], "string");
    assert!(image["description"].as_str().unwrap().starts_with("Container image name."), "{image}");
    let containers = field(&apps.json, deployment, &["spec", "template", "spec", "containers"]);
    assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
    let core = openapi_v3_document(&reg, "api/v1").unwrap();
    let service = &core.json["components"]["schemas"]["io.k8s.api.core.v1.Service"];
    let target_port = field(&core.json, service, &["spec", "ports", "targetPort"]);
    assert_eq!(resolve(&core.json, target_port)["x-kubernetes-int-or-string"], true);
    let pod = &core.json["components"]["schemas"]["io.k8s.api.core.v1.Pod"];
    let ports = field(&core.json, pod, &["spec", "containers", "ports"]);
    assert_eq!(ports["x-kubernetes-patch-merge-key"], "containerPort");
    assert_eq!(field(&core.json, pod, &["spec", "containers", "ports", "containerPort"])["format"], "int32");
    // kube never requires metadata, though k8s-openapi's Rust field is not optional.
    assert!(pod.get("required").is_none(), "{}", pod["required"]);
    // The list kinds and the CRD kind still reference the full ObjectMeta.
    let meta = &core.json["components"]["schemas"]["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    assert!(meta["properties"]["managedFields"]["items"]["$ref"].is_string(), "{meta}");
}

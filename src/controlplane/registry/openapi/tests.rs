//! Checks the documents the way kubectl reads them.

use serde_json::{Value, json};

use super::*;
use crate::controlplane::registry::ResourceDef;

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
    let mut reg = Registry::builtin();
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
        let doc = openapi_v3_document(&reg, &key).unwrap();
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
        let doc = openapi_v3_document(&reg, &group_version_key(&group, &version)).unwrap();
        assert_eq!(doc["openapi"], "3.0.0");
        let mut refs = Vec::new();
        collect_refs(&doc, &mut refs);
        for r in refs {
            let name = r.strip_prefix("#/components/schemas/").unwrap();
            assert!(doc["components"]["schemas"].get(name).is_some(), "{group}/{version}: dangling {r}");
        }
    }
    let apps = openapi_v3_document(&reg, "apis/apps/v1").unwrap();
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
    // No strategic merge patch while schemas are outlines (see paths::patch_body).
    assert!(item["patch"]["requestBody"]["content"].get("application/strategic-merge-patch+json").is_none());

    let core = openapi_v3_document(&reg, "api/v1").unwrap();
    assert!(core["paths"]["/api/v1/namespaces/{name}"]["get"].is_object());
    assert!(core["paths"]["/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token"]["post"].is_object());
    assert!(core["components"]["schemas"]["io.k8s.api.core.v1.ConfigMap"]["properties"]["data"].is_object());

    let authz = openapi_v3_document(&reg, "apis/authorization.k8s.io/v1").unwrap();
    let ssar = &authz["paths"]["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"];
    assert!(ssar["post"].is_object() && ssar.get("get").is_none());

    let crd = openapi_v3_document(&reg, "apis/policy.karmada.io/v1alpha1").unwrap();
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
    assert_eq!(document_hash(&doc).len(), 64);
}

/// Every `x-kubernetes-patch-*` extension found at `path` (field names from the kind's root).
fn collect_patch_extensions(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value, Value)>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
    for (name, prop) in props {
        path.push(name.clone());
        let strategy = prop.get("x-kubernetes-patch-strategy").cloned().unwrap_or(Value::Null);
        let key = prop.get("x-kubernetes-patch-merge-key").cloned().unwrap_or(Value::Null);
        if !strategy.is_null() || !key.is_null() {
            out.push((path.clone(), strategy, key));
        }
        collect_patch_extensions(prop, path, out);
        if let Some(items) = prop.get("items") {
            collect_patch_extensions(items, path, out);
        }
        path.pop();
    }
}

#[test]
fn patch_extensions_come_from_the_merge_key_table() {
    use crate::controlplane::apimachinery::strategic::lookup;

    let reg = crd_registry();
    let core = openapi_v3_document(&reg, "api/v1").unwrap();
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
        let doc = openapi_v3_document(&reg, &group_version_key(&def.group, &def.version)).unwrap();
        let schema = &doc["components"]["schemas"][schema_name(&def, &def.kind)];
        let mut found = Vec::new();
        collect_patch_extensions(schema, &mut Vec::new(), &mut found);
        for (path, strategy, key) in found {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let meta = lookup(&def.group, &def.kind, &path)
                .unwrap_or_else(|| panic!("{} {path:?} not in the table", def.kind));
            assert_eq!(strategy.as_str(), meta.strategy.as_extension(), "{} {path:?}", def.kind);
            assert_eq!(key.as_str(), meta.merge_key, "{} {path:?}", def.kind);
        }
    }
}

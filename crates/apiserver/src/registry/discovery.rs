//! Discovery documents in kube-apiserver's exact shapes: legacy (`/api`, `/apis`,
//! `/apis/<g>`, `/apis/<g>/<v>`) and aggregated (`apidiscovery.k8s.io/v2`).

use serde_json::{Map, Value, json};

use super::catalog::{ApiGroup, Registry};
use super::resources::ResourceDef;

/// Content type of an aggregated discovery response; kubectl only accepts v2 with it.
pub const AGGREGATED_CONTENT_TYPE: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// `GET /api`: the core group's versions.
pub fn api_versions(server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}],
    })
}

fn group_json(g: &ApiGroup) -> Value {
    let gv = |v: &str| json!({"groupVersion": format!("{}/{v}", g.name), "version": v});
    json!({
        "name": g.name,
        "versions": g.versions.iter().map(|v| gv(v)).collect::<Vec<_>>(),
        "preferredVersion": gv(&g.preferred_version),
    })
}

/// `GET /apis`: every named group with its versions and preferred version.
pub fn api_group_list(reg: &Registry) -> Value {
    json!({
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": reg.groups().iter().map(group_json).collect::<Vec<_>>(),
    })
}

/// `GET /apis/<group>`; None when the group is not served.
pub fn api_group(reg: &Registry, group: &str) -> Option<Value> {
    if group.is_empty() {
        return None;
    }
    let mut doc = group_json(&reg.group(group)?);
    if let Value::Object(m) = &mut doc {
        m.insert("kind".into(), json!("APIGroup"));
        m.insert("apiVersion".into(), json!("v1"));
    }
    Some(doc)
}

fn strings(v: &[String]) -> Value {
    Value::Array(v.iter().map(|s| json!(s)).collect())
}

fn resource_entry(def: &ResourceDef) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(def.plural));
    m.insert("singularName".into(), json!(def.singular));
    m.insert("namespaced".into(), json!(def.namespaced));
    m.insert("kind".into(), json!(def.kind));
    m.insert("verbs".into(), strings(&def.verbs));
    if !def.short_names.is_empty() {
        m.insert("shortNames".into(), strings(&def.short_names));
    }
    if !def.categories.is_empty() {
        m.insert("categories".into(), strings(&def.categories));
    }
    if let Some(hash) = def.storage_version_hash() {
        m.insert("storageVersionHash".into(), json!(hash));
    }
    Value::Object(m)
}

fn subresource_entries(def: &ResourceDef) -> impl Iterator<Item = Value> + '_ {
    def.subresources.iter().map(move |sub| {
        let mut m = Map::new();
        m.insert("name".into(), json!(format!("{}/{}", def.plural, sub.name())));
        m.insert("singularName".into(), json!(""));
        m.insert("namespaced".into(), json!(def.namespaced));
        match sub.foreign_kind() {
            Some((group, version, kind)) => {
                m.insert("group".into(), json!(group));
                m.insert("version".into(), json!(version));
                m.insert("kind".into(), json!(kind));
            }
            None => {
                m.insert("kind".into(), json!(def.kind));
            }
        }
        m.insert("verbs".into(), json!(sub.verbs()));
        Value::Object(m)
    })
}

/// `GET /api/v1` or `/apis/<group>/<version>`: resources and subresources sorted by name, as
/// kube lists them; None when the group-version is not served.
pub fn api_resource_list(reg: &Registry, group: &str, version: &str) -> Option<Value> {
    let defs = reg.resources_in(group, version);
    if defs.is_empty() {
        return None;
    }
    let mut entries: Vec<Value> =
        defs.iter().flat_map(|d| std::iter::once(resource_entry(d)).chain(subresource_entries(d))).collect();
    entries.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let group_version = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
    Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": entries}))
}

fn aggregated_resource(def: &ResourceDef) -> Value {
    let mut m = Map::new();
    m.insert("resource".into(), json!(def.plural));
    m.insert("responseKind".into(), json!({"group": "", "version": "", "kind": def.kind}));
    m.insert("scope".into(), json!(if def.namespaced { "Namespaced" } else { "Cluster" }));
    m.insert("singularResource".into(), json!(def.singular));
    m.insert("verbs".into(), strings(&def.verbs));
    if !def.short_names.is_empty() {
        m.insert("shortNames".into(), strings(&def.short_names));
    }
    if !def.categories.is_empty() {
        m.insert("categories".into(), strings(&def.categories));
    }
    let subs: Vec<Value> = def
        .subresources
        .iter()
        .map(|s| {
            let (group, version, kind) = s.foreign_kind().unwrap_or(("", "", def.kind.as_str()));
            json!({"subresource": s.name(), "responseKind": {"group": group, "version": version, "kind": kind},
                   "verbs": s.verbs()})
        })
        .collect();
    if !subs.is_empty() {
        m.insert("subresources".into(), Value::Array(subs));
    }
    Value::Object(m)
}

/// Aggregated discovery (`apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`): the core group for
/// `GET /api` (`core` true) or every named group for `GET /apis`. Serve it with
/// [`AGGREGATED_CONTENT_TYPE`] only when the client's Accept asks for it.
pub fn aggregated_discovery(reg: &Registry, core: bool) -> Value {
    let groups: Vec<ApiGroup> = if core { reg.group("").into_iter().collect() } else { reg.groups() };
    let items: Vec<Value> = groups
        .iter()
        .map(|g| {
            let versions: Vec<Value> = g
                .versions
                .iter()
                .map(|v| {
                    let resources: Vec<Value> =
                        reg.resources_in(&g.name, v).iter().map(|d| aggregated_resource(d)).collect();
                    json!({"version": v, "resources": resources, "freshness": "Current"})
                })
                .collect();
            let mut metadata = json!({"creationTimestamp": null});
            if !g.name.is_empty() {
                metadata["name"] = json!(g.name);
            }
            json!({"metadata": metadata, "versions": versions})
        })
        .collect();
    json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(list: &'a Value, name: &str) -> &'a Value {
        list["resources"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{name}"))
    }

    #[test]
    fn api_versions_shape() {
        let v = api_versions("10.0.0.1:6443");
        assert_eq!(v["kind"], "APIVersions");
        assert_eq!(v["versions"], json!(["v1"]));
        assert_eq!(
            v["serverAddressByClientCIDRs"][0],
            json!({"clientCIDR": "0.0.0.0/0", "serverAddress": "10.0.0.1:6443"})
        );
    }

    #[test]
    fn deployments_entry_matches_kube() {
        let reg = Registry::builtin();
        let list = api_resource_list(&reg, "apps", "v1").unwrap();
        assert_eq!(list["groupVersion"], "apps/v1");
        let d = entry(&list, "deployments");
        assert_eq!(
            d["verbs"],
            json!(["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"])
        );
        assert_eq!(d["shortNames"], json!(["deploy"]));
        assert_eq!(d["categories"], json!(["all"]));
        assert_eq!(d["singularName"], "deployment");
        assert_eq!(d["namespaced"], true);
        assert_eq!(d["kind"], "Deployment");
        assert_eq!(entry(&list, "deployments/status")["verbs"], json!(["get", "patch", "update"]));
        let scale = entry(&list, "deployments/scale");
        assert_eq!(
            (&scale["group"], &scale["version"], &scale["kind"]),
            (&json!("autoscaling"), &json!("v1"), &json!("Scale"))
        );
        let names: Vec<&str> =
            list["resources"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }

    #[test]
    fn core_entries() {
        let reg = Registry::builtin();
        let list = api_resource_list(&reg, "", "v1").unwrap();
        assert_eq!(list["groupVersion"], "v1");
        assert_eq!(entry(&list, "configmaps")["shortNames"], json!(["cm"]));
        assert!(entry(&list, "secrets").get("shortNames").is_none());
        let ns = entry(&list, "namespaces");
        assert_eq!(ns["namespaced"], false);
        assert_eq!(ns["verbs"], json!(["create", "delete", "get", "list", "patch", "update", "watch"]));
        assert_eq!(entry(&list, "namespaces/finalize")["verbs"], json!(["update"]));
        let token = entry(&list, "serviceaccounts/token");
        assert_eq!((&token["kind"], &token["verbs"]), (&json!("TokenRequest"), &json!(["create"])));
        assert!(api_resource_list(&reg, "nope", "v1").is_none());
        let authz = api_resource_list(&reg, "authorization.k8s.io", "v1").unwrap();
        let ssar = entry(&authz, "selfsubjectaccessreviews");
        assert_eq!((&ssar["verbs"], &ssar["namespaced"]), (&json!(["create"]), &json!(false)));
        assert!(ssar.get("storageVersionHash").is_none());
    }

    #[test]
    fn group_list_and_group() {
        let reg = Registry::builtin();
        let list = api_group_list(&reg);
        assert_eq!(list["kind"], "APIGroupList");
        assert_eq!(list["groups"][0]["name"], "apiregistration.k8s.io");
        let apps = &list["groups"][1];
        assert_eq!(apps["name"], "apps");
        assert_eq!(apps["preferredVersion"], json!({"groupVersion": "apps/v1", "version": "v1"}));
        let g = api_group(&reg, "batch").unwrap();
        assert_eq!((&g["kind"], &g["versions"][0]["groupVersion"]), (&json!("APIGroup"), &json!("batch/v1")));
        assert!(api_group(&reg, "nope").is_none());
        assert!(api_group(&reg, "").is_none());
    }

    #[test]
    fn legacy_documents_parse_as_kube_types() {
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::{APIGroup, APIGroupList, APIResourceList, APIVersions};
        let reg = Registry::builtin();
        let _: APIVersions = serde_json::from_value(api_versions("x:1")).unwrap();
        let list: APIGroupList = serde_json::from_value(api_group_list(&reg)).unwrap();
        assert!(list.groups.iter().any(|g| g.name == "rbac.authorization.k8s.io"));
        let _: APIGroup = serde_json::from_value(api_group(&reg, "apps").unwrap()).unwrap();
        for (g, v) in reg.group_versions() {
            let parsed: APIResourceList = serde_json::from_value(api_resource_list(&reg, &g, &v).unwrap()).unwrap();
            assert!(!parsed.resources.is_empty());
        }
    }

    #[test]
    fn aggregated_shape() {
        let reg = Registry::builtin();
        let core = aggregated_discovery(&reg, true);
        assert_eq!(core["items"].as_array().unwrap().len(), 1);
        assert!(core["items"][0]["metadata"].get("name").is_none());
        let apis = aggregated_discovery(&reg, false);
        assert_eq!(apis["items"][0]["metadata"]["name"], "apiregistration.k8s.io");
        let apps = &apis["items"][1];
        assert_eq!(apps["metadata"]["name"], "apps");
        let deploy = apps["versions"][0]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["resource"] == "deployments")
            .unwrap();
        assert_eq!(deploy["scope"], "Namespaced");
        assert_eq!(deploy["responseKind"]["kind"], "Deployment");
        assert!(deploy["subresources"].as_array().unwrap().iter().any(|s| s["subresource"] == "scale"));
        // The kube-rs types must accept the document.
        let parsed: kube::core::discovery::v2::APIGroupDiscoveryList = serde_json::from_value(apis).unwrap();
        assert!(!parsed.items.is_empty());
    }
}

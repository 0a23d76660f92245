//! The dependencies distributor (upstream's `pkg/dependenciesdistributor`), for
//! `propagateDeps`: the ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims a
//! workload refers to follow it to its clusters, through an attached ResourceBinding per
//! dependency whose `requiredBy` lists the workloads that need it. Attached bindings are labelled as such, and only those are removed when
//! no workload needs them any more.

use std::collections::BTreeSet;
use std::sync::Arc;

use karmadactl_karmada_api::work::binding::{BindingSnapshot, TargetCluster};
use kube::ResourceExt;
use kube::api::{DeleteParams, DynamicObject, PostParams};
use serde_json::{Value, json};

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine};
use super::names;

/// Marks a binding this controller made for a dependency.
pub const ATTACHED_LABEL: &str = "resourcebinding.karmada.io/attached";

/// A dependency of a workload: core/v1 kind and name, in the workload's namespace.
pub type Dependency = (&'static str, String);

/// What a pod template refers to, as upstream's default interpreter finds it.
pub fn of_workload(template: &Value) -> BTreeSet<Dependency> {
    let pod_spec = match template["kind"].as_str().unwrap_or_default() {
        "Pod" => &template["spec"],
        "CronJob" => &template["spec"]["jobTemplate"]["spec"]["template"]["spec"],
        "Deployment" | "StatefulSet" | "ReplicaSet" | "DaemonSet" | "Job" => &template["spec"]["template"]["spec"],
        _ => return BTreeSet::new(),
    };
    let mut out = BTreeSet::new();
    let mut add = |kind: &'static str, v: &Value| {
        if let Some(n) = v.as_str().filter(|n| !n.is_empty()) {
            out.insert((kind, n.to_string()));
        }
    };
    for v in pod_spec["volumes"].as_array().into_iter().flatten() {
        add("ConfigMap", &v["configMap"]["name"]);
        add("Secret", &v["secret"]["secretName"]);
        add("PersistentVolumeClaim", &v["persistentVolumeClaim"]["claimName"]);
        for s in v["projected"]["sources"].as_array().into_iter().flatten() {
            add("ConfigMap", &s["configMap"]["name"]);
            add("Secret", &s["secret"]["name"]);
        }
    }
    for list in ["containers", "initContainers"] {
        for c in pod_spec[list].as_array().into_iter().flatten() {
            for e in c["envFrom"].as_array().into_iter().flatten() {
                add("ConfigMap", &e["configMapRef"]["name"]);
                add("Secret", &e["secretRef"]["name"]);
            }
            for e in c["env"].as_array().into_iter().flatten() {
                add("ConfigMap", &e["valueFrom"]["configMapKeyRef"]["name"]);
                add("Secret", &e["valueFrom"]["secretKeyRef"]["name"]);
            }
        }
    }
    for s in pod_spec["imagePullSecrets"].as_array().into_iter().flatten() {
        add("Secret", &s["name"]);
    }
    let sa = pod_spec["serviceAccountName"].as_str().filter(|s| *s != "default");
    if let Some(sa) = sa {
        out.insert(("ServiceAccount", sa.to_string()));
    }
    out
}

/// Brings the attached bindings of the workload binding `key` in line with what its template
/// refers to now and where the workload runs.
pub async fn reconcile(
    engine: &Arc<Engine>,
    key: &BindingKey,
    binding: Option<&AnyBinding>,
    template: Option<&Value>,
) -> Result<(), kube::Error> {
    let Some(namespace) = key.namespace.clone() else {
        return Ok(());
    };
    let active = binding.filter(|b| b.meta().deletion_timestamp.is_none() && b.spec().propagate_deps == Some(true));
    let wanted: BTreeSet<Dependency> = match (active, template) {
        (Some(_), Some(t)) => of_workload(t),
        _ => BTreeSet::new(),
    };
    let clusters: Vec<TargetCluster> = active
        .and_then(|b| b.spec().clusters.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|c| TargetCluster { name: c.name, replicas: None, components: None })
        .collect();
    let snapshot =
        BindingSnapshot { namespace: Some(namespace.clone()), name: key.name.clone(), clusters: Some(clusters) };

    // Attached bindings that list this workload but are no longer wanted.
    for b in engine.caches.bindings.state() {
        if b.namespace().as_deref() != Some(namespace.as_str()) || !b.labels().contains_key(ATTACHED_LABEL) {
            continue;
        }
        let listed = b.spec.required_by.iter().flatten().any(|r| r.name == key.name);
        let dep = (b.spec.resource.kind.as_str(), b.spec.resource.name.clone());
        let still = wanted.iter().any(|(k, n)| *k == dep.0 && *n == dep.1);
        if listed && !still {
            let rest: Vec<BindingSnapshot> =
                b.spec.required_by.iter().flatten().filter(|r| r.name != key.name).cloned().collect();
            write_attached(engine, &namespace, &b.name_any(), Some(&b), rest).await?;
        }
    }
    for (kind, name) in wanted {
        let binding_name = names::binding_name(kind, &name);
        let existing = engine.binding(&BindingKey { namespace: Some(namespace.clone()), name: binding_name.clone() });
        let existing = match existing {
            Some(AnyBinding::Namespaced(b)) => Some(b),
            _ => None,
        };
        if let Some(b) = &existing
            && !b.labels().contains_key(ATTACHED_LABEL)
        {
            // The dependency has a policy of its own; that binding decides where it goes.
            continue;
        }
        let mut required: Vec<BindingSnapshot> = existing
            .iter()
            .flat_map(|b| b.spec.required_by.clone().unwrap_or_default())
            .filter(|r| r.name != key.name)
            .collect();
        required.push(snapshot.clone());
        required.sort_by(|a, b| a.name.cmp(&b.name));
        if existing.as_ref().is_some_and(|b| b.spec.required_by.as_ref() == Some(&required)) {
            continue;
        }
        let dep_obj = dependency_object(engine, kind, &namespace, &name).await?;
        let Some(dep_obj) = dep_obj else {
            continue;
        };
        if existing.is_none() {
            create_attached(engine, &namespace, &binding_name, kind, &dep_obj, required).await?;
        } else {
            write_attached(engine, &namespace, &binding_name, existing.as_deref(), required).await?;
        }
    }
    Ok(())
}

async fn dependency_object(
    engine: &Arc<Engine>,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Result<Option<DynamicObject>, kube::Error> {
    let gvk = kube::api::GroupVersionKind::gvk("", "v1", kind);
    super::detector::start_following(engine, gvk.clone());
    let (resource, _) = kube::discovery::pinned_kind(&engine.client, &gvk).await?;
    kube::Api::<DynamicObject>::namespaced_with(engine.client.clone(), namespace, &resource).get_opt(name).await
}

fn union_clusters(required: &[BindingSnapshot]) -> Vec<TargetCluster> {
    let names: BTreeSet<String> =
        required.iter().flat_map(|r| r.clusters.iter().flatten().map(|c| c.name.clone())).collect();
    names.into_iter().map(|name| TargetCluster { name, replicas: None, components: None }).collect()
}

async fn create_attached(
    engine: &Engine,
    namespace: &str,
    name: &str,
    kind: &str,
    dep: &DynamicObject,
    required: Vec<BindingSnapshot>,
) -> Result<(), kube::Error> {
    let key = BindingKey { namespace: Some(namespace.into()), name: name.into() };
    let obj = json!({
        "apiVersion": "work.karmada.io/v1alpha2",
        "kind": "ResourceBinding",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": {ATTACHED_LABEL: "true", names::RB_PERMANENT_ID_LABEL: karmadactl_apimachinery::new_uid()},
            "ownerReferences": [{
                "apiVersion": "v1", "kind": kind, "name": dep.name_any(), "uid": dep.uid(),
                "controller": true, "blockOwnerDeletion": true,
            }],
            "finalizers": [names::BINDING_FINALIZER],
        },
        "spec": {
            "resource": {"apiVersion": "v1", "kind": kind, "namespace": namespace, "name": dep.name_any(), "uid": dep.uid()},
            "clusters": union_clusters(&required),
            "requiredBy": required,
        },
    });
    let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
    match key.api(&engine.client).create(&PostParams::default(), &obj).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}

/// Updates an attached binding's `requiredBy` and clusters, or deletes it once nothing needs it.
async fn write_attached(
    engine: &Engine,
    namespace: &str,
    name: &str,
    existing: Option<&karmadactl_karmada_api::work::ResourceBinding>,
    required: Vec<BindingSnapshot>,
) -> Result<(), kube::Error> {
    let Some(b) = existing else {
        return Ok(());
    };
    let key = BindingKey { namespace: Some(namespace.into()), name: name.into() };
    let api = key.api(&engine.client);
    if required.is_empty() {
        let params = DeleteParams {
            preconditions: b.uid().map(|uid| kube::api::Preconditions { uid: Some(uid), resource_version: None }),
            ..Default::default()
        };
        return match api.delete(name, &params).await {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
            Err(e) => Err(e),
        };
    }
    let mut obj = serde_json::to_value(b).map_err(kube::Error::SerdeError)?;
    obj["spec"]["clusters"] = json!(union_clusters(&required));
    obj["spec"]["requiredBy"] = json!(required);
    let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
    api.replace(name, &PostParams::default(), &obj).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_a_pod_template_refers_to() {
        let d = json!({"kind": "Deployment", "spec": {"template": {"spec": {
            "serviceAccountName": "robot",
            "volumes": [{"configMap": {"name": "cfg"}}, {"secret": {"secretName": "tls"}},
                        {"persistentVolumeClaim": {"claimName": "data"}}],
            "containers": [{"envFrom": [{"configMapRef": {"name": "env"}}],
                            "env": [{"valueFrom": {"secretKeyRef": {"name": "pw"}}}]}],
        }}}});
        let deps = of_workload(&d);
        let found: Vec<(&str, &str)> = deps.iter().map(|(k, n)| (*k, n.as_str())).collect();
        assert_eq!(
            found,
            [
                ("ConfigMap", "cfg"),
                ("ConfigMap", "env"),
                ("PersistentVolumeClaim", "data"),
                ("Secret", "pw"),
                ("Secret", "tls"),
                ("ServiceAccount", "robot"),
            ]
        );
        assert!(of_workload(&json!({"kind": "ConfigMap"})).is_empty());
    }
}

//! The dependencies distributor (upstream's `pkg/dependenciesdistributor`), for
//! `propagateDeps`: the ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims a
//! workload refers to follow it to its clusters, through an attached ResourceBinding per
//! dependency whose `requiredBy` lists the workloads that need it. Attached bindings are labelled as such, and only those are removed when
//! no workload needs them any more.

use std::collections::BTreeSet;
use std::sync::Arc;

use karmadactl_interpreter::Operation;
use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use karmadactl_karmada_api::work::binding::{BindingSnapshot, TargetCluster};
use kube::ResourceExt;
use kube::api::{DeleteParams, DynamicObject, PostParams};
use serde_json::{Value, json};

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine};
use super::error::ReconcileError;
use super::interpreted;
use super::names;

/// Marks a binding this controller made for a dependency.
pub const ATTACHED_LABEL: &str = "resourcebinding.karmada.io/attached";

/// A dependency of a workload the distributor follows: a core/v1 kind and a name, in the
/// workload's namespace.
pub type Dependency = (String, String);

/// The dependencies the distributor follows among what the interpreter answered: named core/v1
/// objects in the workload's namespace. References by label selector and to other API groups
/// are not followed yet.
pub fn followed(references: &[DependentObjectReference], namespace: &str) -> BTreeSet<Dependency> {
    references
        .iter()
        .filter(|r| r.api_version == "v1" && !r.name.is_empty() && (r.namespace.is_empty() || r.namespace == namespace))
        .map(|r| (r.kind.clone(), r.name.clone()))
        .collect()
}

/// Brings the attached bindings of the workload binding `key` in line with what its template
/// refers to now and where the workload runs.
pub async fn reconcile(
    engine: &Arc<Engine>,
    key: &BindingKey,
    binding: Option<&AnyBinding>,
    template: Option<&Value>,
) -> Result<(), ReconcileError> {
    let Some(namespace) = key.namespace.clone() else {
        return Ok(());
    };
    let active = binding.filter(|b| b.meta().deletion_timestamp.is_none() && b.spec().propagate_deps == Some(true));
    let wanted: BTreeSet<Dependency> = match (active, template) {
        (Some(_), Some(t)) if interpreted::enabled(engine, t, Operation::InterpretDependency) => {
            followed(&engine.interpreter.dependencies(t).await?, &namespace)
        }
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
        let still = wanted.iter().any(|(k, n)| *k == b.spec.resource.kind && *n == b.spec.resource.name);
        if listed && !still {
            let rest: Vec<BindingSnapshot> =
                b.spec.required_by.iter().flatten().filter(|r| r.name != key.name).cloned().collect();
            write_attached(engine, &namespace, &b.name_any(), Some(&b), rest).await?;
        }
    }
    for (kind, name) in wanted {
        let binding_name = names::binding_name(&kind, &name);
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
        let dep_obj = dependency_object(engine, &kind, &namespace, &name).await?;
        let Some(dep_obj) = dep_obj else {
            continue;
        };
        if existing.is_none() {
            create_attached(engine, &namespace, &binding_name, &kind, &dep_obj, required).await?;
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

    fn reference(api_version: &str, kind: &str, namespace: &str, name: &str) -> DependentObjectReference {
        DependentObjectReference {
            api_version: api_version.into(),
            kind: kind.into(),
            namespace: namespace.into(),
            name: name.into(),
            label_selector: None,
        }
    }

    #[test]
    fn named_core_objects_in_the_workloads_namespace_are_followed() {
        let refs = [
            reference("v1", "Secret", "default", "tls"),
            reference("v1", "ConfigMap", "", "cfg"),
            reference("v1", "ConfigMap", "other", "elsewhere"),
            reference("example.io/v1", "Thing", "default", "t"),
            reference("v1", "ConfigMap", "default", ""),
        ];
        let found: Vec<(String, String)> = followed(&refs, "default").into_iter().collect();
        assert_eq!(found, [("ConfigMap".to_string(), "cfg".to_string()), ("Secret".into(), "tls".into())]);
    }
}

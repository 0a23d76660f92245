//! What owners and their dependents have in common: controller ownerReferences, the pods an
//! owner controls, creating pods from a template, and the pod-template hash.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, OwnerReference};
use kube::api::{DeleteParams, Preconditions};
use kube::core::{Selector, SelectorExt};
use kube::{Api, Resource, ResourceExt};

use super::{Sim, readiness, unread};

/// The controller ownerReference kube-controller-manager puts on what it creates.
pub fn controller_ref<K: Resource<DynamicType = ()>>(owner: &K) -> OwnerReference {
    OwnerReference {
        api_version: K::api_version(&()).into_owned(),
        kind: K::kind(&()).into_owned(),
        name: owner.meta().name.clone().unwrap_or_default(),
        uid: owner.meta().uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Whether `meta` names `uid` as its controller: the proof required before deleting it.
pub fn controlled_by(meta: &ObjectMeta, uid: &str) -> bool {
    !uid.is_empty() && meta.owner_references.iter().flatten().any(|r| r.controller == Some(true) && r.uid == uid)
}

/// The live (not terminating) pods `uid` controls that its `selector` still picks, from the
/// member's pod cache; `None` while the cache has not caught up with this owner's own
/// creations or deletions (the caller waits for them instead of acting twice).
pub fn owned_pods(sim: &Sim, uid: &str, selector: Option<&LabelSelector>) -> Option<Vec<Pod>> {
    let picks = selector_of(selector);
    let pods = sim.pods.owned_by(uid)?;
    Some(
        pods.iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none() && selects(&picks, &p.metadata))
            .map(|p| Pod::clone(p))
            .collect(),
    )
}

/// A selector as kube matches it; one that cannot be read (the API server refuses such
/// owners anyway) picks everything, and the controller reference still decides.
pub fn selector_of(selector: Option<&LabelSelector>) -> Option<Selector> {
    selector.cloned().map(Selector::try_from).and_then(Result::ok)
}

/// Whether `selector` (as [`selector_of`] read it) picks an object with `meta`.
pub fn selects(selector: &Option<Selector>, meta: &ObjectMeta) -> bool {
    let none = BTreeMap::new();
    selector.as_ref().is_none_or(|s| s.matches(meta.labels.as_ref().unwrap_or(&none)))
}

/// How a new pod is named: exactly (StatefulSets) or with a generated suffix.
pub enum PodName {
    Exact(String),
    Generate(String),
}

/// Creates a pod from `template` for `owner`, already placed on `node`, with the owner's
/// readiness knob (`owner_meta`). A template without a spec cannot make a pod (the API server
/// refuses such owners anyway), so nothing is created. True when a pod was created: its watch
/// event will bring the owner back.
#[allow(clippy::too_many_arguments)]
pub async fn create_pod(
    sim: &Sim,
    ns: &str,
    template: &PodTemplateSpec,
    owner: OwnerReference,
    owner_meta: &ObjectMeta,
    name: PodName,
    extra_labels: BTreeMap<String, String>,
    node: String,
) -> Result<bool, kube::Error> {
    let Some(mut spec) = template.spec.clone() else { return Ok(false) };
    let template_meta = template.metadata.clone().unwrap_or_default();
    let mut labels = template_meta.labels.unwrap_or_default();
    labels.extend(extra_labels);
    let (exact, generate) = match name {
        PodName::Exact(n) => (Some(n), None),
        PodName::Generate(prefix) => (None, Some(format!("{prefix}-"))),
    };
    if spec.node_name.as_deref().unwrap_or("").is_empty() {
        spec.node_name = Some(node);
    }
    let mut annotations = template_meta.annotations.unwrap_or_default();
    if readiness::held_unready(owner_meta) {
        annotations.insert(readiness::PODS_READY_ANNOTATION.into(), "false".into());
    }
    let pod = Pod {
        metadata: ObjectMeta {
            name: exact,
            generate_name: generate,
            namespace: Some(ns.to_string()),
            labels: Some(labels),
            annotations: (!annotations.is_empty()).then_some(annotations),
            owner_references: Some(vec![owner]),
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    };
    let owner_uid = pod.metadata.owner_references.iter().flatten().next().map(|o| o.uid.clone()).unwrap_or_default();
    sim.pods.expect_creation(&owner_uid);
    match unread::create(&sim.client, ns, &pod).await {
        Ok(()) => Ok(true),
        // Already there (a StatefulSet ordinal created a moment ago): the next reconcile sees it.
        Err(kube::Error::Api(e)) if e.code == 409 => {
            sim.pods.creation_failed(&owner_uid);
            Ok(false)
        }
        Err(e) => {
            sim.pods.creation_failed(&owner_uid);
            Err(e)
        }
    }
}

/// Deletes a pod `owner_uid` controls, only if it is still the one we saw (uid precondition).
/// True when it was deleted: its watch event will bring the owner back.
pub async fn delete_pod(sim: &Sim, owner_uid: &str, pod: &Pod) -> Result<bool, kube::Error> {
    let pods: Api<Pod> = Api::namespaced(sim.client.clone(), &pod.namespace().unwrap_or_default());
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    let params = DeleteParams {
        preconditions: Some(Preconditions { uid: Some(uid.clone()), resource_version: None }),
        ..Default::default()
    };
    sim.pods.expect_deletion(owner_uid, &uid);
    match pods.delete(&pod.name_any(), &params).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => {
            sim.pods.deletion_failed(owner_uid, &uid);
            Ok(false)
        }
        Err(e) => {
            sim.pods.deletion_failed(owner_uid, &uid);
            Err(e)
        }
    }
}

pub fn pod_ready(pod: &Pod) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

pub fn pod_phase(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("Pending")
}

/// kube-controller-manager's pod-template hash: FNV-1a of the template, written with the
/// alphabet of `rand.SafeEncodeString` so it never spells words.
pub fn template_hash(template: &PodTemplateSpec) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let text = serde_json::to_string(template).unwrap_or_default();
    let mut hash: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash.to_string().bytes().map(|b| ALPHABET[usize::from(b) % ALPHABET.len()] as char).collect()
}

/// `spec.replicas`, which defaults to 1 and is never negative.
pub fn replicas(value: Option<i32>) -> i32 {
    value.unwrap_or(1).max(0)
}

/// Namespace, name and uid of an owner, or None for an object without them.
pub fn identity<K: Resource>(obj: &K) -> Option<(String, String, String)> {
    let m = obj.meta();
    Some((m.namespace.clone()?, m.name.clone()?, m.uid.clone()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_hash_is_stable_and_follows_the_template() {
        let a = PodTemplateSpec::default();
        let b = PodTemplateSpec {
            metadata: Some(ObjectMeta { labels: Some([("app".into(), "x".into())].into()), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(template_hash(&a), template_hash(&a.clone()));
        assert_ne!(template_hash(&a), template_hash(&b));
        assert!(template_hash(&b).bytes().all(|c| b"bcdfghjklmnpqrstvwxz2456789".contains(&c)));
    }

    #[test]
    fn only_a_controller_reference_with_the_uid_proves_control() {
        let mut meta = ObjectMeta::default();
        assert!(!controlled_by(&meta, "u1"));
        let r = OwnerReference { uid: "u1".into(), controller: Some(false), ..Default::default() };
        meta.owner_references = Some(vec![r.clone()]);
        assert!(!controlled_by(&meta, "u1"));
        meta.owner_references = Some(vec![OwnerReference { controller: Some(true), ..r }]);
        assert!(controlled_by(&meta, "u1"));
        assert!(!controlled_by(&meta, "u2"));
        assert!(!controlled_by(&meta, ""));
    }

    #[test]
    fn dependents_are_picked_by_the_owners_selector() {
        let selector: LabelSelector = serde_json::from_value(serde_json::json!({
            "matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}],
        }))
        .unwrap();
        let meta = |labels: serde_json::Value| -> ObjectMeta {
            serde_json::from_value(serde_json::json!({"labels": labels})).unwrap()
        };
        let picks = selector_of(Some(&selector));
        assert!(selects(&picks, &meta(serde_json::json!({"app": "web", "tier": "a"}))));
        assert!(!selects(&picks, &meta(serde_json::json!({"app": "web", "tier": "c"}))));
        assert!(!selects(&picks, &ObjectMeta::default()));
        // No selector (a Job the API server did not default), or one kube cannot read: every
        // dependent is picked and the controller reference decides.
        assert!(selects(&selector_of(None), &ObjectMeta::default()));
        let odd: LabelSelector = serde_json::from_value(serde_json::json!({
            "matchExpressions": [{"key": "tier", "operator": "Near"}],
        }))
        .unwrap();
        assert!(selects(&selector_of(Some(&odd)), &ObjectMeta::default()));
    }

    #[test]
    fn replicas_default_to_one_and_are_never_negative() {
        assert_eq!(replicas(None), 1);
        assert_eq!(replicas(Some(-3)), 0);
        assert_eq!(replicas(Some(4)), 4);
    }
}

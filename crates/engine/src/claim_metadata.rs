//! The labels and annotations that say which policy claims a template (and its binding).
//!
//! A template no policy matches any more (its policy was deleted, or changed its selectors)
//! loses them, from the binding first and then from the template, as upstream's detector does:
//! that frees the template for another policy, and tells users and scripts selecting on the
//! label that no policy claims it. The binding itself stays until the template goes, so what
//! runs in the members is left as it is.

use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::{Map, Value, json};

use super::context::{Engine, TemplateKey};
use super::detector::{binding_key_of, not_served};
use super::names;

/// Every label that names a claiming policy.
pub const LABELS: [&str; 2] = [names::PP_PERMANENT_ID_LABEL, names::CPP_PERMANENT_ID_LABEL];
/// Every annotation that names a claiming policy.
pub const ANNOTATIONS: [&str; 3] =
    [names::PP_NAME_ANNOTATION, names::PP_NAMESPACE_ANNOTATION, names::CPP_NAME_ANNOTATION];

/// The claim keys `labels` and `annotations` carry, as a merge patch that removes them (or
/// `None` when there is nothing to remove). `keep` names keys the new claim sets itself.
pub fn removal(
    labels: &std::collections::BTreeMap<String, String>,
    annotations: &std::collections::BTreeMap<String, String>,
    keep: &[&str],
) -> Option<Value> {
    let gone = |present: &std::collections::BTreeMap<String, String>, keys: &[&str]| -> Map<String, Value> {
        keys.iter()
            .filter(|k| present.contains_key(**k) && !keep.contains(k))
            .map(|k| (k.to_string(), Value::Null))
            .collect()
    };
    let (labels, annotations) = (gone(labels, &LABELS), gone(annotations, &ANNOTATIONS));
    if labels.is_empty() && annotations.is_empty() {
        return None;
    }
    Some(json!({"metadata": {"labels": labels, "annotations": annotations}}))
}

/// Removes the claim of a template no policy matches: from its binding (one this template
/// owns), then from the template. In that order, a failure half-way leaves the template
/// marked, so the next attempt finds it again.
pub async fn release(engine: &Engine, key: &TemplateKey, template: &DynamicObject) -> Result<(), kube::Error> {
    let Some(mut patch) = removal(&template.labels().clone(), &template.annotations().clone(), &[]) else {
        return Ok(());
    };
    let template_uid = template.metadata.uid.clone().unwrap_or_default();
    let binding_key = binding_key_of(key);
    if let Some(binding) = engine.binding(&binding_key) {
        let meta = binding.meta();
        let owned = meta.owner_references.iter().flatten().any(|o| o.uid == template_uid);
        let empty = Default::default();
        let binding_patch =
            removal(meta.labels.as_ref().unwrap_or(&empty), meta.annotations.as_ref().unwrap_or(&empty), &[]);
        if let (true, Some(mut binding_patch)) = (owned, binding_patch) {
            // The uid makes the patch fail if the binding was replaced meanwhile.
            binding_patch["metadata"]["uid"] = json!(meta.uid);
            let api = binding_key.api(&engine.client);
            match api.patch(&binding_key.name, &PatchParams::default(), &Patch::Merge(&binding_patch)).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
    }
    let source = engine.template_source(&key.gvk).ok_or_else(|| not_served(&key.gvk))?;
    let api: Api<DynamicObject> = match &key.namespace {
        Some(ns) => Api::namespaced_with(engine.client.clone(), ns, &source.resource),
        None => Api::all_with(engine.client.clone(), &source.resource),
    };
    patch["metadata"]["uid"] = json!(template_uid);
    match api.patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn removes_only_claim_keys_that_are_present() {
        let labels = map(&[(names::PP_PERMANENT_ID_LABEL, "id"), ("app", "web")]);
        let annotations = map(&[(names::PP_NAME_ANNOTATION, "p"), (names::PP_NAMESPACE_ANNOTATION, "default")]);
        let patch = removal(&labels, &annotations, &[]).expect("something to remove");
        assert_eq!(
            patch,
            json!({"metadata": {
                "labels": {names::PP_PERMANENT_ID_LABEL: null},
                "annotations": {names::PP_NAME_ANNOTATION: null, names::PP_NAMESPACE_ANNOTATION: null},
            }})
        );
    }

    #[test]
    fn nothing_to_remove_without_claim_keys_or_when_all_are_kept() {
        assert_eq!(removal(&map(&[("app", "web")]), &BTreeMap::new(), &[]), None);
        let labels = map(&[(names::CPP_PERMANENT_ID_LABEL, "id")]);
        let annotations = map(&[(names::CPP_NAME_ANNOTATION, "c")]);
        assert_eq!(removal(&labels, &annotations, &[names::CPP_PERMANENT_ID_LABEL, names::CPP_NAME_ANNOTATION]), None);
    }

    #[test]
    fn a_new_claim_keeps_its_own_keys_and_drops_the_other_kind() {
        let labels = map(&[(names::PP_PERMANENT_ID_LABEL, "old"), (names::CPP_PERMANENT_ID_LABEL, "new")]);
        let annotations = map(&[(names::PP_NAME_ANNOTATION, "p"), (names::CPP_NAME_ANNOTATION, "c")]);
        let patch = removal(&labels, &annotations, &[names::CPP_PERMANENT_ID_LABEL, names::CPP_NAME_ANNOTATION])
            .expect("the PropagationPolicy's keys to remove");
        assert_eq!(
            patch,
            json!({"metadata": {
                "labels": {names::PP_PERMANENT_ID_LABEL: null},
                "annotations": {names::PP_NAME_ANNOTATION: null},
            }})
        );
    }
}

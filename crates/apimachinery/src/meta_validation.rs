//! ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation/objectmeta.go does it.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, OwnerReference};
use serde::Serialize;

use super::field::{BadValue, Cause, FieldPath, go_quote};
use super::names::{
    is_dns1035_label, is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_label_value,
    is_valid_path_segment_name, is_valid_path_segment_prefix, mask_trailing_dash,
};

/// Maximum total size of an object's annotation keys and values (256 KiB).
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;
/// `field is immutable`.
pub const FIELD_IMMUTABLE_MSG: &str = "field is immutable";
/// `must be greater than or equal to 0`.
pub const IS_NEGATIVE_MSG: &str = "must be greater than or equal to 0";

/// How a resource's names are validated (the per-resource ValidateNameFunc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameRule {
    /// DNS-1123 subdomain, at most 253 bytes: most resources.
    DnsSubdomain,
    /// DNS-1123 label, at most 63 bytes: namespaces, services, ...
    DnsLabel,
    /// DNS-1035 label (starts with a letter).
    Dns1035Label,
    /// Any string safe as one URL path segment (no `/` or `%`, not `.`/`..`): RBAC objects.
    PathSegment,
    /// Karmada member clusters: a DNS-1123 label of at most 48 characters (the cluster name
    /// becomes part of `karmada-es-<name>` and other derived names).
    ClusterName,
}

impl NameRule {
    /// Every reason `name` breaks the rule; `prefix` relaxes it for generateName, as upstream
    /// (a trailing `-` is allowed).
    pub fn check(self, name: &str, prefix: bool) -> Vec<String> {
        let masked = if prefix { mask_trailing_dash(name) } else { name.to_string() };
        match self {
            Self::DnsSubdomain => is_dns1123_subdomain(&masked),
            Self::DnsLabel => is_dns1123_label(&masked),
            Self::Dns1035Label => is_dns1035_label(&masked),
            Self::PathSegment if prefix => is_valid_path_segment_prefix(name),
            Self::PathSegment => is_valid_path_segment_name(name),
            Self::ClusterName => {
                let mut errs = is_dns1123_label(&masked);
                if !prefix && name.len() > MAX_CLUSTER_NAME {
                    errs.push(format!("must be no more than {MAX_CLUSTER_NAME} characters"));
                }
                errs
            }
        }
    }
}

/// Longest member cluster name Karmada accepts.
pub(crate) const MAX_CLUSTER_NAME: usize = 48;

/// Characters SimpleNameGenerator draws its suffix from (no vowels, no confusable digits).
const NAME_SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
/// Longest generateName prefix kept before the 5-character suffix.
const MAX_GENERATED_PREFIX: usize = 58;

/// names.SimpleNameGenerator: the prefix cut to 58 bytes plus 5 characters chosen by
/// `entropy` (the caller supplies randomness; successive values give different names).
pub fn generate_name(prefix: &str, entropy: u64) -> String {
    let mut cut = prefix.len().min(MAX_GENERATED_PREFIX);
    while !prefix.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut name = prefix[..cut].to_string();
    let mut e = entropy;
    let n = NAME_SUFFIX_ALPHABET.len() as u64;
    for _ in 0..5 {
        // `e % n` is below the alphabet length, so the index is in bounds and fits usize.
        name.push(char::from(NAME_SUFFIX_ALPHABET[(e % n) as usize]));
        e /= n;
    }
    name
}

/// ValidateObjectMeta for a create, under `metadata`: generateName and name by `rule`,
/// namespace presence by scope, generation, labels, annotations, owner references and
/// finalizers. Name generation is expected to have happened already (an empty name is
/// `Required value: name or generateName is required`).
pub fn validate_object_meta(meta: &ObjectMeta, namespaced: bool, rule: NameRule) -> Vec<Cause> {
    let path = FieldPath::new("metadata");
    let mut causes = Vec::new();
    if let Some(gen_name) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        for msg in rule.check(gen_name, true) {
            causes.push(Cause::invalid(path.child("generateName"), gen_name, &msg));
        }
    }
    match meta.name.as_deref().filter(|n| !n.is_empty()) {
        None => causes.push(Cause::required_detail(path.child("name"), "name or generateName is required")),
        Some(name) => {
            for msg in rule.check(name, false) {
                causes.push(Cause::invalid(path.child("name"), name, &msg));
            }
        }
    }
    causes.extend(validate_namespace_field(
        meta.namespace.as_deref().unwrap_or(""),
        namespaced,
        &path.child("namespace"),
    ));
    causes.extend(validate_common(meta, &path));
    causes
}

/// The namespace rules: required and a DNS label when namespaced, forbidden otherwise.
pub fn validate_namespace_field(namespace: &str, namespaced: bool, path: &FieldPath) -> Vec<Cause> {
    match (namespaced, namespace.is_empty()) {
        (true, true) => vec![Cause::required(path)],
        (true, false) => is_dns1123_label(namespace).iter().map(|m| Cause::invalid(path, namespace, m)).collect(),
        (false, false) => vec![Cause::forbidden(path, "not allowed on this type")],
        (false, true) => Vec::new(),
    }
}

fn validate_common(meta: &ObjectMeta, path: &FieldPath) -> Vec<Cause> {
    let mut causes = Vec::new();
    if let Some(g) = meta.generation.filter(|g| *g < 0) {
        causes.push(Cause::invalid(path.child("generation"), g, IS_NEGATIVE_MSG));
    }
    let empty_map = BTreeMap::new();
    causes.extend(validate_labels(meta.labels.as_ref().unwrap_or(&empty_map), &path.child("labels")));
    causes.extend(validate_annotations(meta.annotations.as_ref().unwrap_or(&empty_map), &path.child("annotations")));
    let refs = meta.owner_references.as_deref().unwrap_or_default();
    causes.extend(validate_owner_references(refs, &path.child("ownerReferences")));
    causes.extend(validate_finalizers(meta.finalizers.as_deref().unwrap_or_default(), &path.child("finalizers")));
    causes
}

/// v1validation.ValidateLabels: qualified-name keys and label values, reported at `path`.
pub fn validate_labels(labels: &BTreeMap<String, String>, path: &FieldPath) -> Vec<Cause> {
    let mut causes = Vec::new();
    for (k, v) in labels {
        causes.extend(is_qualified_name(k).iter().map(|m| Cause::invalid(path, k, m)));
        causes.extend(is_valid_label_value(v).iter().map(|m| Cause::invalid(path, v, m)));
    }
    causes
}

/// v1validation.ValidateLabelSelector for a structured selector field (e.g. `spec.selector`):
/// matchLabels as labels, and per expression a known operator, values present exactly when
/// the operator needs them, and a qualified-name key.
pub fn validate_label_selector(selector: &LabelSelector, path: &FieldPath) -> Vec<Cause> {
    let empty_map = BTreeMap::new();
    let mut causes = validate_labels(selector.match_labels.as_ref().unwrap_or(&empty_map), &path.child("matchLabels"));
    for (i, expr) in selector.match_expressions.iter().flatten().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let has_values = expr.values.as_ref().is_some_and(|v| !v.is_empty());
        match expr.operator.as_str() {
            "In" | "NotIn" if !has_values => causes.push(Cause::required_detail(
                p.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if has_values => causes.push(Cause::forbidden(
                p.child("values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => causes.push(Cause::invalid(p.child("operator"), other, "not a valid selector operator")),
        }
        causes.extend(is_qualified_name(&expr.key).iter().map(|m| Cause::invalid(p.child("key"), &expr.key, m)));
    }
    causes
}

/// ValidateAnnotations: case-insensitive qualified-name keys, total size at most 256 KiB.
pub fn validate_annotations(annotations: &BTreeMap<String, String>, path: &FieldPath) -> Vec<Cause> {
    let mut causes = Vec::new();
    let mut total = 0usize;
    for (k, v) in annotations {
        causes.extend(is_qualified_name(&k.to_lowercase()).iter().map(|m| Cause::invalid(path, k, m)));
        total = total.saturating_add(k.len()).saturating_add(v.len());
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        causes.push(Cause::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    causes
}

/// ValidateFinalizers: qualified names, and not both `orphan` and `foregroundDeletion`.
pub fn validate_finalizers(finalizers: &[String], path: &FieldPath) -> Vec<Cause> {
    let mut causes = Vec::new();
    for f in finalizers {
        causes.extend(is_qualified_name(f).iter().map(|m| Cause::invalid(path, f, m)));
    }
    let has = |name: &str| finalizers.iter().any(|f| f == name);
    if has("orphan") && has("foregroundDeletion") {
        let detail = "finalizer orphan and foregroundDeletion cannot be both set";
        causes.push(Cause::invalid(path, BadValue::from(finalizers), detail));
    }
    causes
}

/// Go's JSON for an OwnerReference (its field order), used as a bad value.
fn owner_ref_json(r: &OwnerReference) -> String {
    let s = |v: &str| serde_json::Value::from(v).to_string();
    let mut out = format!(
        "{{\"apiVersion\":{},\"kind\":{},\"name\":{},\"uid\":{}",
        s(&r.api_version),
        s(&r.kind),
        s(&r.name),
        s(&r.uid)
    );
    if let Some(c) = r.controller {
        out.push_str(&format!(",\"controller\":{c}"));
    }
    if let Some(b) = r.block_owner_deletion {
        out.push_str(&format!(",\"blockOwnerDeletion\":{b}"));
    }
    out.push('}');
    out
}

/// schema.FromAPIVersionAndKind's (group, version); an unparseable apiVersion has neither.
fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.matches('/').count() {
        0 => ("", api_version),
        1 => api_version.split_once('/').unwrap_or(("", "")),
        _ => ("", ""),
    }
}

/// ValidateOwnerReferences: apiVersion (with a version), kind, name and uid present; Events
/// cannot own; at most one reference with `controller: true`.
pub fn validate_owner_references(refs: &[OwnerReference], path: &FieldPath) -> Vec<Cause> {
    let mut causes = Vec::new();
    let mut first_controller: Option<String> = None;
    for r in refs {
        let (group, version) = split_api_version(&r.api_version);
        if version.is_empty() {
            causes.push(Cause::invalid(path.child("apiVersion"), &r.api_version, "version must not be empty"));
        }
        for (field, value) in [("kind", &r.kind), ("name", &r.name), ("uid", &r.uid)] {
            if value.is_empty() {
                causes.push(Cause::invalid(path.child(field), value, "must not be empty"));
            }
        }
        if group.is_empty() && version == "v1" && r.kind == "Event" {
            let detail = "/v1, Kind=Event is disallowed from being an owner";
            causes.push(Cause::invalid(path, BadValue::Json(owner_ref_json(r)), detail));
        }
        if r.controller == Some(true) {
            let current = format!("{}/{}", r.kind, r.name);
            match &first_controller {
                Some(first) => {
                    let all: Vec<String> = refs.iter().map(owner_ref_json).collect();
                    let detail = format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"
                    );
                    causes.push(Cause::invalid(path, BadValue::Json(format!("[{}]", all.join(","))), &detail));
                }
                None => first_controller = Some(current),
            }
        }
    }
    causes
}

/// Renders an optional value as Go's encoding/json would (`null` when absent).
fn json_of<T: Serialize>(v: &Option<T>) -> BadValue {
    BadValue::Json(serde_json::to_string(v).unwrap_or_else(|_| "null".into()))
}

/// ValidateObjectMetaUpdate under `metadata`: no new finalizers while deleting,
/// resourceVersion set, generation not decreasing, immutable identity fields, then the same
/// label/annotation/owner/finalizer rules as create. The caller fills in resourceVersion
/// first for unconditional updates, as the registry does before validating.
pub fn validate_object_meta_update(new: &ObjectMeta, old: &ObjectMeta) -> Vec<Cause> {
    let path = FieldPath::new("metadata");
    let mut causes = Vec::new();
    let new_finalizers = new.finalizers.as_deref().unwrap_or_default();
    if old.deletion_timestamp.is_some() {
        let old_set: BTreeSet<&String> = old.finalizers.iter().flatten().collect();
        let extra: BTreeSet<&String> = new_finalizers.iter().filter(|f| !old_set.contains(f)).collect();
        if !extra.is_empty() {
            let listed: Vec<String> = extra.iter().map(|f| go_quote(f)).collect();
            let detail = format!(
                "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                listed.join(", ")
            );
            causes.push(Cause::forbidden(path.child("finalizers"), &detail));
        }
    }
    let rv = new.resource_version.as_deref().unwrap_or("");
    if rv.is_empty() {
        causes.push(Cause::invalid(path.child("resourceVersion"), rv, "must be specified for an update"));
    }
    let (new_gen, old_gen) = (new.generation.unwrap_or(0), old.generation.unwrap_or(0));
    if new_gen < old_gen {
        causes.push(Cause::invalid(path.child("generation"), new_gen, "must not be decremented"));
    }
    let strings =
        [("name", &new.name, &old.name), ("namespace", &new.namespace, &old.namespace), ("uid", &new.uid, &old.uid)];
    for (field, n, o) in strings {
        let (n, o) = (n.as_deref().unwrap_or(""), o.as_deref().unwrap_or(""));
        if n != o {
            causes.push(Cause::invalid(path.child(field), n, FIELD_IMMUTABLE_MSG));
        }
    }
    if new.creation_timestamp != old.creation_timestamp {
        causes.push(Cause::invalid(
            path.child("creationTimestamp"),
            json_of(&new.creation_timestamp),
            FIELD_IMMUTABLE_MSG,
        ));
    }
    if new.deletion_timestamp != old.deletion_timestamp {
        causes.push(Cause::invalid(
            path.child("deletionTimestamp"),
            json_of(&new.deletion_timestamp),
            FIELD_IMMUTABLE_MSG,
        ));
    }
    if new.deletion_grace_period_seconds != old.deletion_grace_period_seconds {
        let value = json_of(&new.deletion_grace_period_seconds);
        causes.push(Cause::invalid(path.child("deletionGracePeriodSeconds"), value, FIELD_IMMUTABLE_MSG));
    }
    let empty_map = BTreeMap::new();
    causes.extend(validate_labels(new.labels.as_ref().unwrap_or(&empty_map), &path.child("labels")));
    causes.extend(validate_annotations(new.annotations.as_ref().unwrap_or(&empty_map), &path.child("annotations")));
    let refs = new.owner_references.as_deref().unwrap_or_default();
    causes.extend(validate_owner_references(refs, &path.child("ownerReferences")));
    causes.extend(validate_finalizers(new_finalizers, &path.child("finalizers")));
    causes
}

#[cfg(test)]
#[path = "meta_validation_tests.rs"]
mod tests;

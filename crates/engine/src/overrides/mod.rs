//! Per-cluster overrides: rewrites a resource template for one member cluster with the
//! OverridePolicies and ClusterOverridePolicies that select it, in upstream's order. (Their
//! admission checks are the registry's: `registry::validation::override_policy`.)

mod applied;
mod command_args;
mod field;
mod go_json;
mod image;
mod image_ref;
mod labels_annotations;
mod patch;
mod plaintext;
mod select;

use serde_json::Value;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::overrides::{OverrideSpec, Overriders};
use select::Resource;
pub(crate) use select::cluster_matches;

/// One override policy as the engine sees it.
pub struct OverrideSource<'a> {
    /// `None` for a ClusterOverridePolicy.
    pub namespace: Option<&'a str>,
    pub name: &'a str,
    pub spec: &'a OverrideSpec,
}

/// What was applied, for the Work annotations `policy.karmada.io/applied-overrides` and
/// `policy.karmada.io/applied-cluster-overrides` (JSON, as upstream writes them); `None` when
/// no policy of that kind applied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AppliedOverrides {
    pub namespaced: Option<String>,
    pub cluster: Option<String>,
}

/// An overrider that cannot be applied to this manifest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{policy}: {message}")]
pub struct OverrideError {
    /// `namespace/name` or `name` of the policy.
    pub policy: String,
    pub message: String,
}

/// Applies every policy that selects `manifest` and targets `cluster`, in upstream's order:
/// ClusterOverridePolicies first, then (for a namespaced manifest) the OverridePolicies of its
/// namespace; within each kind, policies whose selectors match less specifically first (kind
/// only, then labels, then name) so the more specific win, ties by name; within a policy its
/// matching rules in order; within a rule image, command, args, labels, annotations, field and
/// plaintext overriders.
///
/// On error `manifest` is left unchanged.
pub fn apply(
    manifest: &mut Value,
    cluster: &Cluster,
    cluster_policies: &[OverrideSource<'_>],
    namespaced_policies: &[OverrideSource<'_>],
) -> Result<AppliedOverrides, OverrideError> {
    let mut work = manifest.clone();
    let cluster_items = apply_policies(&mut work, cluster, cluster_policies)?;
    let namespaced_items = apply_policies(&mut work, cluster, namespaced_policies)?;
    *manifest = work;
    Ok(AppliedOverrides { namespaced: applied::render(&namespaced_items), cluster: applied::render(&cluster_items) })
}

/// Applies the matching rules of one kind of policy; returns what was applied, in order.
fn apply_policies<'a>(
    manifest: &mut Value,
    cluster: &Cluster,
    policies: &'a [OverrideSource<'a>],
) -> Result<Vec<applied::Item<'a>>, OverrideError> {
    let selected = {
        let resource = Resource::of(manifest);
        select::select(policies, &resource, cluster)
    };
    let mut items = Vec::with_capacity(selected.len());
    for s in selected {
        apply_overriders(manifest, s.overriders).map_err(|message| OverrideError {
            policy: match s.policy.namespace {
                Some(ns) => format!("{ns}/{}", s.policy.name),
                None => s.policy.name.to_string(),
            },
            message,
        })?;
        items.push(applied::Item { policy_name: s.policy.name, overriders: s.overriders });
    }
    Ok(items)
}

/// upstream's `applyPolicyOverriders` order.
fn apply_overriders(manifest: &mut Value, o: &Overriders) -> Result<(), String> {
    image::apply(manifest, o.image_overrider.as_deref().unwrap_or_default())?;
    command_args::apply(manifest, command_args::Target::Command, o.command_overrider.as_deref().unwrap_or_default())?;
    command_args::apply(manifest, command_args::Target::Args, o.args_overrider.as_deref().unwrap_or_default())?;
    let labels = o.labels_overrider.as_deref().unwrap_or_default();
    labels_annotations::apply(manifest, labels_annotations::Target::Labels, labels)?;
    let annotations = o.annotations_overrider.as_deref().unwrap_or_default();
    labels_annotations::apply(manifest, labels_annotations::Target::Annotations, annotations)?;
    field::apply(manifest, o.field_overrider.as_deref().unwrap_or_default())?;
    plaintext::apply(manifest, o.plaintext.as_deref().unwrap_or_default())
}

#[cfg(test)]
mod tests;

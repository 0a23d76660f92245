//! Reading a Cluster and writing a taint edit to it.
//!
//! Upstream sends the whole new taint list as a merge patch, so a taint another client added
//! between the read and the write is lost. Here the write is a JSON patch that first tests
//! `metadata.resourceVersion` and then adds or removes only the taints the edit names; when the
//! Cluster changed in between, the server refuses the patch, the Cluster is read again and the
//! edit is decided anew on what is there now.

use k8s_openapi::api::core::v1::Taint;
use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;
use kube::api::{ListParams, Patch, PatchParams};
use serde_json::{Value, json};

use super::edit::TaintEdit;
use super::errors::TaintError;
use crate::membership::Target;
use crate::membership::errors::classify;

/// How often a write is tried against a Cluster that keeps changing.
pub const MAX_ATTEMPTS: usize = 10;

/// The taints of a Cluster (none when the field is absent).
pub fn taints_of(cluster: &Cluster) -> &[Taint] {
    cluster.spec.taints.as_deref().unwrap_or_default()
}

/// The JSON patch for `edit` on a Cluster whose taints are `old` at `resource_version`. The
/// `test` makes the server refuse it if the Cluster changed since it was read, so the indices
/// the removals name are the ones that were read.
pub fn json_patch(resource_version: &str, old: &[Taint], edit: &TaintEdit) -> Value {
    let mut ops = vec![json!({"op": "test", "path": "/metadata/resourceVersion", "value": resource_version})];
    let path = "/spec/taints";
    let remaining = old.len() - edit.remove.iter().filter(|&&i| i < old.len()).count();
    let added = edit.prepend.len() + edit.append.len();
    if !old.is_empty() && remaining == 0 && added == 0 {
        // Removing the last taint drops the field, as upstream's `"taints": null` does.
        ops.push(json!({"op": "remove", "path": path}));
        return Value::Array(ops);
    }
    if old.is_empty() {
        // No list to insert into (the field may be absent): add it whole.
        let list: Vec<&Taint> = edit.prepend.iter().chain(&edit.append).collect();
        if !list.is_empty() {
            ops.push(json!({"op": "add", "path": path, "value": list}));
        }
        return Value::Array(ops);
    }
    // Highest index first, so each removal leaves the lower indices where they were read.
    let mut remove = edit.remove.clone();
    remove.sort_unstable();
    remove.dedup();
    for i in remove.into_iter().rev() {
        ops.push(json!({"op": "remove", "path": format!("{path}/{i}")}));
    }
    for (i, taint) in edit.prepend.iter().enumerate() {
        ops.push(json!({"op": "add", "path": format!("{path}/{i}"), "value": taint}));
    }
    for taint in &edit.append {
        ops.push(json!({"op": "add", "path": format!("{path}/-"), "value": taint}));
    }
    Value::Array(ops)
}

/// A failed request as a command error: NotFound names the Cluster as the API server does,
/// transport and authentication failures are classified like join's, other refusals keep the
/// server's message.
fn request_error(target: &Target, what: String, name: &str, err: kube::Error) -> anyhow::Error {
    match err {
        kube::Error::Api(status) if status.code == 404 => TaintError::ClusterNotFound(name.to_string()).into(),
        kube::Error::Api(status) if status.code != 401 && status.code != 403 => {
            TaintError::Rejected { what, message: status.message.clone() }.into()
        }
        other => classify(target, what, other).into(),
    }
}

/// Reads one Cluster.
pub async fn get(api: &Api<Cluster>, target: &Target, name: &str) -> anyhow::Result<Cluster> {
    api.get(name).await.map_err(|e| request_error(target, format!("reading cluster {name}"), name, e))
}

/// Lists the Clusters a label selector picks (an empty selector picks all).
pub async fn list(api: &Api<Cluster>, target: &Target, selector: &str) -> anyhow::Result<Vec<Cluster>> {
    let params = ListParams::default().labels(selector);
    let list = api.list(&params).await.map_err(|e| request_error(target, "listing clusters".into(), "", e))?;
    Ok(list.items)
}

/// Decides an edit on `cluster` with `decide` and writes it (not under `dry_run`). When the
/// Cluster changed before the write landed, it is read again and `decide` runs again on the
/// fresh object. Returns what `decide` returned for the object that was written.
pub async fn write_edit<T>(
    api: &Api<Cluster>,
    target: &Target,
    mut cluster: Cluster,
    dry_run: bool,
    mut decide: impl FnMut(&Cluster) -> Result<(Option<TaintEdit>, T), TaintError>,
) -> anyhow::Result<T> {
    let name = cluster.metadata.name.clone().unwrap_or_default();
    for _ in 0..MAX_ATTEMPTS {
        let (edit, outcome) = decide(&cluster)?;
        let Some(edit) = edit.filter(|e| !e.is_empty()) else { return Ok(outcome) };
        if dry_run {
            return Ok(outcome);
        }
        let read_version = cluster.metadata.resource_version.clone().unwrap_or_default();
        let ops = json_patch(&read_version, taints_of(&cluster), &edit);
        let patch: json_patch::Patch = serde_json::from_value(ops)?;
        let what = format!("updating the taints of cluster {name}");
        match api.patch(&name, &PatchParams::default(), &Patch::Json::<()>(patch)).await {
            Ok(_) => return Ok(outcome),
            // 422: the `test` failed (the Cluster changed since it was read); 409: it changed
            // while the server applied the patch. Either way, read it again, unless it did not
            // change at all, in which case the refusal is about the patch itself.
            Err(kube::Error::Api(status)) if status.code == 409 || status.code == 422 => {
                let fresh = get(api, target, &name).await?;
                if fresh.metadata.resource_version.as_deref() == Some(read_version.as_str()) {
                    return Err(TaintError::Rejected { what, message: status.message.clone() }.into());
                }
                cluster = fresh;
            }
            Err(e) => return Err(request_error(target, what, &name, e)),
        }
    }
    Err(TaintError::KeptChanging(name, MAX_ATTEMPTS).into())
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;

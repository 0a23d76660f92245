//! Enforcement of FederatedResourceQuotas' `spec.overall` on the templates of their namespace.
//!
//! Upstream (with its FederatedQuotaEnforcement gate) checks ResourceBindings in its webhook,
//! after the template was stored, so a user learns of a refusal only from events. Here the
//! template itself is checked when it is created, updated or scaled, the way kube-apiserver's
//! ResourceQuota admission checks pods: what the template asks for (replicas × what one
//! replica requests, from the native resource interpreter) plus what the namespace's other
//! templates ask for must stay within `overall`, for each resource the change raises.
//! A refusal is kube's: 403 Forbidden, `exceeded quota: <name>, requested: …, used: …,
//! limited: …` (docs/differences.md says why not 422).
//!
//! kube makes two writes that pass the check at once impossible by updating the quota's
//! `status.used` with a compare-and-swap before admitting either. The usage here is summed from
//! the templates themselves, so instead the check and the write it admits hold the namespace's
//! lock ([`NamespaceLocks`]) together: the second writer sums usage only once the first one's
//! object is stored (in this replica; see docs/differences.md for several replicas).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use karmadactl_apimachinery::ApiError;
use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_apimachinery::resource_list::{self, ResourceList};
use serde_json::Value;

use crate::registry::ResourceDef;
use crate::state::ApiState;
use crate::storage::store_access::{list_all, prefix};

/// FederatedResourceQuota's group and resource.
const FRQ: (&str, &str) = ("policy.karmada.io", "federatedresourcequotas");

/// The template kinds whose replicas and requests the native interpreter knows, as
/// (group, resource): the ones counted against a quota.
const COUNTED: &[(&str, &str)] =
    &[("apps", "deployments"), ("apps", "replicasets"), ("apps", "statefulsets"), ("batch", "jobs"), ("", "pods")];

/// Most templates of one namespace summed for one admission; past it the request is refused
/// rather than letting one write scan an unbounded namespace.
const MAX_COUNTED_TEMPLATES: usize = 20_000;

/// Past this many namespaces remembered, the locks nobody holds are forgotten.
const REMEMBERED_NAMESPACES: usize = 1024;

/// A namespace's quota lock, held from the quota check until the write it admitted is stored
/// (or refused); `None` when no quota had to be checked.
pub type Admitted = Option<tokio::sync::OwnedMutexGuard<()>>;

/// One lock per namespace whose quota is being checked. Entries are weak, so a namespace nobody
/// writes holds no memory once the map is pruned.
#[derive(Default)]
pub struct NamespaceLocks {
    locks: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
}

impl NamespaceLocks {
    /// Waits for `namespace`'s lock.
    pub async fn lock(&self, namespace: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.len() >= REMEMBERED_NAMESPACES {
                locks.retain(|_, l| l.strong_count() > 0);
            }
            match locks.get(namespace).and_then(Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    locks.insert(namespace.to_string(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        lock.lock_owned().await
    }
}

/// Refuses `new` (replacing `old`, if any) when it would take a federated quota of its
/// namespace past `overall`. When a quota was checked, the returned guard must be held until
/// the write is stored, so that no other write of the namespace is checked against usage
/// that is about to change.
pub async fn check(
    state: &ApiState,
    def: &ResourceDef,
    old: Option<&Value>,
    new: &Value,
) -> Result<Admitted, ApiError> {
    if !COUNTED.contains(&(def.group.as_str(), def.plural.as_str())) {
        return Ok(None);
    }
    let Some(namespace) = new.pointer("/metadata/namespace").and_then(Value::as_str) else { return Ok(None) };
    let name = new.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    let requested = usage(new);
    let previous = old.map(usage).unwrap_or_default();
    let delta = resource_list::subtract(&requested, &previous);
    if !delta.values().any(|q| q.cmp_value(&Default::default()).is_gt()) {
        // Nothing grows: no quota can refuse it, and no listing is needed.
        return Ok(None);
    }
    let (quotas, _) = list_all(state, &prefix(FRQ.0, FRQ.1, Some(namespace))).await?;
    let mut quotas: Vec<(String, ResourceList)> = quotas
        .iter()
        .filter_map(|q| {
            let hard = resource_list::parse(q.pointer("/spec/overall")?).ok()?;
            let quota_name = q.pointer("/metadata/name")?.as_str()?.to_string();
            (!hard.is_empty()).then_some((quota_name, hard))
        })
        .collect();
    if quotas.is_empty() {
        return Ok(None);
    }
    quotas.sort_by(|a, b| a.0.cmp(&b.0));
    let guard = state.quota_locks.lock(namespace).await;
    let used = used_by_others(state, namespace, (&def.group, &def.plural, name)).await?;
    let used = resource_list::add(&used, &previous);
    for (quota, hard) in &quotas {
        let over = resource_list::exceeded(hard, &used, &delta);
        if over.is_empty() {
            continue;
        }
        let message = format!(
            "exceeded quota: {quota}, requested: {}, used: {}, limited: {}",
            resource_list::pretty(&resource_list::mask(&delta, &over)),
            resource_list::pretty(&resource_list::mask(&used, &over)),
            resource_list::pretty(&resource_list::mask(hard, &over)),
        );
        return Err(ApiError::forbidden_message(&def.group, &def.plural, name, &message));
    }
    Ok(Some(guard))
}

/// What one template counts against a quota: its replicas × each replica's requests.
fn usage(template: &Value) -> ResourceList {
    let Ok(replicas) = karmadactl_interpreter::native::replicas(template) else {
        return ResourceList::new();
    };
    let requests = replicas
        .requirements
        .and_then(|r| r.resource_request)
        .map(|r| r.into_iter().filter_map(|(k, q)| Some((k, Quantity::parse(&q.0).ok()?))).collect::<ResourceList>())
        .unwrap_or_default();
    resource_list::quota_usage(&requests, i64::from(replicas.replicas))
}

/// The sum over the namespace's counted templates other than `this` (and those being deleted).
async fn used_by_others(state: &ApiState, namespace: &str, this: (&str, &str, &str)) -> Result<ResourceList, ApiError> {
    let mut used = ResourceList::new();
    let mut seen = 0;
    for (group, plural) in COUNTED {
        let (objects, _) = list_all(state, &prefix(group, plural, Some(namespace))).await?;
        seen += objects.len();
        if seen > MAX_COUNTED_TEMPLATES {
            return Err(ApiError::forbidden_message(
                this.0,
                this.1,
                this.2,
                &format!(
                    "namespace {namespace} holds more than {MAX_COUNTED_TEMPLATES} workloads, more than its federated quota usage is summed over"
                ),
            ));
        }
        for object in &objects {
            let object_name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
            if (*group, *plural, object_name) == this || object.pointer("/metadata/deletionTimestamp").is_some() {
                continue;
            }
            used = resource_list::add(&used, &usage(object));
        }
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_template_counts_replicas_times_each_replicas_requests() {
        let deployment = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "ns"},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [
                {"name": "a", "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}}},
                {"name": "b", "resources": {"requests": {"cpu": "250m"}}},
            ]}}},
        });
        assert_eq!(
            resource_list::to_json(&usage(&deployment)),
            json!({"cpu": "1500m", "memory": "192Mi", "pods": "3",
                "requests.cpu": "1500m", "requests.memory": "192Mi"})
        );
        // A kind the native interpreter has no replicas for counts nothing.
        assert!(usage(&json!({"apiVersion": "v1", "kind": "ConfigMap"})).is_empty());
    }
}

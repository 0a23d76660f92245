//! The binding status controllers (upstream's `rb_status_controller` and
//! `crb_status_controller` in `pkg/controllers/status`): each binding's Works report per
//! cluster into the binding's `aggregatedStatus` and `FullyApplied` condition, and workloads
//! get their members' numbers added up in the template's own status (upstream's detector does
//! that part, in `aggregate_status.go`), so `kubectl get deploy` on the plane shows the fleet.

use std::sync::Arc;

use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::{Value, json};

use super::bindings::{self, set_condition};
use super::context::{BindingKey, Engine, TemplateKey};
use super::detector::gvk_of;
use super::error::ReconcileError;
use super::interpreted;
use karmadactl_interpreter::Operation;

pub async fn reconcile(engine: &Arc<Engine>, key: &BindingKey) -> Result<(), ReconcileError> {
    let Some(binding) = engine.binding(key) else {
        return Ok(());
    };
    if binding.meta().deletion_timestamp.is_some() {
        return Ok(());
    }
    let Some(id) = binding.permanent_id().map(str::to_string) else {
        return Ok(());
    };
    let works = engine.work_index.reports_of_binding(&engine.caches.works, key.id_label(), &id);
    let targets = binding.spec().clusters.clone().unwrap_or_default();
    let mut items = vec![];
    for t in &targets {
        let namespace = wellknown::execution_space(&t.name);
        let work = works.iter().find(|w| w.metadata.namespace.as_deref() == Some(namespace.as_str()));
        let applied =
            work.and_then(|w| w.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == "Applied").cloned());
        let manifest = work.and_then(|w| w.status.as_ref()?.manifest_statuses.as_ref()?.first().cloned());
        items.push(AggregatedStatusItem {
            cluster_name: t.name.clone(),
            status: manifest.as_ref().and_then(|m| m.status.clone()),
            applied: applied.as_ref().map(|c| c.status == "True"),
            applied_message: applied.as_ref().filter(|c| c.status != "True").map(|c| c.message.clone()),
            health: manifest.as_ref().and_then(|m| m.health),
        });
    }
    let fully = !items.is_empty() && items.iter().all(|i| i.applied == Some(true));
    let wanted = items.clone();
    bindings::update_status(engine, key, |status| {
        let mut changed = false;
        if status.aggregated_status.as_ref() != Some(&wanted) {
            status.aggregated_status = Some(wanted.clone());
            changed = true;
        }
        if !targets.is_empty() {
            let mut conditions = status.conditions.take().unwrap_or_default();
            changed |= if fully {
                set_condition(
                    &mut conditions,
                    "FullyApplied",
                    true,
                    "FullyAppliedSuccess",
                    "All works have been successfully applied",
                    None,
                )
            } else {
                set_condition(
                    &mut conditions,
                    "FullyApplied",
                    false,
                    "FullyAppliedFailed",
                    "Failed to apply all works, see status.aggregatedStatus for details",
                    None,
                )
            };
            status.conditions = Some(conditions);
        }
        changed
    })
    .await?;
    template_status(engine, &binding.spec().resource, &items).await
}

/// Writes the members' statuses, as the interpreter adds them up, into the template's status
/// (kinds nobody interprets keep theirs).
async fn template_status(
    engine: &Engine,
    r: &karmadactl_karmada_api::work::binding::ObjectReference,
    items: &[AggregatedStatusItem],
) -> Result<(), ReconcileError> {
    let key =
        TemplateKey { gvk: gvk_of(&r.api_version, &r.kind), namespace: r.namespace.clone(), name: r.name.clone() };
    let Some(template) = engine.template(&key) else {
        return Ok(());
    };
    let object = interpreted::object_value(&key.gvk, &template);
    if !interpreted::enabled(engine, &object, Operation::AggregateStatus) {
        return Ok(());
    }
    let aggregated = engine.interpreter.aggregate_status(&object, items).await?;
    let current = template.data.get("status").filter(|s| !s.is_null());
    let status = aggregated.get("status").cloned().unwrap_or(json!({}));
    let current = current.cloned().unwrap_or(json!({}));
    if current == status {
        return Ok(());
    }
    let mut patch = status.clone();
    if let (Some(p), Some(c)) = (patch.as_object_mut(), current.as_object()) {
        for k in c.keys() {
            if !p.contains_key(k) {
                p.insert(k.clone(), Value::Null);
            }
        }
    }
    let Some(source) = engine.template_source(&key.gvk) else {
        return Ok(());
    };
    let api: Api<DynamicObject> = match &key.namespace {
        Some(ns) => Api::namespaced_with(engine.client.clone(), ns, &source.resource),
        None => Api::all_with(engine.client.clone(), &source.resource),
    };
    let patch = json!({"metadata": {"uid": template.metadata.uid}, "status": patch});
    match api.patch_status(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

//! AggregateStatus for kinds whose status is a phase (upstream's `aggregatePodStatus`,
//! `aggregatePersistentVolumeStatus`, `aggregatePersistentVolumeClaimStatus`): the members'
//! phases reduce to the worst one, a member not yet reported counting as Pending.

use std::collections::BTreeSet;

use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Map, Value, json};

use super::fields;

/// The first phase of `order` that some member is in.
fn worst<'a>(phases: &BTreeSet<&str>, order: &[&'a str]) -> Option<&'a str> {
    order.iter().copied().find(|p| phases.contains(p))
}

/// The members' phases, Pending for an item without a status.
fn phases(items: &[AggregatedStatusItem]) -> BTreeSet<&str> {
    items
        .iter()
        .map(|i| i.status.as_ref().filter(|s| s.is_object()).map_or("Pending", |s| fields::string(s, "/phase")))
        .collect()
}

/// A container status as upstream rebuilds it from its typed struct: the readiness and
/// state kept, the other required fields at their zero values.
fn container_status(member: &Value) -> Value {
    json!({
        "name": "", "state": member.get("state").cloned().unwrap_or_else(|| json!({})), "lastState": {},
        "ready": member["ready"].as_bool().unwrap_or(false), "restartCount": 0, "image": "", "imageID": "",
    })
}

/// A Pod's phase (Failed, then Pending, Running, Succeeded; Unknown is ignored as
/// deprecated) and every member's container statuses.
pub fn pod(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    if items.is_empty() {
        return object.clone();
    }
    let mut containers = Vec::new();
    let mut init_containers = Vec::new();
    for item in items {
        let Some(status) = item.status.as_ref().filter(|s| s.is_object()) else {
            continue;
        };
        containers.extend(fields::list(status, "/containerStatuses").iter().map(container_status));
        init_containers.extend(fields::list(status, "/initContainerStatuses").iter().map(container_status));
    }
    let mut status = Map::new();
    if let Some(phase) = worst(&phases(items), &["Failed", "Pending", "Running", "Succeeded"]) {
        status.insert("phase".into(), json!(phase));
    }
    if !init_containers.is_empty() {
        status.insert("initContainerStatuses".into(), Value::Array(init_containers));
    }
    if !containers.is_empty() {
        status.insert("containerStatuses".into(), Value::Array(containers));
    }
    fields::with_status(object, status)
}

/// A PersistentVolume's phase: Failed, then Pending, Available, Bound, Released.
pub fn persistent_volume(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let mut status = Map::new();
    if let Some(phase) = worst(&phases(items), &["Failed", "Pending", "Available", "Bound", "Released"]) {
        status.insert("phase".into(), json!(phase));
    }
    fields::with_status(object, status)
}

/// A PersistentVolumeClaim is Bound while every member's is; Lost as soon as one is lost;
/// otherwise the last other phase a member reported.
pub fn persistent_volume_claim(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let mut phase = "Bound";
    for item in items {
        let Some(status) = item.status.as_ref().filter(|s| s.is_object()) else {
            continue;
        };
        let member = fields::string(status, "/phase");
        if member == "Lost" {
            phase = "Lost";
            break;
        }
        if member != "Bound" {
            phase = member;
        }
    }
    let mut status = Map::new();
    if !phase.is_empty() {
        status.insert("phase".into(), json!(phase));
    }
    fields::with_status(object, status)
}

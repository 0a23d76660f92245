//! What one pod requests, as upstream's `util.Resource` adds it up
//! (`AddPodTemplateRequest`): each container's requests, defaulted from its limits; the app
//! containers summed, raised to the largest init container where that is larger, plus the
//! pod overhead. CPU counts in millicores and everything else in whole units, rounded up, and
//! only the resources the scheduler knows survive (`IsScalarResourceName`).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use karmadactl_apimachinery::quantity;
use serde_json::{Map, Value};

const CPU: &str = "cpu";
const MEMORY: &str = "memory";
const PODS: &str = "pods";
const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
const HUGE_PAGES_PREFIX: &str = "hugepages-";

/// The pod's effective requests, `None` when nothing is requested.
pub fn pod_requests(pod_spec: &Value) -> Option<BTreeMap<String, Quantity>> {
    let mut total: BTreeMap<String, i64> = BTreeMap::new();
    for container in pod_spec["containers"].as_array().into_iter().flatten() {
        for (name, amount) in container_requests(container) {
            *total.entry(name).or_insert(0) += amount;
        }
    }
    for container in pod_spec["initContainers"].as_array().into_iter().flatten() {
        for (name, amount) in container_requests(container) {
            let current = total.entry(name).or_insert(0);
            *current = (*current).max(amount);
        }
    }
    if let Some(overhead) = pod_spec["overhead"].as_object() {
        for (name, amount) in amounts(overhead) {
            *total.entry(name).or_insert(0) += amount;
        }
    }
    let list: BTreeMap<String, Quantity> =
        total.into_iter().filter(|(_, v)| *v > 0).map(|(k, v)| (k.clone(), Quantity(format_amount(&k, v)))).collect();
    (!list.is_empty()).then_some(list)
}

/// A container's requests, with limits standing in for requests it does not state.
fn container_requests(container: &Value) -> Vec<(String, i64)> {
    let mut requests = container.pointer("/resources/requests").and_then(Value::as_object).cloned().unwrap_or_default();
    if let Some(limits) = container.pointer("/resources/limits").and_then(Value::as_object) {
        for (k, v) in limits {
            requests.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    amounts(&requests)
}

/// The countable amounts of a resource list: millicores for CPU, whole units (rounded up)
/// otherwise; unknown names and unparsable quantities are left out, as upstream's typed
/// conversion would have refused them earlier.
fn amounts(list: &Map<String, Value>) -> Vec<(String, i64)> {
    list.iter()
        .filter(|(name, _)| counted(name))
        .filter_map(|(name, v)| {
            let q = quantity::Quantity::parse(&quantity_text(v)?).ok()?;
            // Kubernetes rounds up (MilliValue, Value); a quantity finer than a milli-unit
            // is one that prints with a micro or nano suffix.
            let finer = q.to_string().ends_with(['u', 'n']);
            let millis = i64::try_from(q.millis()).ok()?.checked_add(i64::from(finer))?;
            let amount = if name == CPU { millis } else { millis.div_euclid(1000) + i64::from(millis % 1000 != 0) };
            Some((name.clone(), amount))
        })
        .collect()
}

/// A quantity as written: a string, or a bare number.
fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether upstream's `Resource.Add` counts the resource: the four native ones, or a scalar
/// resource (extended, huge pages, `*kubernetes.io/`-prefixed, attachable volumes).
fn counted(name: &str) -> bool {
    matches!(name, CPU | MEMORY | PODS | EPHEMERAL_STORAGE)
        || is_extended(name)
        || name.starts_with(HUGE_PAGES_PREFIX)
        || name.contains("kubernetes.io/")
        || name.starts_with("attachable-volumes-")
}

/// An extended resource: domain-prefixed outside `kubernetes.io`, not a quota name, and a
/// qualified name once prefixed with `requests.`.
fn is_extended(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    !native
        && !name.starts_with("requests.")
        && karmadactl_apimachinery::is_qualified_name(&format!("requests.{name}")).is_empty()
}

/// The amount as upstream's `ResourceList()` prints it: CPU as a milli-quantity, memory,
/// storage and huge pages in the binary format, counts in the decimal one.
fn format_amount(name: &str, amount: i64) -> String {
    if name == CPU {
        return quantity::Quantity::parse(&format!("{amount}m")).map(|q| q.to_string()).unwrap_or_default();
    }
    if matches!(name, MEMORY | EPHEMERAL_STORAGE) || name.starts_with(HUGE_PAGES_PREFIX) {
        return binary(amount);
    }
    quantity::Quantity::from_units(amount).to_string()
}

/// Kubernetes' canonical BinarySI text: below 1024 it prints in decimal; otherwise the largest
/// power-of-1024 suffix that divides the amount exactly.
fn binary(amount: i64) -> String {
    if amount < 1024 {
        return quantity::Quantity::from_units(amount).to_string();
    }
    let mut n = amount;
    let mut suffix = 0;
    while n % 1024 == 0 && suffix < 6 {
        n /= 1024;
        suffix += 1;
    }
    format!("{n}{}", ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][suffix])
}

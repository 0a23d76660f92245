//! AggregateStatus for load-balanced kinds (upstream's `aggregateServiceStatus`,
//! `aggregateIngressStatus` and `helper.DedupeAndSort*LoadBalancerIngress`): every member's
//! ingress points, each point (hostname, IP, IP mode) once with the union of its port
//! statuses, hostnames first in order, then by IP.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Map, Value};

use super::aggregate_status::reported;
use super::fields;

/// A Service's status: its members' load balancer ingress points, for a LoadBalancer only.
pub fn service(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    if fields::string(object, "/spec/type") != "LoadBalancer" {
        return object.clone();
    }
    with_ingress(object, items)
}

/// An Ingress's status: its members' load balancer ingress points.
pub fn ingress(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    with_ingress(object, items)
}

fn with_ingress(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let points: Vec<Value> =
        reported(items).flat_map(|(_, s)| fields::list(s, "/loadBalancer/ingress").iter().cloned()).collect();
    let points = dedupe_and_sort(points);
    let mut load_balancer = Map::new();
    if !points.is_empty() {
        load_balancer.insert("ingress".into(), Value::Array(points));
    }
    let status = Map::from_iter([("loadBalancer".to_string(), Value::Object(load_balancer))]);
    if object.get("status") == Some(&Value::Object(status.clone())) {
        return object.clone();
    }
    fields::with_status(object, status)
}

/// One entry per (hostname, IP, IP mode), the last one seen carrying the union of the
/// entries' ports, sorted.
fn dedupe_and_sort(points: Vec<Value>) -> Vec<Value> {
    // Indexed by key so many members with many points stay O(n log n).
    let key = |p: &Value| {
        let mode = p["ipMode"].as_str().map(str::to_string);
        (fields::string(p, "/hostname").to_string(), fields::string(p, "/ip").to_string(), mode)
    };
    let mut index: BTreeMap<(String, String, Option<String>), usize> = BTreeMap::new();
    let mut merged: Vec<(Value, Vec<Value>)> = Vec::new();
    for point in points {
        let ports = fields::list(&point, "/ports").to_vec();
        let k = key(&point);
        match index.get(&k) {
            Some(&i) => {
                merged[i].0 = point;
                merged[i].1.extend(ports);
            }
            None => {
                index.insert(k, merged.len());
                merged.push((point, ports));
            }
        }
    }
    let mut out: Vec<Value> = merged
        .into_iter()
        .map(|(mut point, mut ports)| {
            ports.sort_by(compare_ports);
            ports.dedup();
            if let Some(map) = point.as_object_mut() {
                map.remove("ports");
                if !ports.is_empty() {
                    map.insert("ports".into(), Value::Array(ports));
                }
            }
            point
        })
        .collect();
    out.sort_by(compare_points);
    out
}

/// Port statuses by port, protocol, then error (none first).
fn compare_ports(a: &Value, b: &Value) -> Ordering {
    fields::int(a, "/port")
        .cmp(&fields::int(b, "/port"))
        .then_with(|| fields::string(a, "/protocol").cmp(fields::string(b, "/protocol")))
        .then_with(|| a["error"].as_str().cmp(&b["error"].as_str()))
}

/// Points with a hostname first, by hostname; then by IP; then by IP mode (none last).
fn compare_points(a: &Value, b: &Value) -> Ordering {
    let (ha, hb) = (fields::string(a, "/hostname"), fields::string(b, "/hostname"));
    let hostname = match (ha.is_empty(), hb.is_empty()) {
        (false, true) => Ordering::Less,
        (true, false) => Ordering::Greater,
        _ => ha.cmp(hb),
    };
    let mode = match (a["ipMode"].as_str(), b["ipMode"].as_str()) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    hostname.then_with(|| fields::string(a, "/ip").cmp(fields::string(b, "/ip"))).then(mode)
}

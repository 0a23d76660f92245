//! discovery.k8s.io/v1 checks: EndpointSlice's address type, and kube's bounds on endpoints,
//! addresses and ports (`ValidateEndpointSlice`'s essentials).

use std::collections::HashSet;

use serde_json::{Value, json};

use super::access::{at, list_at, str_at};
use super::field::{FieldError, child, index};
use super::{names, pods};

/// kube's `maxEndpoints`, `maxAddresses` and `maxPorts` of an EndpointSlice.
const MAX_ENDPOINTS: usize = 1000;
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const ADDRESS_TYPES: [&str; 3] = ["FQDN", "IPv4", "IPv6"];

/// Checks an EndpointSlice as kube-apiserver does on create: a supported `addressType`, at
/// most 1000 endpoints of 1 to 100 addresses each, and well-formed ports.
pub fn endpoint_slice(obj: &Value, errs: &mut Vec<FieldError>) {
    match str_at(obj, &["addressType"]) {
        None | Some("") => errs.push(FieldError::required("addressType", "")),
        Some(t) if !ADDRESS_TYPES.contains(&t) => {
            errs.push(FieldError::not_supported("addressType", &json!(t), &ADDRESS_TYPES))
        }
        Some(_) => {}
    }
    let endpoints = list_at(obj, &["endpoints"]);
    if endpoints.len() > MAX_ENDPOINTS {
        errs.push(FieldError::too_many("endpoints", endpoints.len(), MAX_ENDPOINTS as u64));
    }
    for (i, e) in endpoints.iter().enumerate().take(MAX_ENDPOINTS) {
        let path = child(&index("endpoints", i), "addresses");
        let addresses = list_at(e, &["addresses"]);
        if addresses.is_empty() {
            errs.push(FieldError::required(&path, "must contain at least 1 address"));
        } else if addresses.len() > MAX_ADDRESSES {
            errs.push(FieldError::too_many(&path, addresses.len(), MAX_ADDRESSES as u64));
        }
    }
    let ports = list_at(obj, &["ports"]);
    if ports.len() > MAX_PORTS {
        errs.push(FieldError::too_many("ports", ports.len(), MAX_PORTS as u64));
    }
    let mut seen = HashSet::new();
    for (i, p) in ports.iter().enumerate().take(MAX_PORTS) {
        let path = index("ports", i);
        let name = str_at(p, &["name"]).unwrap_or("");
        if !name.is_empty() {
            for msg in names::dns1123_label(name) {
                errs.push(FieldError::invalid(child(&path, "name"), &json!(name), msg));
            }
        }
        if !seen.insert(name.to_string()) {
            errs.push(FieldError::duplicate(child(&path, "name"), &json!(name)));
        }
        if let Some(port) = at(p, &["port"]).and_then(Value::as_i64) {
            pods::port_range(port, &child(&path, "port"), errs);
        }
        if let Some(proto) = str_at(p, &["protocol"]) {
            pods::protocol(proto, &child(&path, "protocol"), errs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(obj: Value) -> Vec<String> {
        let mut errs = Vec::new();
        endpoint_slice(&obj, &mut errs);
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn address_type_endpoints_and_ports() {
        let ok = json!({"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}],
                        "ports": [{"name": "http", "port": 80, "protocol": "TCP"}]});
        assert!(run(ok).is_empty());
        let bad = json!({"addressType": "IPv5", "endpoints": [{"addresses": []}],
                         "ports": [{"name": "a", "port": 70000}, {"name": "a", "port": 1}]});
        let msgs = run(bad);
        assert_eq!(msgs.len(), 4, "{msgs:?}");
        assert!(msgs[0].starts_with("addressType: Unsupported value: \"IPv5\""), "{msgs:?}");
        assert!(msgs[1].starts_with("endpoints[0].addresses: Required value"), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.starts_with("ports[1].name: Duplicate value")), "{msgs:?}");
        assert!(run(json!({}))[0].starts_with("addressType: Required value"));
    }
}

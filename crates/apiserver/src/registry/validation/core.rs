//! Core/v1 checks: ConfigMap and Secret keys, Secret types, Service type and ports.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::access::{at, list_at, map_at, str_at};
use super::field::{FieldError, child, index, key};
use super::{names, pods};

/// ConfigMaps and Secrets may hold at most 1 MiB.
const MAX_DATA_BYTES: usize = 1024 * 1024;

fn data_keys(obj: &Value, field: &str, errs: &mut Vec<FieldError>) -> Vec<String> {
    let keys: Vec<String> = map_at(obj, &[field]).map(|m| m.keys().cloned().collect()).unwrap_or_default();
    for k in &keys {
        for msg in names::config_key(k) {
            errs.push(FieldError::invalid(key(field, k), &json!(k), msg));
        }
    }
    keys
}

fn data_size(obj: &Value, fields: &[&str]) -> usize {
    fields
        .iter()
        .filter_map(|f| map_at(obj, &[f]))
        .flat_map(|m| m.iter())
        .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
        .sum()
}

/// Checks a ConfigMap: valid keys, no key in both `data` and `binaryData`, total size.
pub fn config_map(obj: &Value, errs: &mut Vec<FieldError>) {
    let data: HashSet<String> = data_keys(obj, "data", errs).into_iter().collect();
    for k in data_keys(obj, "binaryData", errs) {
        if data.contains(&k) {
            errs.push(FieldError::invalid(key("data", &k), &json!(k), "duplicate of key present in binaryData"));
        }
    }
    if data_size(obj, &["data", "binaryData"]) > MAX_DATA_BYTES {
        errs.push(FieldError::too_long("", MAX_DATA_BYTES));
    }
}

/// Checks a Secret: valid keys and the keys or annotations its `type` requires.
pub fn secret(obj: &Value, errs: &mut Vec<FieldError>) {
    // stringData is merged into data before kube validates, so a key may come from either.
    let mut keys: HashSet<String> = data_keys(obj, "data", errs).into_iter().collect();
    keys.extend(data_keys(obj, "stringData", errs));
    let has = |k: &str| keys.contains(k);
    let mut require = |k: &str| {
        if !has(k) {
            errs.push(FieldError::required(key("data", k), ""));
        }
    };
    match str_at(obj, &["type"]).unwrap_or("Opaque") {
        "kubernetes.io/service-account-token"
            if str_at(obj, &["metadata", "annotations", "kubernetes.io/service-account.name"])
                .is_none_or(str::is_empty) =>
        {
            errs.push(FieldError::required("metadata.annotations[kubernetes.io/service-account.name]", ""));
        }
        "kubernetes.io/dockercfg" => require(".dockercfg"),
        "kubernetes.io/dockerconfigjson" => require(".dockerconfigjson"),
        // Either key may be empty, but one of them must be present.
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            require("username");
            require("password");
        }
        "kubernetes.io/ssh-auth" => require("ssh-privatekey"),
        "kubernetes.io/tls" => {
            require("tls.crt");
            require("tls.key");
        }
        _ => {}
    }
    if data_size(obj, &["data", "stringData"]) > MAX_DATA_BYTES {
        errs.push(FieldError::too_long("data", MAX_DATA_BYTES));
    }
}

/// Checks a Service: type, ports (numbers, names, protocols, node ports) and externalName.
pub fn service(obj: &Value, errs: &mut Vec<FieldError>) {
    let spec = at(obj, &["spec"]).cloned().unwrap_or(Value::Null);
    let ty = str_at(&spec, &["type"]).unwrap_or("ClusterIP");
    const TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if !TYPES.contains(&ty) {
        errs.push(FieldError::not_supported("spec.type", &json!(ty), &TYPES));
    }
    let headless = str_at(&spec, &["clusterIP"]) == Some("None");
    let ports = list_at(&spec, &["ports"]);
    if ty == "ExternalName" {
        if str_at(&spec, &["externalName"]).is_none_or(str::is_empty) {
            errs.push(FieldError::required("spec.externalName", ""));
        }
    } else if ports.is_empty() && !headless {
        errs.push(FieldError::required("spec.ports", ""));
    }
    let mut port_names = HashSet::new();
    for (i, p) in ports.iter().enumerate() {
        let ppath = index("spec.ports", i);
        match str_at(p, &["name"]).filter(|n| !n.is_empty()) {
            None if ports.len() > 1 => errs.push(FieldError::required(child(&ppath, "name"), "")),
            None => {}
            Some(name) => {
                for msg in names::dns1123_label(name) {
                    errs.push(FieldError::invalid(child(&ppath, "name"), &json!(name), msg));
                }
                if !port_names.insert(name.to_string()) {
                    errs.push(FieldError::duplicate(child(&ppath, "name"), &json!(name)));
                }
            }
        }
        pods::port_range(at(p, &["port"]).and_then(Value::as_i64).unwrap_or(0), &child(&ppath, "port"), errs);
        if let Some(proto) = str_at(p, &["protocol"]) {
            pods::protocol(proto, &child(&ppath, "protocol"), errs);
        }
        match at(p, &["targetPort"]) {
            Some(Value::Number(n)) => {
                let n = n.as_i64().unwrap_or(0);
                // 0 means "same as port" after defaulting.
                if n != 0 {
                    pods::port_range(n, &child(&ppath, "targetPort"), errs);
                }
            }
            Some(Value::String(name)) => {
                for msg in names::port_name(name) {
                    errs.push(FieldError::invalid(child(&ppath, "targetPort"), &json!(name), msg));
                }
            }
            _ => {}
        }
        if let Some(np) = at(p, &["nodePort"]).and_then(Value::as_i64).filter(|n| *n != 0) {
            if ty == "ClusterIP" || ty == "ExternalName" {
                errs.push(FieldError::forbidden(
                    child(&ppath, "nodePort"),
                    format!("may not be used when `type` is '{ty}'"),
                ));
            } else {
                pods::port_range(np, &child(&ppath, "nodePort"), errs);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: fn(&Value, &mut Vec<FieldError>), obj: Value) -> Vec<String> {
        let mut errs = Vec::new();
        f(&obj, &mut errs);
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn config_map_keys() {
        assert!(run(config_map, json!({"data": {"a.b": "1", "C_d-e": "2"}})).is_empty());
        let errs = run(config_map, json!({"data": {"a b": "1", "x": ""}, "binaryData": {"x": ""}}));
        assert!(errs[0].starts_with("data[a b]: Invalid value: \"a b\": a valid config key must consist"), "{errs:?}");
        assert_eq!(errs[1], "data[x]: Invalid value: \"x\": duplicate of key present in binaryData");
    }

    #[test]
    fn secret_types() {
        assert!(run(secret, json!({"stringData": {"token": "x"}})).is_empty());
        assert_eq!(
            run(secret, json!({"type": "kubernetes.io/tls", "data": {"tls.crt": ""}})),
            ["data[tls.key]: Required value"]
        );
        assert_eq!(
            run(secret, json!({"type": "kubernetes.io/service-account-token"})),
            ["metadata.annotations[kubernetes.io/service-account.name]: Required value"]
        );
        assert!(
            run(secret, json!({"type": "bootstrap.kubernetes.io/token", "stringData": {"token-id": "abcdef"}}))
                .is_empty()
        );
    }

    #[test]
    fn service_ports() {
        assert!(run(service, json!({"spec": {"ports": [{"port": 80, "targetPort": "http"}]}})).is_empty());
        assert_eq!(run(service, json!({"spec": {}})), ["spec.ports: Required value"]);
        let errs = run(
            service,
            json!({"spec": {"type": "Foo", "ports": [{"port": 0, "nodePort": 30000}, {"name": "b", "port": 1}]}}),
        );
        assert!(errs.contains(&"spec.ports[0].name: Required value".to_string()), "{errs:?}");
        assert!(
            errs.contains(&"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive".to_string()),
            "{errs:?}"
        );
        assert!(errs[0].starts_with("spec.type: Unsupported value: \"Foo\""), "{errs:?}");
        assert!(run(service, json!({"spec": {"type": "ExternalName", "externalName": "a.b"}})).is_empty());
    }
}

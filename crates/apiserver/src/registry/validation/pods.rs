//! Pod spec checks users hit most: containers, names, images, ports, restart policy.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::access::{at, list_at, str_at};
use super::field::{FieldError, child, index};
use super::names;

/// Checks a pod spec found at `path` (`spec` or `spec.template.spec`).
pub fn pod_spec(spec: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    let containers = list_at(spec, &["containers"]);
    if containers.is_empty() {
        errs.push(FieldError::required(child(path, "containers"), ""));
    }
    for (field, require_image) in [("initContainers", true), ("containers", true), ("ephemeralContainers", false)] {
        for (i, c) in list_at(spec, &[field]).iter().enumerate() {
            container(c, &index(&child(path, field), i), require_image, &mut seen, errs);
        }
    }
    if let Some(policy) = str_at(spec, &["restartPolicy"])
        && !["Always", "OnFailure", "Never"].contains(&policy)
    {
        errs.push(FieldError::not_supported(
            child(path, "restartPolicy"),
            &json!(policy),
            &["Always", "OnFailure", "Never"],
        ));
    }
    let mut volumes = HashSet::new();
    for (i, v) in list_at(spec, &["volumes"]).iter().enumerate() {
        let vpath = child(&index(&child(path, "volumes"), i), "name");
        match str_at(v, &["name"]) {
            None | Some("") => errs.push(FieldError::required(vpath, "")),
            Some(name) => {
                for msg in names::dns1123_label(name) {
                    errs.push(FieldError::invalid(&vpath, &json!(name), msg));
                }
                if !volumes.insert(name.to_string()) {
                    errs.push(FieldError::duplicate(vpath, &json!(name)));
                }
            }
        }
    }
}

fn container(c: &Value, path: &str, require_image: bool, seen: &mut HashSet<String>, errs: &mut Vec<FieldError>) {
    let name_path = child(path, "name");
    match str_at(c, &["name"]) {
        None | Some("") => errs.push(FieldError::required(name_path, "")),
        Some(name) => {
            for msg in names::dns1123_label(name) {
                errs.push(FieldError::invalid(&name_path, &json!(name), msg));
            }
            // Names must be unique across init, regular and ephemeral containers.
            if !seen.insert(name.to_string()) {
                errs.push(FieldError::duplicate(name_path, &json!(name)));
            }
        }
    }
    if require_image && str_at(c, &["image"]).is_none_or(|i| i.trim().is_empty()) {
        errs.push(FieldError::required(child(path, "image"), ""));
    }
    let mut port_names = HashSet::new();
    for (i, p) in list_at(c, &["ports"]).iter().enumerate() {
        let ppath = index(&child(path, "ports"), i);
        match at(p, &["containerPort"]).and_then(Value::as_i64) {
            None | Some(0) => errs.push(FieldError::required(child(&ppath, "containerPort"), "")),
            Some(n) => port_range(n, &child(&ppath, "containerPort"), errs),
        }
        if let Some(n) = at(p, &["hostPort"]).and_then(Value::as_i64)
            && n != 0
        {
            port_range(n, &child(&ppath, "hostPort"), errs);
        }
        if let Some(name) = str_at(p, &["name"]).filter(|n| !n.is_empty()) {
            let npath = child(&ppath, "name");
            for msg in names::port_name(name) {
                errs.push(FieldError::invalid(&npath, &json!(name), msg));
            }
            if !port_names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(npath, &json!(name)));
            }
        }
        if let Some(proto) = str_at(p, &["protocol"]) {
            protocol(proto, &child(&ppath, "protocol"), errs);
        }
    }
}

/// A port number must be 1..=65535.
pub fn port_range(n: i64, path: &str, errs: &mut Vec<FieldError>) {
    if !(1..=65535).contains(&n) {
        errs.push(FieldError::invalid(path, &json!(n), "must be between 1 and 65535, inclusive"));
    }
}

/// A protocol must be TCP, UDP or SCTP.
pub fn protocol(proto: &str, path: &str, errs: &mut Vec<FieldError>) {
    if !["TCP", "UDP", "SCTP"].contains(&proto) {
        errs.push(FieldError::not_supported(path, &json!(proto), &["SCTP", "TCP", "UDP"]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(spec: Value) -> Vec<String> {
        let mut errs = Vec::new();
        pod_spec(&spec, "spec", &mut errs);
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn containers_are_checked() {
        assert!(check(json!({"containers": [{"name": "a", "image": "nginx"}]})).is_empty());
        assert_eq!(check(json!({})), ["spec.containers: Required value"]);
        let errs =
            check(json!({"containers": [{"name": "a", "image": "x"}, {"name": "a"}, {"name": "B_", "image": "y"}]}));
        assert!(errs.contains(&"spec.containers[1].name: Duplicate value: \"a\"".to_string()), "{errs:?}");
        assert!(errs.contains(&"spec.containers[1].image: Required value".to_string()), "{errs:?}");
        assert!(
            errs.iter().any(|e| e.starts_with("spec.containers[2].name: Invalid value: \"B_\": a lowercase RFC 1123"))
        );
    }

    #[test]
    fn ports_and_policy() {
        let errs = check(json!({"restartPolicy": "Sometimes", "containers": [{"name": "a", "image": "x",
            "ports": [{"containerPort": 70000, "protocol": "tcp"}]}]}));
        assert!(errs.contains(&"spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive".to_string()), "{errs:?}");
        assert!(errs.contains(&"spec.containers[0].ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\"".to_string()), "{errs:?}");
        assert!(errs.iter().any(|e| e.starts_with("spec.restartPolicy: Unsupported value: \"Sometimes\"")));
    }
}

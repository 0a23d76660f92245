//! Fields a member's own control plane sets on an object, which a replace from Karmada must
//! carry over rather than clear (upstream's default "retain" interpretation).

use serde_json::Value;

/// Copies the member-assigned fields of `current` into `desired`.
pub fn member_fields(desired: &mut Value, current: &Value) {
    let paths: &[&str] = match desired["kind"].as_str().unwrap_or_default() {
        "Service" => &["/spec/clusterIP", "/spec/clusterIPs", "/spec/healthCheckNodePort"],
        "Job" => &["/spec/selector", "/spec/template/metadata/labels"],
        "Pod" => &["/spec/nodeName"],
        "PersistentVolumeClaim" => &["/spec/volumeName"],
        "ServiceAccount" => &["/secrets"],
        _ => &[],
    };
    for path in paths {
        let Some(value) = current.pointer(path) else {
            continue;
        };
        let (parent, key) = path.rsplit_once('/').unwrap_or(("", path));
        if let Some(obj) = desired.pointer_mut(parent).and_then(Value::as_object_mut) {
            obj.insert(key.to_string(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_service_keeps_its_cluster_ip_and_other_kinds_are_untouched() {
        let current = json!({"spec": {"clusterIP": "10.0.0.7", "clusterIPs": ["10.0.0.7"], "ports": [{"port": 1}]}});
        let mut svc = json!({"kind": "Service", "spec": {"ports": [{"port": 80}]}});
        member_fields(&mut svc, &current);
        assert_eq!(svc["spec"], json!({"ports": [{"port": 80}], "clusterIP": "10.0.0.7", "clusterIPs": ["10.0.0.7"]}));
        let mut cm = json!({"kind": "ConfigMap", "data": {"a": "b"}});
        member_fields(&mut cm, &json!({"data": {"a": "c"}, "spec": {"clusterIP": "x"}}));
        assert_eq!(cm, json!({"kind": "ConfigMap", "data": {"a": "b"}}));
    }
}

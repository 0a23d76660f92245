//! Defaulting of the built-in workload kinds, as kube-apiserver's `SetDefaults_*` functions do
//! on every write: the fields clients (kubectl rollout, controllers) read back and expect set —
//! update strategies, history limits, replicas, and the pod template's basics.
//!
//! Only fields Kubernetes defaults unconditionally are filled, and only when absent.

use serde_json::{Map, Value, json};

/// Every namespace carries `kubernetes.io/metadata.name` with its own name, which clients
/// select namespaces by; kube-apiserver sets it on every write, whatever the client sent.
fn namespace_name_label(obj: &mut Value) {
    let Some(name) = obj.pointer("/metadata/name").and_then(Value::as_str).map(str::to_string) else { return };
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else { return };
    let labels = object(meta, "labels");
    labels.insert("kubernetes.io/metadata.name".into(), json!(name));
}

/// Fills the defaults of `kind` (apps/v1 and batch/v1 workloads, core/v1 Pods) in place.
pub fn apply(group: &str, kind: &str, obj: &mut Value) {
    if (group, kind) == ("", "Namespace") {
        namespace_name_label(obj);
        return;
    }
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else { return };
    match (group, kind) {
        ("apps", "Deployment") => {
            set(spec, "replicas", json!(1));
            let strategy = object(spec, "strategy");
            set(strategy, "type", json!("RollingUpdate"));
            if strategy.get("type") == Some(&json!("RollingUpdate")) {
                let rolling = object(strategy, "rollingUpdate");
                set(rolling, "maxUnavailable", json!("25%"));
                set(rolling, "maxSurge", json!("25%"));
            }
            set(spec, "revisionHistoryLimit", json!(10));
            set(spec, "progressDeadlineSeconds", json!(600));
            template(spec);
        }
        ("apps", "ReplicaSet") => {
            set(spec, "replicas", json!(1));
            template(spec);
        }
        ("apps", "StatefulSet") => {
            set(spec, "replicas", json!(1));
            set(spec, "podManagementPolicy", json!("OrderedReady"));
            let strategy = object(spec, "updateStrategy");
            set(strategy, "type", json!("RollingUpdate"));
            if strategy.get("type") == Some(&json!("RollingUpdate")) {
                set(object(strategy, "rollingUpdate"), "partition", json!(0));
            }
            set(spec, "revisionHistoryLimit", json!(10));
            let retention = object(spec, "persistentVolumeClaimRetentionPolicy");
            set(retention, "whenDeleted", json!("Retain"));
            set(retention, "whenScaled", json!("Retain"));
            template(spec);
        }
        ("apps", "DaemonSet") => {
            let strategy = object(spec, "updateStrategy");
            set(strategy, "type", json!("RollingUpdate"));
            if strategy.get("type") == Some(&json!("RollingUpdate")) {
                let rolling = object(strategy, "rollingUpdate");
                set(rolling, "maxUnavailable", json!(1));
                set(rolling, "maxSurge", json!(0));
            }
            set(spec, "revisionHistoryLimit", json!(10));
            template(spec);
        }
        ("batch", "Job") => {
            // Both unset means one pod to completion; an unset parallelism alone means one at
            // a time.
            if spec.get("completions").is_none() && spec.get("parallelism").is_none() {
                spec.insert("completions".into(), json!(1));
            }
            set(spec, "parallelism", json!(1));
            set(spec, "backoffLimit", json!(6));
            set(spec, "completionMode", json!("NonIndexed"));
            set(spec, "suspend", json!(false));
            template(spec);
        }
        ("", "Pod") => pod_spec(spec),
        _ => {}
    }
}

/// The Job strategy's generated selector: the template and selector carry the Job's uid, so a
/// Job's pods can never be confused with another's. Create-time only (it needs the uid).
pub fn job_selector(obj: &mut Value) {
    let uid = obj.get("metadata").and_then(|m| m.get("uid")).and_then(Value::as_str).unwrap_or("").to_string();
    let name = obj.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("").to_string();
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else { return };
    if spec.get("manualSelector") == Some(&json!(true)) || uid.is_empty() {
        return;
    }
    let labels = object(object(object(spec, "template"), "metadata"), "labels");
    for (k, v) in [
        ("batch.kubernetes.io/controller-uid", &uid),
        ("batch.kubernetes.io/job-name", &name),
        ("controller-uid", &uid),
        ("job-name", &name),
    ] {
        set(labels, k, json!(v));
    }
    if spec.get("selector").is_none() {
        spec.insert("selector".into(), json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}}));
    }
}

fn template(spec: &mut Map<String, Value>) {
    if let Some(pod) = spec.get_mut("template").and_then(|t| t.get_mut("spec")).and_then(Value::as_object_mut) {
        pod_spec(pod);
    }
}

fn pod_spec(pod: &mut Map<String, Value>) {
    set(pod, "restartPolicy", json!("Always"));
    set(pod, "terminationGracePeriodSeconds", json!(30));
    set(pod, "dnsPolicy", json!("ClusterFirst"));
    set(pod, "schedulerName", json!("default-scheduler"));
    set(pod, "securityContext", json!({}));
    for list in ["containers", "initContainers"] {
        if let Some(Value::Array(containers)) = pod.get_mut(list) {
            for c in containers.iter_mut().filter_map(Value::as_object_mut) {
                container(c);
            }
        }
    }
}

fn container(c: &mut Map<String, Value>) {
    set(c, "terminationMessagePath", json!("/dev/termination-log"));
    set(c, "terminationMessagePolicy", json!("File"));
    let image = c.get("image").and_then(Value::as_str).unwrap_or("");
    // `:latest` or no tag (and no digest) pulls always; anything else if not present.
    let last = image.rsplit('/').next().unwrap_or(image);
    let pull = if !image.contains('@') && (!last.contains(':') || last.ends_with(":latest")) {
        "Always"
    } else {
        "IfNotPresent"
    };
    set(c, "imagePullPolicy", json!(pull));
    if let Some(Value::Array(ports)) = c.get_mut("ports") {
        for p in ports.iter_mut().filter_map(Value::as_object_mut) {
            set(p, "protocol", json!("TCP"));
        }
    }
}

fn set(map: &mut Map<String, Value>, key: &str, value: Value) {
    if map.get(key).is_none_or(Value::is_null) {
        map.insert(key.to_string(), value);
    }
}

/// The object at `key`, created empty when absent (or not an object).
fn object<'a>(map: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    if !map.get(key).is_some_and(Value::is_object) {
        map.insert(key.to_string(), json!({}));
    }
    map.get_mut(key).and_then(Value::as_object_mut).expect("just made an object")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_get_kubernetes_defaults_without_overriding() {
        let mut d = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
            {"name": "a", "image": "nginx"}, {"name": "b", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}
        ]}}}});
        apply("apps", "Deployment", &mut d);
        assert_eq!(d["spec"]["replicas"], 3);
        assert_eq!(
            d["spec"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        );
        assert_eq!(d["spec"]["revisionHistoryLimit"], 10);
        let pod = &d["spec"]["template"]["spec"];
        assert_eq!(pod["restartPolicy"], "Always");
        assert_eq!(pod["containers"][0]["imagePullPolicy"], "Always");
        assert_eq!(pod["containers"][1]["imagePullPolicy"], "IfNotPresent");
        assert_eq!(pod["containers"][1]["ports"][0]["protocol"], "TCP");

        let mut recreate = json!({"spec": {"strategy": {"type": "Recreate"}}});
        apply("apps", "Deployment", &mut recreate);
        assert!(recreate["spec"]["strategy"].get("rollingUpdate").is_none());

        let mut sts = json!({"spec": {}});
        apply("apps", "StatefulSet", &mut sts);
        assert_eq!(sts["spec"]["updateStrategy"]["rollingUpdate"]["partition"], 0);
        let mut ds = json!({"spec": {}});
        apply("apps", "DaemonSet", &mut ds);
        assert_eq!(ds["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"], 1);
    }

    #[test]
    fn namespaces_are_labelled_with_their_name_whatever_was_sent() {
        let mut ns =
            json!({"metadata": {"name": "demo", "labels": {"kubernetes.io/metadata.name": "other", "a": "b"}}});
        apply("", "Namespace", &mut ns);
        assert_eq!(ns["metadata"]["labels"], json!({"kubernetes.io/metadata.name": "demo", "a": "b"}));
        let mut bare = json!({"metadata": {"name": "x"}});
        apply("", "Namespace", &mut bare);
        assert_eq!(bare["metadata"]["labels"], json!({"kubernetes.io/metadata.name": "x"}));
    }

    #[test]
    fn jobs_get_counts_and_a_uid_selector() {
        let mut j = json!({"metadata": {"name": "pi", "uid": "u-1"}, "spec": {"template": {"spec": {"restartPolicy": "Never"}}}});
        apply("batch", "Job", &mut j);
        job_selector(&mut j);
        assert_eq!((j["spec"]["completions"].clone(), j["spec"]["parallelism"].clone()), (json!(1), json!(1)));
        assert_eq!(j["spec"]["template"]["spec"]["restartPolicy"], "Never");
        assert_eq!(j["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"], "u-1");
        assert_eq!(j["spec"]["template"]["metadata"]["labels"]["job-name"], "pi");

        let mut parallel = json!({"spec": {"parallelism": 4}});
        apply("batch", "Job", &mut parallel);
        assert!(parallel["spec"].get("completions").is_none());
    }
}

//! Which containers `logs` reads, chosen as kubectl's LogsForObject chooses them: a pod's
//! default (or named, or every) container; for a workload or Service, its first pod by
//! kubectl's logging order (or every pod with `--all-pods`); for a selector, every pod.

use std::cmp::Ordering;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::ListParams;
use serde_json::Value;

use crate::printer::Printer;

/// kubectl's annotation naming the container `logs` and `exec` pick by default.
const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";

/// What the arguments named.
pub enum Object {
    Pod(Box<Pod>),
    /// The pods of `-l` (possibly none).
    Pods(Vec<Pod>),
    /// Another kind, whose selector picks the pods.
    Other {
        kind: String,
        group: String,
        object: Value,
    },
}

/// One container log to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub pod: String,
    pub container: String,
}

/// How containers are picked.
pub struct Choice {
    pub container: String,
    pub all_containers: bool,
    pub all_pods: bool,
    /// How long to wait for a workload's first pod.
    pub timeout: Duration,
}

/// Reads what the argument (`POD`, `TYPE/NAME`) or the selector names. The error is the
/// whole text kubectl prints.
pub async fn fetch(
    client: &kube::Client,
    ns: &str,
    arg: Option<&str>,
    selector: Option<&str>,
) -> Result<Object, String> {
    let api_error = |e: kube::Error| match e {
        kube::Error::Api(s) => crate::cmd::objects::failure::render(&[crate::cmd::objects::Failure::Api(s)]),
        other => format!("error: {}", crate::error::with_causes(&other)),
    };
    if let Some(sel) = selector {
        let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
        let list = pods.list(&ListParams::default().labels(sel)).await.map_err(api_error)?;
        return Ok(Object::Pods(list.items));
    }
    named(client, ns, arg.unwrap_or_default()).await.map_err(|e| match e {
        Fetch::Api(kube::Error::Api(s)) if s.code == 404 => {
            format!("error: error from server (NotFound): {} in namespace {ns:?}", s.message)
        }
        Fetch::Api(e) => api_error(e),
        Fetch::Other(message) => message,
    })
}

/// Why [`named`] found nothing.
pub enum Fetch {
    /// The server's refusal, for the caller to word.
    Api(kube::Error),
    /// Already worded as kubectl words it.
    Other(String),
}

/// Reads the object `POD` or `TYPE/NAME` names (a bare name is a pod, as kubectl's builder
/// reads it with `ResourceNames("pods", …)`).
pub async fn named(client: &kube::Client, ns: &str, arg: &str) -> Result<Object, Fetch> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    let Some((type_arg, name)) = arg.split_once('/') else {
        return pods.get(arg).await.map(|p| Object::Pod(Box::new(p))).map_err(Fetch::Api);
    };
    let served = crate::cmd::get::discovery::discover(client)
        .await
        .map_err(|e| Fetch::Other(format!("error: couldn't get resource list: {}", crate::error::with_causes(&e))))?;
    let resource = served.resolve(type_arg).map_err(|e| Fetch::Other(format!("error: {e}")))?;
    if resource.group.is_empty() && resource.plural == "pods" {
        return pods.get(name).await.map(|p| Object::Pod(Box::new(p))).map_err(Fetch::Api);
    }
    let path = match resource.namespaced {
        true => format!("{}/namespaces/{ns}/{}/{name}", resource.base_path(), resource.plural),
        false => format!("{}/{}/{name}", resource.base_path(), resource.plural),
    };
    let req = http::Request::get(&path).body(Vec::new()).map_err(|e| Fetch::Other(format!("error: {e}")))?;
    let object: Value = client.request(req).await.map_err(Fetch::Api)?;
    Ok(Object::Other { kind: resource.kind, group: resource.group, object })
}

/// The container logs to read, with kubectl's notes on stderr (`Defaulted container …`,
/// `Found N pods, using pod/…`).
pub async fn sources(
    client: &kube::Client,
    ns: &str,
    object: Object,
    choice: &Choice,
    printer: &Printer,
) -> anyhow::Result<Vec<Source>> {
    let pods = match object {
        Object::Pod(p) => vec![*p],
        Object::Pods(list) => list,
        Object::Other { kind, group, object } => {
            let selector = selector_of(&kind, &group, &object, "get the logs from").map_err(|e| verbatim(&e))?;
            let mut pods = wait_for_pods(client, ns, &selector, choice.timeout).await?;
            pods.sort_by(by_logging);
            if pods.len() > 1 && !choice.all_pods {
                printer.progress(&format!("Found {} pods, using pod/{}", pods.len(), name(&pods[0])));
            }
            if !choice.all_pods {
                pods.truncate(1);
            }
            pods
        }
    };
    let mut out = Vec::new();
    for pod in &pods {
        out.extend(containers_of(pod, choice, printer).map_err(|e| verbatim(&e))?);
    }
    Ok(out)
}

fn verbatim(message: &str) -> anyhow::Error {
    crate::error::Verbatim(format!("error: {message}")).into()
}

fn name(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or_default()
}

/// The containers of one pod to read.
fn containers_of(pod: &Pod, choice: &Choice, printer: &Printer) -> Result<Vec<Source>, String> {
    let spec = pod.spec.clone().unwrap_or_default();
    let regular: Vec<String> = spec.containers.iter().map(|c| c.name.clone()).collect();
    let init: Vec<String> = spec.init_containers.iter().flatten().map(|c| c.name.clone()).collect();
    let ephemeral: Vec<String> = spec.ephemeral_containers.iter().flatten().map(|c| c.name.clone()).collect();
    let source = |c: &String| Source { pod: name(pod).to_string(), container: c.clone() };
    if choice.all_containers {
        return Ok(init.iter().chain(&regular).chain(&ephemeral).map(source).collect());
    }
    let all_names = || {
        let mut names = regular.clone();
        names.extend(ephemeral.iter().map(|c| format!("{c} (ephem)")));
        names.extend(init.iter().map(|c| format!("{c} (init)")));
        names.join(", ")
    };
    let mut container = choice.container.clone();
    if container.is_empty()
        && let Some(default) = pod.metadata.annotations.as_ref().and_then(|a| a.get(DEFAULT_CONTAINER_ANNOTATION))
        && !default.is_empty()
    {
        if init.iter().chain(&regular).chain(&ephemeral).any(|c| c == default) {
            container = default.clone();
        } else {
            printer.progress(&format!("Default container name {default:?} not found in pod {}", name(pod)));
        }
    }
    if container.is_empty() {
        container = regular.first().cloned().unwrap_or_default();
        if (regular.len() > 1 || !init.is_empty() || !ephemeral.is_empty()) && !choice.all_pods {
            printer.progress(&format!("Defaulted container {container:?} out of: {}", all_names()));
        }
    }
    if !init.iter().chain(&regular).chain(&ephemeral).any(|c| *c == container) {
        // kubectl 1.33's wording (later versions list the containers after it).
        return Err(format!("container {container} is not valid for pod {}", name(pod)));
    }
    Ok(vec![source(&container)])
}

/// kubectl's SelectorsForObject, for the kinds it knows; `purpose` words the refusal of any
/// other kind (`cannot <purpose> *v1.ConfigMap: …`).
pub fn selector_of(kind: &str, group: &str, object: &Value, purpose: &str) -> Result<String, String> {
    let selector = object.pointer("/spec/selector");
    match (group, kind) {
        ("", "ReplicationController" | "Service") => {
            let map = selector.and_then(Value::as_object).cloned().unwrap_or_default();
            if kind == "Service" && map.is_empty() {
                return Err("invalid service 'selector': service selector must not be empty".into());
            }
            Ok(map.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())).collect::<Vec<_>>().join(","))
        }
        ("apps", "ReplicaSet" | "Deployment" | "DaemonSet" | "StatefulSet") | ("batch", "Job") => {
            Ok(label_selector(selector.unwrap_or(&Value::Null)))
        }
        _ => {
            let go_type = match group {
                "" | "apps" | "batch" => format!("*v1.{kind}"),
                _ => "*unstructured.Unstructured".to_string(),
            };
            Err(format!("cannot {purpose} {go_type}: selector for {go_type} not implemented"))
        }
    }
}

/// A LabelSelector object as selector text.
fn label_selector(selector: &Value) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(labels) = selector.get("matchLabels").and_then(Value::as_object) {
        parts.extend(labels.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())));
    }
    for e in selector.get("matchExpressions").and_then(Value::as_array).into_iter().flatten() {
        let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
        let values: Vec<&str> =
            e.get("values").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        match e.get("operator").and_then(Value::as_str).unwrap_or_default() {
            "In" => parts.push(format!("{key} in ({})", values.join(","))),
            "NotIn" => parts.push(format!("{key} notin ({})", values.join(","))),
            "Exists" => parts.push(key.to_string()),
            "DoesNotExist" => parts.push(format!("!{key}")),
            _ => {}
        }
    }
    parts.join(",")
}

/// The pods of the selector; with none yet, waits for the first, as kubectl's GetFirstPod does.
pub async fn wait_for_pods(
    client: &kube::Client,
    ns: &str,
    selector: &str,
    timeout: Duration,
) -> anyhow::Result<Vec<Pod>> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let list = pods.list(&ListParams::default().labels(selector)).await?;
        if !list.items.is_empty() {
            return Ok(list.items);
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(verbatim("timed out waiting for the condition"));
        }
        tokio::time::sleep(Duration::from_secs(1).min(timeout)).await;
    }
}

/// kubectl's podutils.ByLogging: scheduled before unscheduled, running before unknown before
/// pending, ready before not ready, ready longer first, more restarts first, older first.
pub fn by_logging(a: &Pod, b: &Pod) -> Ordering {
    let node = |p: &Pod| p.spec.as_ref().and_then(|s| s.node_name.as_deref()).unwrap_or_default().is_empty();
    let phase = |p: &Pod| match p.status.as_ref().and_then(|s| s.phase.as_deref()) {
        Some("Pending") => 2,
        Some("Unknown") => 1,
        _ => 0,
    };
    let ready_since = |p: &Pod| {
        p.status.as_ref().and_then(|s| s.conditions.as_ref()).and_then(|cs| {
            cs.iter().find(|c| c.type_ == "Ready" && c.status == "True").map(|c| c.last_transition_time.clone())
        })
    };
    let restarts = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .into_iter()
            .flatten()
            .map(|c| c.restart_count)
            .max()
    };
    let created = |p: &Pod| p.metadata.creation_timestamp.as_ref().map(|t| t.0);
    node(a)
        .cmp(&node(b))
        .then(phase(a).cmp(&phase(b)))
        .then(ready_since(b).is_some().cmp(&ready_since(a).is_some()))
        .then_with(|| match (ready_since(a).flatten(), ready_since(b).flatten()) {
            (Some(x), Some(y)) => x.0.cmp(&y.0),
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (None, None) => Ordering::Equal,
        })
        .then(restarts(b).cmp(&restarts(a)))
        .then_with(|| match (created(a), created(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (None, None) => Ordering::Equal,
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn workload_selectors_read_as_kubectl_reads_them() {
        let d = json!({"spec": {"selector": {"matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}, {"key": "x", "operator": "DoesNotExist"}]}}});
        assert_eq!(selector_of("Deployment", "apps", &d, "get the logs from").unwrap(), "app=web,tier in (a,b),!x");
        assert_eq!(
            selector_of("ConfigMap", "", &json!({}), "get the logs from").unwrap_err(),
            "cannot get the logs from *v1.ConfigMap: selector for *v1.ConfigMap not implemented"
        );
    }

    #[test]
    fn pods_are_ordered_for_logging_as_kubectl_orders_them() {
        let pod = |name: &str, node: &str, phase: &str| -> Pod {
            serde_json::from_value(json!({"metadata": {"name": name}, "spec": {"containers": [], "nodeName": node},
                "status": {"phase": phase}}))
            .unwrap()
        };
        let mut pods =
            [pod("pending", "n", "Pending"), pod("unscheduled", "", "Running"), pod("running", "n", "Running")];
        pods.sort_by(by_logging);
        let names: Vec<&str> = pods.iter().map(name).collect();
        assert_eq!(names, ["running", "pending", "unscheduled"]);
    }
}

//! Which pod and container `exec` and `attach` reach, chosen as kubectl chooses them: a pod by
//! name, or for `TYPE/NAME` the first pod its selector picks (waiting up to
//! `--pod-running-timeout` for one); then the named container, the one the
//! `kubectl.kubernetes.io/default-container` annotation names, or the first, with kubectl's
//! `Defaulted container …` note when there was a choice.

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use crate::cmd::logs::pods::{self, Fetch, Object};
use crate::cmd::objects::{Failure, failure};
use crate::error::Verbatim;
use crate::printer::Printer;

/// kubectl's annotation naming the container to pick by default.
const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";

/// The pod `arg` names (`POD` or `TYPE/NAME`); the error is the whole text kubectl prints.
pub async fn pod(client: &kube::Client, ns: &str, arg: &str, timeout: Duration) -> anyhow::Result<Pod> {
    let object = pods::named(client, ns, arg).await.map_err(|e| match e {
        Fetch::Api(kube::Error::Api(s)) => Verbatim(failure::render(&[Failure::Api(s)])),
        Fetch::Api(other) => Verbatim(format!("error: {}", crate::error::with_causes(&other))),
        Fetch::Other(message) => Verbatim(message),
    })?;
    match object {
        Object::Pod(pod) => Ok(*pod),
        Object::Pods(mut list) => list.pop().ok_or_else(|| Verbatim("error: no pods found".into()).into()),
        Object::Other { kind, group, object } => first_pod(client, ns, &kind, &group, &object, timeout).await,
    }
}

/// The pod an object read from a file stands for, as kubectl's builder uses it: a Pod as
/// written (in `ns` when it names none), anything else by its selector.
pub async fn from_file(client: &kube::Client, ns: &str, object: &Value, timeout: Duration) -> anyhow::Result<Pod> {
    let field = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let group = field("/apiVersion").rsplit_once('/').map(|(g, _)| g).unwrap_or_default();
    let kind = field("/kind");
    if group.is_empty() && kind == "Pod" {
        let mut pod: Pod = serde_json::from_value(object.clone()).map_err(|e| Verbatim(format!("error: {e}")))?;
        pod.metadata.namespace.get_or_insert_with(|| ns.to_string());
        return Ok(pod);
    }
    let ns = Some(field("/metadata/namespace")).filter(|n| !n.is_empty()).unwrap_or(ns);
    first_pod(client, ns, kind, group, object, timeout).await
}

/// kubectl's attachablePodForObject for a workload: the first of its selector's pods.
async fn first_pod(
    client: &kube::Client,
    ns: &str,
    kind: &str,
    group: &str,
    object: &Value,
    timeout: Duration,
) -> anyhow::Result<Pod> {
    let selector = pods::selector_of(kind, group, object, "attach to").map_err(|e| Verbatim(format!("error: {e}")))?;
    let mut found = pods::wait_for_pods(client, ns, &selector, timeout).await?;
    found.sort_by(pods::by_logging);
    Ok(found.swap_remove(0))
}

/// kubectl refuses to reach into a pod whose containers have all ended.
pub fn check_running(pod: &Pod, what: &str) -> Result<(), Verbatim> {
    match pod.status.as_ref().and_then(|s| s.phase.as_deref()) {
        Some(phase @ ("Succeeded" | "Failed")) => {
            Err(Verbatim(format!("error: cannot {what} a container in a completed pod; current phase is {phase}")))
        }
        _ => Ok(()),
    }
}

/// kubectl's FindOrDefaultContainerByName: the named container must exist in the pod's spec;
/// with none named, the annotated default or the first regular container.
pub fn container(pod: &Pod, named: Option<&str>, quiet: bool, printer: &Printer) -> Result<String, Verbatim> {
    let pod_name = pod.metadata.name.as_deref().unwrap_or_default();
    let spec = pod.spec.clone().unwrap_or_default();
    let regular: Vec<String> = spec.containers.iter().map(|c| c.name.clone()).collect();
    let init: Vec<String> = spec.init_containers.iter().flatten().map(|c| c.name.clone()).collect();
    let ephemeral: Vec<String> = spec.ephemeral_containers.iter().flatten().map(|c| c.name.clone()).collect();
    let exists = |name: &str| regular.iter().chain(&init).chain(&ephemeral).any(|c| c == name);
    if let Some(name) = named.filter(|n| !n.is_empty()) {
        return match exists(name) {
            true => Ok(name.to_string()),
            false => Err(Verbatim(format!("error: container {name} not found in pod {pod_name}"))),
        };
    }
    let Some(first) = regular.first() else {
        let ns = pod.metadata.namespace.as_deref().unwrap_or_default();
        return Err(Verbatim(format!("error: pod {ns}/{pod_name} does not have any containers")));
    };
    if let Some(default) = pod.metadata.annotations.as_ref().and_then(|a| a.get(DEFAULT_CONTAINER_ANNOTATION))
        && !default.is_empty()
        && exists(default)
    {
        return Ok(default.clone());
    }
    if !quiet && (regular.len() > 1 || !init.is_empty() || !ephemeral.is_empty()) {
        let mut names = regular.clone();
        names.extend(ephemeral.iter().map(|c| format!("{c} (ephem)")));
        names.extend(init.iter().map(|c| format!("{c} (init)")));
        printer.progress(&format!("Defaulted container {first:?} out of: {}", names.join(", ")));
    }
    Ok(first.clone())
}

/// Whether the container was started with a terminal (`tty: true`).
pub fn allocates_tty(pod: &Pod, container: &str) -> bool {
    let spec = pod.spec.clone().unwrap_or_default();
    let regular = spec.containers.iter().chain(spec.init_containers.iter().flatten()).find(|c| c.name == container);
    match regular {
        Some(c) => c.tty == Some(true),
        None => spec.ephemeral_containers.iter().flatten().any(|c| c.name == container && c.tty == Some(true)),
    }
}

/// Whether the container is an ephemeral one (attach words its end differently).
pub fn is_ephemeral(pod: &Pod, container: &str) -> bool {
    let spec = pod.spec.as_ref();
    spec.and_then(|s| s.ephemeral_containers.as_ref()).is_some_and(|cs| cs.iter().any(|c| c.name == container))
        && !spec
            .is_some_and(|s| s.containers.iter().chain(s.init_containers.iter().flatten()).any(|c| c.name == container))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(value: serde_json::Value) -> Pod {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn containers_are_chosen_as_kubectl_chooses_them() {
        let printer = Printer::new(0);
        let two = pod(json!({"metadata": {"name": "p", "namespace": "ns"},
            "spec": {"initContainers": [{"name": "i"}], "containers": [{"name": "a"}, {"name": "b"}]}}));
        assert_eq!(container(&two, None, true, &printer).unwrap(), "a");
        assert_eq!(container(&two, Some("i"), false, &printer).unwrap(), "i");
        assert_eq!(container(&two, Some("x"), false, &printer).unwrap_err().0, "error: container x not found in pod p");
        let annotated = pod(json!({"metadata": {"name": "p", "annotations": {DEFAULT_CONTAINER_ANNOTATION: "b"}},
            "spec": {"containers": [{"name": "a"}, {"name": "b"}]}}));
        assert_eq!(container(&annotated, None, false, &printer).unwrap(), "b");
        let empty = pod(json!({"metadata": {"name": "p", "namespace": "ns"}, "spec": {"containers": []}}));
        assert_eq!(
            container(&empty, None, false, &printer).unwrap_err().0,
            "error: pod ns/p does not have any containers"
        );
    }

    #[test]
    fn completed_pods_are_refused() {
        let done = pod(json!({"metadata": {"name": "p"}, "status": {"phase": "Succeeded"}}));
        assert_eq!(
            check_running(&done, "exec into").unwrap_err().0,
            "error: cannot exec into a container in a completed pod; current phase is Succeeded"
        );
        assert!(
            check_running(&pod(json!({"metadata": {"name": "p"}, "status": {"phase": "Running"}})), "exec into")
                .is_ok()
        );
    }
}

//! `/api/v1/namespaces/<ns>/pods/<name>/exec` and `…/attach`: runs a command in a container,
//! or attaches to its main process, through the [`Kubelet`](crate::kubelet::Kubelet). The request is checked as kube-apiserver checks it
//! (the container, the node), then answered as the kubelet answers it: a WebSocket upgrade to
//! `v5.channel.k8s.io` or `v4.channel.k8s.io` ([`super::pod_exec_websocket`]), or a SPDY/3.1
//! upgrade to `v4.channel.k8s.io` ([`super::pod_exec_spdy`]), as kubectl before 1.30 asks and
//! later ones fall back to. Both run the same [`super::pod_exec_session`].

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use karmadactl_apimachinery::{ApiError, StatusReason, spdy};
use serde_json::Value;

use crate::auth::{Decision, authorize};
use crate::filters::dispatch::{Call, attributes, forbidden};
use crate::handlers::pod_exec_session::Session;
use crate::handlers::{pod_exec_spdy, pod_exec_websocket};
use crate::kubelet::ExecRequest;
use crate::state::ApiState;
use crate::storage::store_access;
use crate::websocket;

/// The stream protocols served over WebSocket, best first.
const PROTOCOLS: [&str; 2] = ["v5.channel.k8s.io", "v4.channel.k8s.io"];
/// The stream protocols served over SPDY: v4, which kubectl 1.27+ offers first (v5's one
/// addition, closing stdin, SPDY does with FIN).
const SPDY_PROTOCOLS: [&str; 1] = ["v4.channel.k8s.io"];

/// The upgrade the client asked for, negotiated.
enum Transport {
    WebSocket { protocol: String, key: String },
    Spdy { protocol: String },
}

/// Whether the request is for a pod's exec or attach subresource.
pub fn is_pod_exec(call: &Call) -> bool {
    let i = &call.info;
    i.is_resource_request
        && i.api_group.is_empty()
        && i.resource == "pods"
        && matches!(i.subresource.as_str(), "exec" | "attach")
}

/// PodExecOptions (PodAttachOptions: no command) from the query; `tty` drops stderr, as the
/// kubelet does.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    container: String,
    command: Vec<String>,
    stdin: bool,
    stdout: bool,
    stderr: bool,
    tty: bool,
}

impl Options {
    fn parse(call: &Call) -> Result<Self, ApiError> {
        let boolean = |name: &str| call.bool_param(name);
        let tty = boolean("tty")?;
        let options = Self {
            container: call.param("container").unwrap_or_default().to_string(),
            command: match call.info.subresource.as_str() {
                "exec" => call.query.iter().filter(|(k, _)| k == "command").map(|(_, v)| v.clone()).collect(),
                _ => Vec::new(),
            },
            stdin: boolean("stdin")?,
            stdout: boolean("stdout")?,
            stderr: boolean("stderr")? && !tty,
            tty,
        };
        if !options.stdin && !options.stdout && !options.stderr {
            return Err(ApiError::bad_request("you must specify at least 1 of stdin, stdout, stderr"));
        }
        Ok(options)
    }
}

/// Checks the request, answers the upgrade and starts the session.
pub async fn serve(state: Arc<ApiState>, mut call: Call) -> Result<Response, ApiError> {
    let attach = call.info.subresource == "attach";
    if !matches!(call.info.verb.as_str(), "get" | "create") {
        return Err(ApiError::method_not_supported(&format!("pods/{}", call.info.subresource), &call.info.verb));
    }
    // WebSocket clients GET and SPDY clients POST; running a command or writing to a process is
    // a write, so `create` is needed as well (of pods/exec or pods/attach), as kube-apiserver
    // requires once its AuthorizePodWebsocketUpgradeCreatePermission gate is on.
    let mut create = attributes(&call.user, &call.info);
    create.verb = "create".into();
    if let Decision::Deny { .. } = authorize(&state.rbac(), &create) {
        let mut info = call.info.clone();
        info.verb = "create".into();
        return Err(forbidden(&call.user, &info));
    }
    let (ns, name) = (call.info.namespace.clone(), call.info.name.clone());
    let options = Options::parse(&call)?;
    let pod = store_access::get(&state, "", "pods", Some(&ns), &name)
        .await?
        .map(|(pod, _)| pod)
        .ok_or_else(|| ApiError::not_found("", "pods", &name))?;
    let container = pick_container(&pod, &options.container, &name)?;
    let node = pod.pointer("/spec/nodeName").and_then(Value::as_str).unwrap_or_default().to_string();
    if node.is_empty() {
        return Err(ApiError::bad_request(format!("pod {name} does not have a host assigned")));
    }
    let Some(kubelet) = state.config.kubelet.clone() else {
        return Err(ApiError::service_unavailable(format!(
            "the kubelet of node {node} cannot be reached: no kubelet serves this server's nodes"
        )));
    };
    let transport = negotiate(&call.headers)?;
    let Some(upgrade) = call.upgrade.take() else {
        return Err(ApiError::bad_request(
            "unable to upgrade: the connection cannot be upgraded (HTTP/1.1 is required)",
        ));
    };
    let files = match attach {
        true => Default::default(),
        false => crate::handlers::pod_files::mounted(&state, &pod, &container).await,
    };
    let session = Session {
        attach,
        stdin: options.stdin,
        stdout: options.stdout,
        stderr: options.stderr,
        tty: options.tty,
        deadline: tokio::time::Instant::now() + state.config.min_request_timeout * 2,
        request: ExecRequest { pod, container, command: options.command, files },
    };
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = resp.headers_mut();
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    match transport {
        Transport::WebSocket { protocol, key } => {
            tokio::spawn(pod_exec_websocket::run(upgrade, kubelet, session, protocol == PROTOCOLS[0]));
            h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
            if let Ok(v) = HeaderValue::from_str(&websocket::accept_key(&key)) {
                h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
            }
            if let Ok(v) = HeaderValue::from_str(&protocol) {
                h.insert(header::SEC_WEBSOCKET_PROTOCOL, v);
            }
        }
        Transport::Spdy { protocol } => {
            tokio::spawn(pod_exec_spdy::run(upgrade, kubelet, session));
            h.insert(header::UPGRADE, HeaderValue::from_static(spdy::UPGRADE));
            if let Ok(v) = HeaderValue::from_str(&protocol) {
                h.insert(spdy::PROTOCOL_HEADER, v);
            }
        }
    }
    Ok(resp)
}

/// Negotiates the upgrade as the kubelet does: for WebSocket, the first offered subprotocol it
/// serves and a version 13 handshake; for SPDY, httpstream.Handshake's rule (the client's
/// first `X-Stream-Protocol-Version` the server serves, else 403). Neither is a 400, as
/// kube-apiserver answers a request for a streaming subresource that does not upgrade.
fn negotiate(headers: &http::HeaderMap) -> Result<Transport, ApiError> {
    let values = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(',').map(|p| p.trim().to_string()))
            .filter(|p| !p.is_empty())
            .collect()
    };
    if websocket::is_upgrade(headers) {
        let offered = values(header::SEC_WEBSOCKET_PROTOCOL.as_str());
        let Some(protocol) = offered.iter().find(|p| PROTOCOLS.contains(&p.as_str())).cloned() else {
            return Err(ApiError::bad_request(format!(
                "unable to upgrade: unable to negotiate protocol: client supports {offered:?}, server supports {PROTOCOLS:?}"
            )));
        };
        let key = headers.get(header::SEC_WEBSOCKET_KEY).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if key.is_empty() || headers.get(header::SEC_WEBSOCKET_VERSION).and_then(|v| v.to_str().ok()) != Some("13") {
            return Err(ApiError::bad_request("unable to upgrade: a WebSocket version 13 handshake is required"));
        }
        return Ok(Transport::WebSocket { protocol, key: key.to_string() });
    }
    if spdy::is_upgrade(headers) {
        let offered = values(spdy::PROTOCOL_HEADER);
        return match offered.iter().find(|p| SPDY_PROTOCOLS.contains(&p.as_str())) {
            Some(protocol) => Ok(Transport::Spdy { protocol: protocol.clone() }),
            None => Err(ApiError::new(
                403,
                StatusReason::Forbidden,
                format!(
                    "unable to upgrade: unable to negotiate protocol: client supports [{}], server accepts [{}]",
                    offered.join(" "),
                    SPDY_PROTOCOLS.join(" ")
                ),
            )),
        };
    }
    Err(ApiError::bad_request("Upgrade request required"))
}

/// kube-apiserver's streamLocation: a named container must exist; with none named, the only
/// regular container.
fn pick_container(pod: &Value, asked: &str, name: &str) -> Result<String, ApiError> {
    let names = |field: &str| crate::handlers::pod_log::container_names(pod, field);
    let (regular, init, ephemeral) = (names("containers"), names("initContainers"), names("ephemeralContainers"));
    if !asked.is_empty() {
        return match regular.iter().chain(&init).chain(&ephemeral).any(|c| c == asked) {
            true => Ok(asked.to_string()),
            false => Err(ApiError::bad_request(format!("container {asked} is not valid for pod {name}"))),
        };
    }
    match regular.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(ApiError::bad_request(format!("a container name must be specified for pod {name}"))),
        _ => {
            let mut message =
                format!("a container name must be specified for pod {name}, choose one of: [{}]", regular.join(" "));
            if !init.is_empty() {
                message.push_str(&format!(" or one of the init containers: [{}]", init.join(" ")));
            }
            Err(ApiError::bad_request(message))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_container_is_chosen_as_kube_apiserver_chooses_it_for_exec() {
        let pod = json!({"spec": {"initContainers": [{"name": "init"}], "containers": [{"name": "a"}, {"name": "b"}]}});
        assert_eq!(pick_container(&pod, "init", "p").unwrap(), "init");
        assert_eq!(pick_container(&pod, "x", "p").unwrap_err().message, "container x is not valid for pod p");
        assert_eq!(
            pick_container(&pod, "", "p").unwrap_err().message,
            "a container name must be specified for pod p, choose one of: [a b] or one of the init containers: [init]"
        );
    }

    #[test]
    fn the_upgrade_is_negotiated_as_the_kubelet_negotiates_it() {
        let headers = |pairs: &[(&str, &str)]| {
            let mut h = http::HeaderMap::new();
            for (k, v) in pairs {
                h.append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
            }
            h
        };
        let spdy = [("connection", "Upgrade"), ("upgrade", "SPDY/3.1")];
        // The client's first protocol the server serves (kubectl 1.27's list).
        let offered = [
            &spdy[..],
            &[("x-stream-protocol-version", "v5.channel.k8s.io"), ("x-stream-protocol-version", "v4.channel.k8s.io")],
        ]
        .concat();
        assert!(
            matches!(negotiate(&headers(&offered)), Ok(Transport::Spdy { protocol }) if protocol == "v4.channel.k8s.io")
        );
        let old = [&spdy[..], &[("x-stream-protocol-version", "v3.channel.k8s.io")]].concat();
        let refused = negotiate(&headers(&old)).err().unwrap();
        assert_eq!(refused.code, 403);
        assert_eq!(
            refused.message,
            "unable to upgrade: unable to negotiate protocol: client supports [v3.channel.k8s.io], server accepts [v4.channel.k8s.io]"
        );
        assert_eq!(negotiate(&headers(&[])).err().unwrap().message, "Upgrade request required");
    }
}

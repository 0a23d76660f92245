//! What the API server asks of a node's kubelet: a container's log. kube-apiserver proxies
//! `pods/log` to the kubelet of the pod's node; this server has no kubelets to call, so whoever
//! plays the nodes (the simulator of a simulated member) plugs in here. Without one, a scheduled
//! pod's log is answered with a 503 that says so.

use jiff::Timestamp;
use serde_json::Value;

/// The lines of one container as of a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerLog {
    /// (time written, text without the newline), oldest first.
    pub lines: Vec<(Timestamp, String)>,
    /// Whether the container still runs, so more lines will come.
    pub running: bool,
}

/// The nodes' kubelets, as far as the server needs them.
pub trait Kubelet: Send + Sync + std::fmt::Debug {
    /// The log of `container` in `pod` (a Pod object) as of `now`, or the kubelet's refusal
    /// (answered as a 400, as kube-apiserver passes the kubelet's message on).
    fn container_log(
        &self,
        pod: &Value,
        container: &str,
        previous: bool,
        now: Timestamp,
    ) -> Result<ContainerLog, String>;
}

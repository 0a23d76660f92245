//! What the API server asks of a node's kubelet: a container's log, and a command run in a
//! container. kube-apiserver proxies `pods/log`, `pods/exec` and `pods/attach` to the kubelet of the pod's node; this server has no kubelets to call, so whoever
//! plays the nodes (the simulator of a simulated member) plugs in here. Without one, a scheduled
//! pod's log is answered with a 503 that says so.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use jiff::Timestamp;
use serde_json::Value;
use tokio::sync::mpsc;

/// The lines of one container as of a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerLog {
    /// (time written, text without the newline), oldest first.
    pub lines: Vec<(Timestamp, String)>,
    /// Whether the container still runs, so more lines will come.
    pub running: bool,
}

/// A command to run in a container, with what the container sees of its volumes.
#[derive(Debug, Clone)]
pub struct ExecRequest {
    pub pod: Value,
    pub container: String,
    pub command: Vec<String>,
    /// The files of the container's mounted ConfigMaps and Secrets, by absolute path.
    pub files: BTreeMap<String, Vec<u8>>,
}

/// The running command's streams. `stdin` ends when the client closes it; dropping `stdout`
/// and `stderr` tells the server the command wrote its last byte.
#[derive(Debug)]
pub struct ExecIo {
    pub stdin: Option<mpsc::Receiver<Vec<u8>>>,
    pub stdout: mpsc::Sender<Vec<u8>>,
    pub stderr: mpsc::Sender<Vec<u8>>,
}

/// How a command ended, as the container runtime reports it to the kubelet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecEnd {
    Exited(i32),
    /// The runtime could not run it at all (a missing executable); the kubelet's InternalError.
    Failed(String),
}

/// The command's run, to completion.
pub type ExecRun = Pin<Box<dyn Future<Output = ExecEnd> + Send>>;

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

    /// Starts `request.command` in the container; the future ends with the command.
    fn exec(&self, request: ExecRequest, io: ExecIo) -> ExecRun;

    /// Attaches to the container's main process (`request.command` is empty); the future ends
    /// when the process does, which may be never.
    fn attach(&self, request: ExecRequest, io: ExecIo) -> ExecRun;
}

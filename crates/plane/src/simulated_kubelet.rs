//! The kubelets of a simulated member's pretend nodes, as the API server sees them: container
//! logs come from the simulator's deterministic log lines.

use jiff::Timestamp;
use karmadactl_apiserver::kubelet::{ContainerLog, Kubelet};
use serde_json::Value;

/// The simulator's answers for the member named `cluster`.
#[derive(Debug)]
pub struct SimulatedKubelet {
    pub cluster: String,
}

impl Kubelet for SimulatedKubelet {
    fn container_log(
        &self,
        pod: &Value,
        container: &str,
        previous: bool,
        now: Timestamp,
    ) -> Result<ContainerLog, String> {
        let log = karmadactl_simulator::logs::container_log(&self.cluster, pod, container, previous, now)?;
        Ok(ContainerLog { lines: log.lines, running: log.running })
    }
}

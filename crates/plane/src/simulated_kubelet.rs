//! The kubelets of a simulated member's pretend nodes, as the API server sees them: container
//! logs come from the simulator's deterministic log lines, commands from its built-in set, an attached main process from both.

use jiff::Timestamp;
use karmadactl_apiserver::kubelet::{ContainerLog, ExecEnd, ExecIo, ExecRequest, ExecRun, Kubelet};
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

    fn exec(&self, request: ExecRequest, io: ExecIo) -> ExecRun {
        Box::pin(async move {
            let streams = karmadactl_simulator::exec::Streams { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr };
            let ExecRequest { pod, container, command, files } = request;
            match karmadactl_simulator::exec::run(&pod, &container, &command, &files, streams).await {
                Ok(code) => ExecEnd::Exited(code),
                Err(why) => ExecEnd::Failed(why),
            }
        })
    }

    fn attach(&self, request: ExecRequest, io: ExecIo) -> ExecRun {
        let cluster = self.cluster.clone();
        Box::pin(async move {
            let streams = karmadactl_simulator::exec::Streams { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr };
            match karmadactl_simulator::attach::run(&cluster, &request.pod, &request.container, streams).await {
                Ok(code) => ExecEnd::Exited(code),
                Err(why) => ExecEnd::Failed(why),
            }
        })
    }
}

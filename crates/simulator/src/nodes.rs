//! The simulated nodes: created at start with the configured capacity, and kept Ready by a
//! heartbeat as a kubelet keeps its node's status fresh.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::Node;
use kube::Api;
use kube::api::{Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use super::{Sim, status};

/// Marks the nodes as simulated, for anyone who looks.
pub const SIMULATED_LABEL: &str = "karmadactl.karmada.io/simulated";
const HEARTBEAT: Duration = Duration::from_secs(10);

pub async fn run(sim: Arc<Sim>) {
    let api: Api<Node> = Api::all(sim.client.clone());
    loop {
        for (i, name) in sim.node_names.iter().enumerate() {
            if let Err(e) = ensure(&api, &sim, i, name).await {
                tracing::debug!(node = %name, error = %e, "could not update the simulated node; retrying");
            }
        }
        tokio::time::sleep(HEARTBEAT).await;
    }
}

async fn ensure(api: &Api<Node>, sim: &Sim, index: usize, name: &str) -> Result<(), kube::Error> {
    let existing = api.get_opt(name).await?;
    if existing.is_none() {
        let node: Node = serde_json::from_value(json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": name, "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                SIMULATED_LABEL: "true",
            }},
            "spec": {"podCIDR": format!("10.244.{index}.0/24"), "podCIDRs": [format!("10.244.{index}.0/24")]},
        }))
        .map_err(kube::Error::SerdeError)?;
        match api.create(&PostParams::default(), &node).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    let current = existing.as_ref().map(|n| status::current(&n.status)).unwrap_or_else(|| json!({}));
    let patch = json!({"status": node_status(sim, index, name, &current)});
    api.patch_status(name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    Ok(())
}

fn node_status(sim: &Sim, index: usize, name: &str, current: &Value) -> Value {
    let c = &sim.config;
    let resources = json!({
        "cpu": c.node_cpu, "memory": c.node_memory, "pods": c.node_pods.to_string(),
        "ephemeral-storage": c.node_ephemeral_storage,
    });
    let now = status::now();
    // The heartbeat moves on every time; the transition time only when the status changes.
    let cond = |type_: &str, st: &str, reason: &str, message: &str| {
        let old = current["conditions"].as_array().and_then(|cs| cs.iter().find(|c| c["type"] == type_));
        let transition = match old {
            Some(c) if c["status"] == st && c["lastTransitionTime"].is_string() => c["lastTransitionTime"].clone(),
            _ => json!(now),
        };
        json!({"type": type_, "status": st, "reason": reason, "message": message,
               "lastHeartbeatTime": now, "lastTransitionTime": transition})
    };
    json!({
        "capacity": resources,
        "allocatable": resources,
        "phase": "Running",
        "conditions": [
            cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            cond("Ready", "True", "KubeletReady", "simulated kubelet is posting ready status (no real node)"),
        ],
        "addresses": [
            {"type": "InternalIP", "address": node_ip(index)},
            {"type": "Hostname", "address": name},
        ],
        "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
        "nodeInfo": {
            "machineID": format!("simulated-{name}"),
            "systemUUID": format!("simulated-{name}"),
            "bootID": format!("simulated-{name}"),
            "kernelVersion": "simulated",
            "osImage": "karmadactl simulated node",
            "containerRuntimeVersion": "simulated://0",
            "kubeletVersion": sim.version,
            "kubeProxyVersion": sim.version,
            "operatingSystem": "linux",
            "architecture": "amd64",
        },
    })
}

/// The node's pretend address (TEST-NET-style private range; nothing answers there).
pub fn node_ip(index: usize) -> String {
    format!("172.30.0.{}", index + 2)
}

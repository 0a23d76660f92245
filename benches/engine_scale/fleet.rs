//! The fleet the engine_scale and dashboard benchmarks build alike: members named `memberNNN`
//! joined with `karmadactl join`, one PropagationPolicy per member selecting Deployments by a
//! `bench-target` label, and the one-replica Deployments those policies place.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::bail;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, DynamicObject, PostParams};
use serde_json::json;

use karmadactl_karmada_api::cluster::Cluster;

use crate::members::Member;

/// A size knob from the environment, or its default.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The name of member `i` (counting from 0): `member001`, `member002`, …
pub fn member_name(i: usize) -> String {
    format!("member{:03}", i + 1)
}

/// A one-replica Deployment labelled for the member `target`'s policy.
pub fn deployment(name: &str, namespace: &str, target: &str) -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace, "labels": {"bench-target": target}},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}
    }))
    .expect("a Deployment")
}

/// Joins member `m` to the plane with the real `karmadactl join`.
pub async fn join(home: &Path, plane_kubeconfig: &Path, m: &Member) -> anyhow::Result<()> {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_karmadactl"))
        .args(["join", &m.name, "--kubeconfig"])
        .arg(plane_kubeconfig)
        .arg("--cluster-kubeconfig")
        .arg(&m.kubeconfig)
        .env("HOME", home)
        .stdin(std::process::Stdio::null())
        .output()
        .await?;
    if !out.status.success() {
        bail!("join {} failed: {}", m.name, String::from_utf8_lossy(&out.stderr));
    }
    Ok(())
}

/// Waits (up to 180 s) until `n` Clusters at the plane are Ready.
pub async fn wait_clusters_ready(plane: &kube::Client, n: usize) -> anyhow::Result<()> {
    let api: Api<Cluster> = Api::all(plane.clone());
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let list = api.list(&Default::default()).await?;
        let ready = list.items.iter().filter(|c| karmadactl_engine::execution::is_ready(c)).count();
        if ready >= n {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("only {ready} of {n} clusters Ready after 180 s");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The PropagationPolicies of the plane's `default` namespace.
pub fn default_policies(plane: &kube::Client) -> Api<DynamicObject> {
    Api::namespaced_with(
        plane.clone(),
        "default",
        &kube::api::ApiResource::from_gvk_with_plural(
            &kube::api::GroupVersionKind::gvk("policy.karmada.io", "v1alpha1", "PropagationPolicy"),
            "propagationpolicies",
        ),
    )
}

/// One PropagationPolicy per member, `to-memberNNN`, placing the Deployments labelled for it.
pub async fn create_policies(plane: &kube::Client, members: usize) -> anyhow::Result<()> {
    let pp = default_policies(plane);
    for m in 0..members {
        let name = member_name(m);
        let p: DynamicObject = serde_json::from_value(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": format!("to-{name}"), "namespace": "default"},
            "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment",
                        "labelSelector": {"matchLabels": {"bench-target": name}}}],
                     "placement": {"clusterAffinity": {"clusterNames": [name]}}}
        }))?;
        pp.create(&PostParams::default(), &p).await?;
    }
    Ok(())
}

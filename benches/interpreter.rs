//! Resource-interpreter benchmark: 1,000 workloads of a CRD kind that a Lua
//! ResourceInterpreterCustomization teaches (replicas at `spec.size`, revision, status, health)
//! propagated through the plane, beside 1,000 Deployments that the native interpreter handles,
//! both Divided over two simulated members, each kind in a playground of its own. Each figure
//! comes with a limit measured in the same run: the same 1,000 objects created straight into one
//! member (the last hop alone). The fair comparison is the plane's CPU per template: the members'
//! simulated pods make Deployments cost the members more, whatever interprets them.
//!
//! Run with `cargo bench --bench interpreter` with the machine quiet; prints a Markdown section
//! for docs/performance.md. The in-process cost of one Lua call beside the native interpreter is
//! `cargo bench -p karmadactl-interpreter --bench lua_calls`.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;
use process::{cpu_seconds, run};

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::{Value, json};

const TEMPLATES: usize = 1000;
/// Creates in flight at once, as a client applying a directory would have.
const IN_FLIGHT: usize = 16;

fn workload_resource() -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("example.io", "v1", "Workload"), "workloads")
}

fn deployment_resource() -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("apps", "v1", "Deployment"), "deployments")
}

fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "workloads.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "Workload", "plural": "workloads", "singular": "workload", "listKind": "WorkloadList"},
                 "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
                               "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}
    })
}

fn customization() -> Value {
    let rule = |s: &str| json!({"luaScript": s});
    json!({
        "apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterCustomization",
        "metadata": {"name": "workload"},
        "spec": {"target": {"apiVersion": "example.io/v1", "kind": "Workload"}, "customizations": {
            "replicaResource": rule("local kube = require(\"kube\")\nfunction GetReplicas(obj)\n  return obj.spec.size, kube.accuratePodRequirements(obj.spec.template)\nend"),
            "replicaRevision": rule("function ReviseReplica(obj, n)\n  obj.spec.size = n\n  return obj\nend"),
            "statusReflection": rule("function ReflectStatus(obj)\n  if obj.status == nil then return {} end\n  return {readySize = obj.status.readySize}\nend"),
            "statusAggregation": rule("function AggregateStatus(obj, items)\n  local ready = 0\n  for i = 1, #items do\n    if items[i].status ~= nil and items[i].status.readySize ~= nil then ready = ready + items[i].status.readySize end\n  end\n  obj.status = {readySize = ready}\n  return obj\nend"),
            "healthInterpretation": rule("function InterpretHealth(obj)\n  return obj.status ~= nil and obj.status.readySize == obj.spec.size\nend"),
        }}
    })
}

fn policy(name: &str, api_version: &str, kind: &str) -> Value {
    json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"resourceSelectors": [{"apiVersion": api_version, "kind": kind}],
                 "placement": {"clusterAffinity": {"clusterNames": ["member1", "member2"]},
                               "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                                   "weightPreference": {"staticWeightList": [
                                       {"targetCluster": {"clusterNames": ["member1"]}, "weight": 1},
                                       {"targetCluster": {"clusterNames": ["member2"]}, "weight": 1}]}}}}
    })
}

fn pod_template(name: &str) -> Value {
    json!({"metadata": {"labels": {"app": name}},
           "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}}}]}})
}

fn workload(name: &str) -> Value {
    json!({"apiVersion": "example.io/v1", "kind": "Workload", "metadata": {"name": name, "namespace": "default"},
           "spec": {"size": 2, "template": pod_template(name)}})
}

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": "default"},
           "spec": {"replicas": 2, "selector": {"matchLabels": {"app": name}}, "template": pod_template(name)}})
}

async fn client(kubeconfig: &Path, context: &str) -> kube::Client {
    let kc = kube::config::Kubeconfig::read_from(kubeconfig).unwrap();
    let opts = kube::config::KubeConfigOptions { context: Some(context.into()), ..Default::default() };
    kube::Client::try_from(kube::Config::from_custom_kubeconfig(kc, &opts).await.unwrap()).unwrap()
}

async fn create(api: &Api<DynamicObject>, object: Value) {
    let object: DynamicObject = serde_json::from_value(object).unwrap();
    api.create(&PostParams::default(), &object).await.expect("create");
}

/// Creates every object, `IN_FLIGHT` at a time; the wall time.
async fn create_all(api: &Api<DynamicObject>, objects: Vec<Value>) -> Duration {
    let start = Instant::now();
    futures::stream::iter(objects).for_each_concurrent(IN_FLIGHT, |o| create(api, o)).await;
    start.elapsed()
}

/// Records when each member first shows each object of `resource`, with the replicas it got.
fn follow(member: kube::Client, resource: ApiResource, field: &'static str, seen: Arc<Mutex<HashMap<String, usize>>>) {
    tokio::spawn(async move {
        let api: Api<DynamicObject> = Api::namespaced_with(member, "default", &resource);
        let mut events = watcher(api, watcher::Config::default()).applied_objects().boxed();
        while let Ok(Some(o)) = events.try_next().await {
            if o.data["spec"][field].as_i64() == Some(1) {
                *seen.lock().unwrap().entry(o.metadata.name.unwrap_or_default()).or_default() += 1;
            }
        }
    });
}

/// Seconds from the first create until both members hold every object with its one replica.
async fn drain(seen: &Arc<Mutex<HashMap<String, usize>>>, prefix: &str, started: Instant) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let done = seen.lock().unwrap().iter().filter(|(k, n)| k.starts_with(prefix) && **n >= 2).count();
        if done >= TEMPLATES {
            return started.elapsed();
        }
        assert!(Instant::now() < deadline, "{prefix}: {done} of {TEMPLATES} reached both members");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn plane_pid(dir: &Path) -> u32 {
    std::fs::read_to_string(dir.join("karmada/controlplane.pid")).unwrap_or_default().trim().parse().unwrap_or(0)
}

struct Drained {
    wall: Duration,
    plane_cpu: f64,
}

/// One kind's run in a playground of its own, so neither kind's leftovers (the members'
/// simulated pods for Deployments) slow the other: `lua` runs Workloads through the
/// customization, otherwise Deployments through the native interpreter. With `lua`, also the
/// same Workloads created straight into one member.
fn phase(lua: bool) -> (Drained, Option<Duration>) {
    let home = tempfile::tempdir().unwrap();
    let dir: PathBuf = home.path().join("playground");
    let d = dir.to_str().unwrap().to_string();
    let out = run(home.path(), &["local", "up", "--members", "2", "--nodes", "1", "--data-dir", &d, "-o", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().unwrap());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let result = rt.block_on(async {
        let plane = client(&kubeconfig, "karmada-apiserver").await;
        let members = [client(&kubeconfig, "member1").await, client(&kubeconfig, "member2").await];
        let policies = ApiResource::from_gvk_with_plural(
            &GroupVersionKind::gvk("policy.karmada.io", "v1alpha1", "PropagationPolicy"),
            "propagationpolicies",
        );
        let pp = Api::namespaced_with(plane.clone(), "default", &policies);
        let (resource, field, make): (ApiResource, &'static str, fn(&str) -> Value) = if lua {
            let crds = ApiResource::from_gvk_with_plural(
                &GroupVersionKind::gvk("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
                "customresourcedefinitions",
            );
            for c in std::iter::once(&plane).chain(&members) {
                create(&Api::all_with(c.clone(), &crds), crd()).await;
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
            let customizations = ApiResource::from_gvk_with_plural(
                &GroupVersionKind::gvk("config.karmada.io", "v1alpha1", "ResourceInterpreterCustomization"),
                "resourceinterpretercustomizations",
            );
            create(&Api::all_with(plane.clone(), &customizations), customization()).await;
            create(&pp, policy("workloads", "example.io/v1", "Workload")).await;
            (workload_resource(), "size", workload)
        } else {
            create(&pp, policy("deployments", "apps/v1", "Deployment")).await;
            (deployment_resource(), "replicas", deployment)
        };
        let seen: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        for m in &members {
            follow(m.clone(), resource.clone(), field, seen.clone());
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let pid = plane_pid(&dir);
        let api = Api::namespaced_with(plane.clone(), "default", &resource);
        let cpu = cpu_seconds(pid);
        let started = Instant::now();
        create_all(&api, (0..TEMPLATES).map(|i| make(&format!("t-{i}"))).collect()).await;
        let wall = drain(&seen, "t-", started).await;
        let drained = Drained { wall, plane_cpu: cpu_seconds(pid) - cpu };
        let direct = if lua {
            let api = Api::namespaced_with(members[0].clone(), "default", &workload_resource());
            Some(create_all(&api, (0..TEMPLATES).map(|i| workload(&format!("direct-{i}"))).collect()).await)
        } else {
            None
        };
        (drained, direct)
    });
    drop(rt);
    run(home.path(), &["local", "down", "--force", "--data-dir", &d]);
    result
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (lua, direct) = phase(true);
    let direct = direct.expect("the Lua run times the direct creates");
    let (native, _) = phase(false);

    let per_s = |w: Duration| TEMPLATES as f64 / w.as_secs_f64();
    let cpu_ms = |c: f64| c * 1e3 / TEMPLATES as f64;
    println!("### Resource interpreter: {TEMPLATES} templates Divided over 2 members, {}", machine());
    println!();
    println!(
        "| measure | Deployments (native interpreter) | CRD kind (Lua customization) | ratio | limit in the same run |"
    );
    println!("|---|---|---|---|---|");
    println!(
        "| created, then in both members with 1 replica each | {:.1} s ({:.0}/s) | {:.1} s ({:.0}/s) | {:.2}× | {TEMPLATES} creates straight into one member: {:.1} s ({:.0}/s) |",
        native.wall.as_secs_f64(),
        per_s(native.wall),
        lua.wall.as_secs_f64(),
        per_s(lua.wall),
        lua.wall.as_secs_f64() / native.wall.as_secs_f64(),
        direct.as_secs_f64(),
        per_s(direct)
    );
    println!(
        "| plane CPU per template | {:.1} ms | {:.1} ms | {:.2}× | — |",
        cpu_ms(native.plane_cpu),
        cpu_ms(lua.plane_cpu),
        lua.plane_cpu / native.plane_cpu
    );
}

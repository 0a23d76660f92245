//! Simulated member clusters: `local member start|stop` run the real binary in the background,
//! and the real kubectl sees nodes and workloads behave as on a cluster.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::{Run, karmadactl, run};
use serde_json::Value;

/// A member started for one test; stopped (and its data removed) when dropped, even when the
/// test failed half-way.
struct Member {
    name: String,
    home: tempfile::TempDir,
    dir: PathBuf,
}

impl Member {
    fn start(name: &str, extra: &[&str]) -> (Member, Run) {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("members").join(name);
        let member = Member { name: name.into(), dir, home };
        // Pods turn ready quickly unless the test asks for its own delay.
        let delay: &[&str] = if extra.contains(&"--pod-ready-delay") { &[] } else { &["--pod-ready-delay", "100ms"] };
        let out = member.cli(&[&["local", "member", "start", name][..], delay, extra].concat());
        assert_eq!(out.code, 0, "start failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
        (member, out)
    }

    /// `karmadactl <args> --data-dir <dir>`.
    fn cli(&self, args: &[&str]) -> Run {
        let mut cmd = karmadactl(self.home.path());
        cmd.args(args).arg("--data-dir").arg(&self.dir);
        run(cmd)
    }

    fn kubeconfig(&self) -> PathBuf {
        self.dir.join(format!("{}.kubeconfig", self.name))
    }

    fn pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.dir.join("controlplane.pid")).ok()?.trim().parse().ok()
    }

    fn kubectl(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new(common::kubectl_binary("1.33"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .env("PATH", "/usr/bin:/bin")
            .arg("--kubeconfig")
            .arg(self.kubeconfig())
            .arg("--cache-dir")
            .arg(self.home.path().join("kube-cache"))
            .args(args);
        run(cmd)
    }

    fn kubectl_ok(&self, args: &[&str]) -> String {
        let out = self.kubectl(args);
        assert_eq!(out.code, 0, "kubectl {args:?} failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
        out.stdout
    }

    fn apply(&self, manifest: &str) {
        let path = self.home.path().join("manifest.yaml");
        std::fs::write(&path, manifest).unwrap();
        self.kubectl_ok(&["apply", "-f", path.to_str().unwrap()]);
    }

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.kubectl_ok(&[args, &["-o", "json"][..]].concat())).unwrap()
    }

    /// Polls until `check` returns Some, with a deadline generous enough for a loaded machine.
    fn eventually<T>(&self, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if let Some(v) = check() {
                return v;
            }
            assert!(Instant::now() < deadline, "gave up waiting for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Pods of the default namespace matching a label selector, as kubectl lists them.
    fn pods(&self, selector: &str) -> Vec<Value> {
        self.json(&["get", "pods", "-l", selector])["items"].as_array().cloned().unwrap_or_default()
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        let _ = self.cli(&["local", "member", "stop", &self.name]);
    }
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.rsplit_once(')').and_then(|(_, r)| r.split_whitespace().next()) != Some("Z"))
}

fn running_ready(pod: &Value) -> bool {
    pod["status"]["phase"] == "Running"
        && ["Ready", "ContainersReady", "PodScheduled", "Initialized"].iter().all(|t| {
            pod["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["type"] == *t && c["status"] == "True"))
        })
        && pod["status"]["podIP"].as_str().is_some_and(|ip| !ip.is_empty())
        && pod["status"]["containerStatuses"][0]["ready"] == true
}

fn owner_uid(obj: &Value) -> String {
    obj["metadata"]["ownerReferences"][0]["uid"].as_str().unwrap_or_default().to_string()
}

const DAEMONSET: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: agent:1}]}
";

const STATEFULSET: &str = "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: REPLICAS
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: redis:7}]}
";

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: IMAGE}]}
";

#[test]
fn a_member_runs_workloads_as_a_cluster_would() {
    let (m, out) = Member::start("member1", &["--nodes", "2", "--kubernetes-version", "v1.31.4"]);
    assert!(out.stdout.contains("SIMULATED member cluster \"member1\" is running"), "{}", out.stdout);
    assert!(out.stdout.contains("not a real Kubernetes cluster"), "{}", out.stdout);
    let kc = m.kubeconfig().display().to_string();
    assert!(out.stdout.contains(&format!("karmadactl join member1 --cluster-kubeconfig={kc}")), "{}", out.stdout);
    let stop = format!("karmadactl local member stop member1 --data-dir {}", m.dir.display());
    assert!(out.stdout.contains(&stop), "{}", out.stdout);

    // The kubeconfig names the member, and /version reports the configured version.
    assert_eq!(m.kubectl_ok(&["config", "current-context"]).trim(), "member1");
    let version: Value = serde_json::from_str(&m.kubectl_ok(&["get", "--raw", "/version"])).unwrap();
    assert_eq!(version["gitVersion"], "v1.31.4");

    // Nodes: as many as asked, Ready, with the default capacity and the member's version.
    let nodes = m.eventually("two Ready nodes", || {
        let items = m.json(&["get", "nodes"])["items"].as_array().cloned()?;
        let ready = |n: &Value| {
            n["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
        };
        (items.len() == 2 && items.iter().all(ready)).then_some(items)
    });
    for node in &nodes {
        assert_eq!(node["status"]["capacity"]["cpu"], "8");
        assert_eq!(node["status"]["allocatable"]["memory"], "32Gi");
        assert_eq!(node["status"]["capacity"]["pods"], "110");
        assert_eq!(node["status"]["nodeInfo"]["kubeletVersion"], "v1.31.4");
    }
    let node_names: Vec<String> = nodes.iter().map(|n| n["metadata"]["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(node_names, ["member1-node-1", "member1-node-2"]);

    // A Deployment gets a ReplicaSet and three Running, Ready pods; rollout status succeeds.
    m.apply(&DEPLOYMENT.replace("IMAGE", "nginx:1.27"));
    m.kubectl_ok(&["rollout", "status", "deployment/web", "--timeout=120s"]);
    let rs_list = m.json(&["get", "replicasets", "-l", "app=web"]);
    let rs = &rs_list["items"][0];
    let deploy = m.json(&["get", "deployment", "web"]);
    assert_eq!(owner_uid(rs), deploy["metadata"]["uid"].as_str().unwrap());
    assert_eq!(rs["metadata"]["ownerReferences"][0]["blockOwnerDeletion"], true);
    let hash = rs["metadata"]["labels"]["pod-template-hash"].as_str().unwrap().to_string();
    assert_eq!(rs["metadata"]["name"], format!("web-{hash}"));
    let pods = m.eventually("three ready pods", || {
        let pods = m.pods("app=web");
        (pods.len() == 3 && pods.iter().all(running_ready)).then_some(pods)
    });
    for pod in &pods {
        assert_eq!(owner_uid(pod), rs["metadata"]["uid"].as_str().unwrap());
        assert!(node_names.iter().any(|n| pod["spec"]["nodeName"] == n.as_str()));
    }
    let status = &m.json(&["get", "deployment", "web"])["status"];
    assert_eq!(status["readyReplicas"], 3);
    assert_eq!(status["updatedReplicas"], 3);
    let progressing = status["conditions"].as_array().unwrap().iter().find(|c| c["type"] == "Progressing").unwrap();
    assert_eq!(progressing["reason"], "NewReplicaSetAvailable");

    // Scaling down leaves one pod.
    m.kubectl_ok(&["scale", "deployment/web", "--replicas=1"]);
    m.eventually("one pod after scaling", || (m.pods("app=web").len() == 1).then_some(()));
    m.kubectl_ok(&["rollout", "status", "deployment/web", "--timeout=120s"]);

    // A new template rolls to a new ReplicaSet; the old one is scaled to zero.
    m.apply(&DEPLOYMENT.replace("IMAGE", "nginx:1.28").replace("replicas: 3", "replicas: 2"));
    m.kubectl_ok(&["rollout", "status", "deployment/web", "--timeout=120s"]);
    let rss = m.eventually("two ReplicaSets, the old one at zero", || {
        let items = m.json(&["get", "replicasets", "-l", "app=web"])["items"].as_array().cloned()?;
        let old_at_zero = items
            .iter()
            .any(|r| r["metadata"]["labels"]["pod-template-hash"] == hash.as_str() && r["spec"]["replicas"] == 0);
        (items.len() == 2 && old_at_zero).then_some(items)
    });
    let new_rs = rss.iter().find(|r| r["metadata"]["labels"]["pod-template-hash"] != hash.as_str()).unwrap();
    assert_eq!(new_rs["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.28");
    m.eventually("two pods of the new template", || {
        let pods = m.pods("app=web");
        let new = pods.iter().filter(|p| owner_uid(p) == new_rs["metadata"]["uid"].as_str().unwrap()).count();
        (pods.len() == 2 && new == 2 && pods.iter().all(running_ready)).then_some(())
    });

    // Deleting the Deployment leaves its ReplicaSets and pods to the garbage collector.
    m.kubectl_ok(&["delete", "deployment", "web"]);
    m.eventually("the Deployment's ReplicaSets and pods collected", || {
        let rs = m.json(&["get", "replicasets", "-l", "app=web"])["items"].as_array().map_or(0, Vec::len);
        (rs == 0 && m.pods("app=web").is_empty()).then_some(())
    });

    // A DaemonSet gets one pod per node.
    m.apply(DAEMONSET);
    let ds_pods = m.eventually("a ready agent pod on each node", || {
        let pods = m.pods("app=agent");
        (pods.len() == 2 && pods.iter().all(running_ready)).then_some(pods)
    });
    let mut on: Vec<String> = ds_pods.iter().map(|p| p["spec"]["nodeName"].as_str().unwrap().to_string()).collect();
    on.sort();
    assert_eq!(on, node_names);
    m.eventually("DaemonSet status", || {
        let s = m.json(&["get", "daemonset", "agent"])["status"].clone();
        (s["desiredNumberScheduled"] == 2 && s["numberReady"] == 2 && s["numberAvailable"] == 2).then_some(())
    });
    // The server defaults the update strategy, which `rollout status` needs.
    m.kubectl_ok(&["rollout", "status", "daemonset/agent", "--timeout=120s"]);

    // A StatefulSet gets pods -0..-2, ready.
    m.apply(&STATEFULSET.replace("REPLICAS", "3"));
    m.eventually("db-0..db-2 ready", || {
        let pods = m.pods("app=db");
        let mut names: Vec<&str> = pods.iter().filter_map(|p| p["metadata"]["name"].as_str()).collect();
        names.sort();
        (names == ["db-0", "db-1", "db-2"] && pods.iter().all(running_ready)).then_some(())
    });
    m.eventually("StatefulSet status", || {
        let s = m.json(&["get", "statefulset", "db"])["status"].clone();
        (s["readyReplicas"] == 3 && s["updatedReplicas"] == 3 && s["availableReplicas"] == 3).then_some(())
    });
    m.kubectl_ok(&["rollout", "status", "statefulset/db", "--timeout=120s"]);

    // A Job runs its pod to completion and is marked Complete.
    m.kubectl_ok(&["create", "job", "once", "--image=busybox"]);
    m.kubectl_ok(&["wait", "--for=condition=complete", "job/once", "--timeout=120s"]);
    let job = m.json(&["get", "job", "once"]);
    assert_eq!(job["status"]["succeeded"], 1);
    assert!(job["status"]["completionTime"].is_string());
    assert_eq!(job["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"], job["metadata"]["uid"]);
    let pods = m.pods("job-name=once");
    assert_eq!(pods.len(), 1);
    assert_eq!(pods[0]["status"]["phase"], "Succeeded");
}

/// Requests the member's API server counted under `verb`, `resource` and `subresource`.
fn requests(metrics: &str, verb: &str, resource: &str, subresource: &str) -> u64 {
    answered(metrics, "", verb, resource, subresource)
}

/// Like [`requests`], only those answered with `code` (any code when empty).
fn answered(metrics: &str, code: &str, verb: &str, resource: &str, subresource: &str) -> u64 {
    let mut labels =
        vec![format!("resource=\"{resource}\""), format!("subresource=\"{subresource}\""), format!("verb=\"{verb}\"")];
    if !code.is_empty() {
        labels.push(format!("code=\"{code}\""));
    }
    metrics
        .lines()
        .filter(|l| l.starts_with("apiserver_request_total{") && labels.iter().all(|want| l.contains(want.as_str())))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<u64>().ok())
        .sum()
}

#[test]
fn a_deployment_becomes_ready_without_redundant_writes() {
    const N: usize = 20;
    // The default ready delay: pods are waited for up to twice that.
    let (m, _) = Member::start("writes", &["--pod-ready-delay", "500ms"]);
    let manifest: String = (0..N)
        .map(|i| {
            format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: app{i}}}\nspec:\n  replicas: 1\n  \
                 selector: {{matchLabels: {{app: app{i}}}}}\n  template:\n    metadata: {{labels: {{app: app{i}}}}}\n    \
                 spec: {{containers: [{{name: c, image: nginx}}]}}\n---\n"
            )
        })
        .collect();
    m.apply(&manifest);
    m.eventually("every Deployment available", || {
        let items = m.json(&["get", "deployments"])["items"].as_array().cloned()?;
        let available = |d: &Value| {
            d["status"]["availableReplicas"] == 1
                && d["status"]["conditions"].as_array().is_some_and(|cs| {
                    cs.iter().any(|c| c["reason"] == "NewReplicaSetAvailable" && c["status"] == "True")
                })
        };
        (items.len() == N && items.iter().all(available)).then_some(())
    });
    // Quiet for a moment, so a late redundant write would be counted.
    std::thread::sleep(Duration::from_secs(2));
    let metrics = m.kubectl_ok(&["get", "--raw", "/metrics"]);
    let n = N as u64;
    for kind in ["deployments", "replicasets", "pods"] {
        assert_eq!(requests(&metrics, "create", kind, ""), n, "one {kind} create per Deployment\n{metrics}");
    }
    // Each owner's status is written when it says something new: a ReplicaSet's once its new
    // pod is ready (it waits for a pod about to turn ready, not writing it pending first), a
    // Deployment's after its ReplicaSet's, the pod's once (Running and Ready). Neither writes
    // counts from before its own change nor re-reads the pod. A pod that a loaded machine
    // makes later than twice the ready delay is reported pending first, hence the margin.
    assert!(requests(&metrics, "patch", "deployments", "status") <= n + n / 4, "{metrics}");
    assert!(requests(&metrics, "patch", "replicasets", "status") <= n + n / 4, "{metrics}");
    assert_eq!(requests(&metrics, "patch", "pods", "status"), n, "{metrics}");
    assert_eq!(requests(&metrics, "get", "pods", ""), 0, "{metrics}");
    for kind in ["deployments", "replicasets", "pods"] {
        assert_eq!(requests(&metrics, "patch", kind, ""), 0, "no {kind} spec or metadata patch\n{metrics}");
    }
    // One watch per kind (each begins with a list), shared by every loop that follows it: the
    // kubelets, the quota, endpointslice and owner controllers, and the caches.
    for kind in ["replicasets", "pods"] {
        assert_eq!(requests(&metrics, "list", kind, ""), 1, "one {kind} watch\n{metrics}");
    }
}

#[test]
fn other_owners_write_their_status_once_their_pods_show() {
    // A StatefulSet, a DaemonSet and a Job write their status, as a ReplicaSet does, once the
    // pods' cache shows the pods they created: not first the counts from before.
    let (m, _) = Member::start("owners", &["--nodes", "1"]);
    m.apply(&format!("{}---\n{DAEMONSET}", STATEFULSET.replace("REPLICAS", "1")));
    m.kubectl_ok(&["create", "job", "once", "--image=busybox"]);
    m.eventually("every owner done", || {
        let sts = m.json(&["get", "statefulset", "db"])["status"].clone();
        let ds = m.json(&["get", "daemonset", "agent"])["status"].clone();
        let job = m.json(&["get", "job", "once"])["status"].clone();
        (sts["readyReplicas"] == 1 && ds["numberReady"] == 1 && job["succeeded"] == 1).then_some(())
    });
    std::thread::sleep(Duration::from_secs(2));
    let metrics = m.kubectl_ok(&["get", "--raw", "/metrics"]);
    // Pod created, then ready (the Job: created, running, succeeded).
    assert_eq!(requests(&metrics, "patch", "statefulsets", "status"), 2, "{metrics}");
    assert_eq!(requests(&metrics, "patch", "daemonsets", "status"), 2, "{metrics}");
    assert!(requests(&metrics, "patch", "jobs", "status") <= 3, "{metrics}");
}

#[test]
fn the_kubelet_reads_a_pod_again_when_it_changed_before_the_status_write() {
    // The kubelet writes a pod's status on the condition that the pod is as it last saw it; a
    // pod changed meanwhile refuses the write (409), and the kubelet reads it and tries again.
    let (m, _) = Member::start("reread", &["--pod-ready-delay", "3s"]);
    m.apply("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx}]}\n");
    // Bound at once; the status write waits the ready delay.
    m.eventually("the pod bound to a node", || {
        let pods = m.json(&["get", "pods"])["items"].as_array().cloned()?;
        pods.first().and_then(|p| p["spec"]["nodeName"].as_str().filter(|n| !n.is_empty()).map(|_| ()))
    });
    let pending = m.json(&["get", "pods"]);
    assert_eq!(pending["items"][0]["status"]["phase"], "Pending", "changed before the delay ended: {pending}");
    m.kubectl_ok(&["patch", "pod", "p", "--type", "merge", "-p", r#"{"metadata":{"labels":{"touched":"yes"}}}"#]);
    // kubectl's own reads, counted while the kubelet still waits.
    let reads_before = requests(&m.kubectl_ok(&["get", "--raw", "/metrics"]), "get", "pods", "");
    let pod = m.eventually("the pod running and ready", || {
        let pods = m.json(&["get", "pods"])["items"].as_array().cloned()?;
        pods.into_iter().find(running_ready)
    });
    assert_eq!(pod["metadata"]["labels"]["touched"], "yes", "the status write kept the change: {pod}");
    let metrics = m.kubectl_ok(&["get", "--raw", "/metrics"]);
    assert_eq!(answered(&metrics, "409", "patch", "pods", "status"), 1, "{metrics}");
    assert_eq!(answered(&metrics, "200", "patch", "pods", "status"), 1, "{metrics}");
    assert_eq!(requests(&metrics, "get", "pods", "") - reads_before, 1, "one read after the refusal\n{metrics}");
}

#[test]
fn start_reuses_a_running_member_and_stop_stops_it() {
    let (m, first) = Member::start("reuse", &["-o", "json"]);
    let first: Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!(first["simulated"], true);
    assert_eq!(first["alreadyRunning"], false);
    let pid = first["pid"].as_u64().unwrap() as u32;
    assert!(alive(pid));

    let again = m.cli(&["local", "member", "start", "reuse", "-o", "json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["alreadyRunning"], true);
    assert_eq!(again["pid"], first["pid"]);
    assert_eq!(again["url"], first["url"]);

    let stop = m.cli(&["local", "member", "stop", "reuse", "--keep-data"]);
    assert_eq!(stop.code, 0, "{}", stop.stderr);
    assert!(stop.stdout.contains(&format!("stopped simulated member \"reuse\" (pid {pid})")), "{}", stop.stdout);
    assert!(!alive(pid), "the member process is gone");
    assert!(m.kubeconfig().exists(), "--keep-data keeps the data");

    // Started again on the kept data: a new process on the same URL.
    let third = m.cli(&["local", "member", "start", "reuse", "-o", "json"]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    let third: Value = serde_json::from_str(&third.stdout).unwrap();
    assert_eq!(third["alreadyRunning"], false);
    assert_eq!(third["url"], first["url"]);
    assert_ne!(third["pid"], first["pid"]);
    let new_pid = m.pid().unwrap();

    let stop = m.cli(&["local", "member", "stop", "reuse"]);
    assert_eq!(stop.code, 0, "{}", stop.stderr);
    assert!(!alive(new_pid));
    assert!(!m.dir.exists(), "stop without --keep-data removes the data");
}

#[test]
fn stop_refuses_a_process_that_is_not_the_member() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("m");
    std::fs::create_dir_all(&dir).unwrap();
    // A live process that is not this member's server.
    let mut sleeper = Command::new("sleep").arg("60").spawn().unwrap();
    std::fs::write(dir.join("controlplane.pid"), format!("{}\n", sleeper.id())).unwrap();
    let mut cmd = karmadactl(home.path());
    cmd.args(["local", "member", "stop", "m", "--data-dir"]).arg(&dir);
    let out = run(cmd);
    let still_alive = alive(sleeper.id());
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("is not this member's server"), "{}", out.stderr);
    assert!(still_alive, "the foreign process was not signalled");
    assert!(dir.exists());
}

#[test]
fn bad_input_fails_with_a_clear_error() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("x");
    let bad_name = run({
        let mut c = karmadactl(home.path());
        c.args(["local", "member", "start", "Bad_Name", "--data-dir"]).arg(&data);
        c
    });
    assert_eq!(bad_name.code, 1);
    assert!(bad_name.stderr.contains("invalid cluster name(Bad_Name)"), "{}", bad_name.stderr);
    assert!(!data.exists(), "nothing was created");

    let not_kubernetes = run({
        let mut c = karmadactl(home.path());
        c.args(["controlplane", "serve", "--simulate-workloads", "--listen", "127.0.0.1:0", "--data-dir"]).arg(&data);
        c
    });
    assert_eq!(not_kubernetes.code, 1);
    assert!(
        not_kubernetes.stderr.contains("--simulate-workloads needs --profile kubernetes"),
        "{}",
        not_kubernetes.stderr
    );
    assert!(!data.exists(), "nothing was created");

    let bad_delay = run({
        let mut c = karmadactl(home.path());
        c.args(["local", "member", "start", "ok", "--pod-ready-delay", "soon", "--data-dir"]).arg(&data);
        c
    });
    assert_eq!(bad_delay.code, 1);
    assert!(bad_delay.stderr.contains("--pod-ready-delay"), "{}", bad_delay.stderr);

    // A directory holding something else is not taken over.
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("precious.txt"), "keep").unwrap();
    let occupied = run({
        let mut c = karmadactl(home.path());
        c.args(["local", "member", "start", "ok", "--data-dir"]).arg(&data);
        c
    });
    assert_eq!(occupied.code, 1);
    assert!(occupied.stderr.contains("is not a simulated member's data directory"), "{}", occupied.stderr);
    assert_eq!(std::fs::read_to_string(data.join("precious.txt")).unwrap(), "keep");
}

//! `logs -C member1` prints what kubectl 1.33 prints through the plane's cluster proxy for the
//! same member: the same stdout and stderr bytes and the same exit code, for pods, workloads,
//! selectors and every refusal; and the simulated member's `pods/log` answers as
//! kube-apiserver does.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

const MEMBER: &str = "member1";

/// A pod with two containers, a Deployment and a finished Job on the member.
const WORKLOADS: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "two", "namespace": "default"},
   "spec": {"containers": [{"name": "a", "image": "nginx"}, {"name": "b", "image": "nginx"}]}},
  {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
   "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}},
  {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "once", "namespace": "default"},
   "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "once", "image": "busybox"}]}}}}
]}"#;

struct Twins {
    fleet: Fleet,
    proxy: PathBuf,
}

impl Twins {
    fn kubectl(&self, args: &[&str]) -> Run {
        self.fleet.k_with(&self.proxy, args)
    }

    fn ours(&self, args: &[&str]) -> Run {
        let mut all = args.to_vec();
        all.extend(["-C", MEMBER]);
        self.fleet.karmadactl(&all)
    }

    /// Runs `logs ARGS` with both tools and checks they agree; returns karmadactl's run.
    fn same(&self, args: &[&str]) -> Run {
        let mut full = vec!["logs"];
        full.extend(args);
        let theirs = self.kubectl(&full);
        let ours = self.ours(&full);
        // Upstream karmadactl's usage line names the cluster flag; kubectl's cannot.
        let stderr = theirs
            .stderr
            .replace("'kubectl logs", "'karmadactl logs")
            .replace("[-c CONTAINER]'.", "[-c CONTAINER] (-C CLUSTER)'.");
        assert_eq!((ours.code, &ours.stdout, &ours.stderr), (theirs.code, &theirs.stdout, &stderr), "logs {args:?}");
        ours
    }

    fn pods(&self) -> Vec<Value> {
        let run = self.kubectl(&["get", "pods", "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let list: Value = serde_json::from_str(&run.stdout).unwrap();
        list["items"].as_array().cloned().unwrap_or_default()
    }
}

fn phase(pod: &Value) -> &str {
    pod["status"]["phase"].as_str().unwrap_or_default()
}

#[test]
fn logs_print_what_kubectl_prints_through_the_cluster_proxy() {
    let fleet = Fleet::up(1);
    let proxy = fleet.proxy_kubeconfig(MEMBER);
    let twins = Twins { fleet, proxy };
    let file = twins.fleet.home.path().join("workloads.json");
    std::fs::write(&file, WORKLOADS).unwrap();
    let created = twins.kubectl(&["create", "-f", file.to_str().unwrap()]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    // The Job's pod must have finished (a running one still writes lines between the runs).
    twins.fleet.wait("every pod running, the Job's done", || {
        let pods = twins.pods();
        let settled = pods
            .iter()
            .filter(|p| {
                let job = p["metadata"]["name"].as_str().unwrap_or_default().starts_with("once-");
                if job { phase(p) == "Succeeded" } else { phase(p) == "Running" }
            })
            .count();
        if pods.len() == 3 && settled == 3 { Ok(()) } else { Err(format!("{pods:?}")) }
    });

    // Running containers write a line a second: the --limit-bytes comparisons below need
    // more bytes than they cut at, so both tools print the same prefix.
    twins.fleet.wait("the running pods wrote five lines", || {
        let run = twins.kubectl(&["logs", "two", "-c", "a"]);
        let lines = run.stdout.lines().count();
        if lines >= 5 { Ok(()) } else { Err(format!("{lines} lines: {}", run.stderr)) }
    });
    // A finished container's log no longer changes: every form compares exactly.
    let job = twins.same(&["job/once"]);
    assert_eq!(job.code, 0);
    assert!(
        job.stdout.starts_with("simulated member member1: line 1 of container once in pod default/once-"),
        "{}",
        job.stdout
    );
    twins.same(&["job/once", "--timestamps"]);
    twins.same(&["job/once", "--prefix", "--tail=1"]);
    twins.same(&["job/once", "-f"]);
    twins.same(&["job/once", "--all-pods"]);

    // A running container keeps writing: its first bytes are the same for every reader.
    let two = twins.same(&["two", "--limit-bytes=300"]);
    assert!(two.stderr.contains("Defaulted container \"a\" out of: a, b"), "{}", two.stderr);
    assert!(two.stdout.contains("line 1 of container a in pod default/two"), "{}", two.stdout);
    twins.same(&["two", "b", "--limit-bytes=120", "--timestamps"]);
    twins.same(&["two", "-c", "b", "--limit-bytes=200", "--since=1h"]);
    twins.same(&["two", "-c", "a", "-f", "--limit-bytes=250"]);
    twins.same(&["deployment/web", "--limit-bytes=100", "--prefix"]);
    twins.same(&["-l", "app=web", "--limit-bytes=90"]);
    twins.same(&["-l", "app=nothing"]);

    // Refusals: client side, then the server's.
    for args in [
        &["two", "-c", "nope"][..],
        &["two", "b", "-c", "a"],
        &["two", "--all-containers", "-c", "a"],
        &["two", "--tail=-2"],
        &["two", "--since=-1s"],
        &["two", "--since=5s", "--since-time=2024-01-01T00:00:00Z"],
        &["two", "--limit-bytes=-1"],
        &["missing"],
        &["configmap/kube-root-ca.crt"],
        &["nosuchtype/x"],
        &["two", "-c", "a", "-p"],
        &[],
        &["two", "-l", "app=web"],
        &["a", "b", "c"],
    ] {
        let run = twins.same(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    let previous = twins.ours(&["logs", "two", "-c", "a", "-p"]);
    assert_eq!(
        previous.stderr,
        "Error from server (BadRequest): previous terminated container \"a\" in pod \"two\" not found\n"
    );

    // The server itself, as kube-apiserver answers a request kubectl would not send. (`--raw`
    // ignores the path of the kubeconfig's server, so the proxy path is spelled out.)
    let member_get = |path: &str| {
        let full = format!("/apis/cluster.karmada.io/v1alpha1/clusters/{MEMBER}/proxy{path}");
        twins.fleet.k("karmada-apiserver", &["get", "--raw", &full])
    };
    let raw = member_get("/api/v1/namespaces/default/pods/two/log");
    assert_eq!(raw.code, 1);
    assert_eq!(
        raw.stderr,
        "Error from server (BadRequest): a container name must be specified for pod two, choose one of: [a b]\n"
    );
    let raw = member_get("/api/v1/namespaces/default/pods/two/log?container=a&tailLines=-1");
    assert_eq!(raw.code, 1);
    assert!(raw.stderr.contains("tailLines: Invalid value: -1: must be greater than or equal to 0"), "{}", raw.stderr);
    let raw = member_get("/api/v1/namespaces/default/pods/two/log?container=zz");
    assert_eq!(raw.stderr, "Error from server (BadRequest): container zz is not valid for pod two\n");
    let raw = member_get("/api/v1/namespaces/default/pods/two/log?container=a&limitBytes=64");
    assert_eq!(raw.code, 0, "{}", raw.stderr);
    assert_eq!(raw.stdout.len(), 64);
    // The longest look back there is reads everything, rather than overflowing.
    let raw = member_get(
        "/api/v1/namespaces/default/pods/two/log?container=a&sinceSeconds=9223372036854775807&limitBytes=10",
    );
    assert_eq!((raw.code, raw.stdout.as_str()), (0, "simulated "), "{}", raw.stderr);

    // The cluster is required, as upstream says.
    let missing = twins.fleet.karmadactl(&["logs", "two"]);
    assert_eq!(
        (missing.code, missing.stdout.as_str(), missing.stderr.as_str()),
        (1, "", "error: must specify a cluster\n")
    );
}

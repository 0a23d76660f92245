//! Failover on etcd: three etcd members, two control-plane replicas and two simulated members
//! with workloads propagating. The replica holding the controller Lease is killed (-9), then one
//! etcd member; the other replica takes over, propagation goes on, and every write the API
//! acknowledged is still there.
#![cfg(feature = "etcd")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common;
use crate::common::etcd::EtcdCluster;
use crate::common::plane::Plane;

const PATIENCE: Duration = Duration::from_secs(90);

fn member(name: &str) -> Plane {
    Plane::start_with(&["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", name])
}

fn deployment(name: &str, member: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}, namespace: default}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers: [{{name: c, image: nginx}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {{name: {name}, namespace: default}}
spec:
  resourceSelectors: [{{apiVersion: apps/v1, kind: Deployment, name: {name}}}]
  placement: {{clusterAffinity: {{clusterNames: [{member}]}}}}
"
    )
}

fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn join(plane: &Plane, name: &str, member: &Plane) {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.args(["join", name, "--kubeconfig"]).arg(&plane.kubeconfig).arg("--cluster-kubeconfig").arg(&member.kubeconfig);
    let run = common::run(cmd);
    assert_eq!(run.code, 0, "join {name}: {}", run.stderr);
}

#[test]
fn the_other_replica_takes_over_and_no_acknowledged_write_is_lost() {
    let mut etcd = EtcdCluster::start(3);
    let datastore = etcd.datastore();
    let flags = ["--datastore", &datastore];
    let first = Plane::start_with(&flags);
    let pki = first.data_dir.join("pki");
    let mut second_flags = flags.to_vec();
    second_flags.extend(["--pki-dir", pki.to_str().unwrap()]);
    let second = Plane::start_with(&second_flags);
    let (m1, m2) = (member("member1"), member("member2"));
    join(&first, "member1", &m1);
    join(&first, "member2", &m2);
    let in_member = |m: &Plane, name: &str| m.kubectl_run(&["get", "deployment", name, "-n", "default"]).code == 0;

    // Propagation works before anything fails.
    first.create(&deployment("before", "member1"));
    wait_until("the first workload reaches member1", || in_member(&m1, "before"));

    // Writers through both replicas record every create the API acknowledged.
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = [first.kubeconfig.clone(), second.kubeconfig.clone()]
        .into_iter()
        .enumerate()
        .map(|(w, kubeconfig)| {
            let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
            let kubectl = common::kubectl_binary("1.33");
            let cache = tempfile::tempdir().unwrap();
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    let name = format!("w{w}-{n}");
                    n += 1;
                    let out = std::process::Command::new(&kubectl)
                        .arg("--kubeconfig")
                        .arg(&kubeconfig)
                        .arg("--cache-dir")
                        .arg(cache.path())
                        .args(["create", "configmap", &name, "--request-timeout=5s"])
                        .output()
                        .unwrap();
                    if out.status.success() {
                        acknowledged.lock().unwrap().push(name);
                    }
                }
            })
        })
        .collect();

    // Kill the replica that holds the controller Lease, then one etcd member.
    let address = |p: &Plane| p.url.trim_start_matches("https://").to_string();
    let mut leader_first = false;
    wait_until("a replica holds the controller lease", || {
        let who = second.lease_holder();
        leader_first = who.ends_with(&format!("_{}", address(&first)));
        !who.is_empty()
    });
    let (mut leader, survivor) = if leader_first { (first, second) } else { (second, first) };
    // Some creates are acknowledged before anything fails, not only after the failover.
    wait_until("the writers got creates through", || acknowledged.lock().unwrap().len() >= 2);
    leader.kill9();
    etcd.kill(0);
    etcd.wait_healthy();

    // The survivor takes the controllers over, and propagation goes on through it.
    let mine = format!("_{}", address(&survivor));
    wait_until("the survivor holds the lease", || survivor.lease_holder().ends_with(&mine));
    survivor.create(&deployment("after", "member2"));
    wait_until("a workload created after the failover reaches member2", || in_member(&m2, "after"));
    // What was propagated before stays where it was.
    assert!(in_member(&m1, "before"));

    // Creates go on through the survivor too (on a loaded machine they may trail the workload).
    let through_failover = acknowledged.lock().unwrap().len() + 2;
    wait_until("the writers got creates through after the failover", || {
        acknowledged.lock().unwrap().len() >= through_failover
    });

    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    let listed = survivor.kubectl_ok(&["get", "configmaps", "-o", "jsonpath={.items[*].metadata.name}"]);
    let present: std::collections::HashSet<&str> = listed.split_whitespace().collect();
    let lost: Vec<&String> = acknowledged.iter().filter(|n| !present.contains(n.as_str())).collect();
    assert!(lost.is_empty(), "acknowledged creates missing after the failover: {lost:?}");
}

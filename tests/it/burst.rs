//! A burst of Deployments created at once by many clients against a playground of simulated
//! members (issue 30): every one must reach every member, and the members' simulated
//! controllers must bring each to ready, within a bounded time, without flooding the member's
//! API server with connections (the cause of the stall: the simulator ran every reconcile at
//! once, each on a connection of its own, and the plane's applies could no longer connect).

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::fleet::{Fleet, deployment};

/// Deployments in the burst; with the simulator listing every object of the namespace per
/// reconcile, a few hundred already left the members minutes behind.
const DEPLOYMENTS: usize = 200;
/// Concurrent clients creating them, as in the report.
const CLIENTS: usize = 16;
/// How long every member copy may take to arrive and report ready: about 85 s for a debug
/// build on a loaded 2-core machine, with room for a slower one.
const SETTLE: Duration = Duration::from_secs(180);
/// Sockets a member's process may hold at once during the burst. With the simulator bounded it
/// held 77 at most (its watches and syncs, the plane's clients); unbounded, 700 to 800.
const MAX_MEMBER_SOCKETS: usize = 200;

#[test]
fn a_burst_of_deployments_reaches_every_member_and_turns_ready() {
    let fleet = Fleet::up(2);
    fleet.apply(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: every-deployment, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
",
    );
    let pids: Vec<u32> = ["member1", "member2"]
        .iter()
        .map(|m| {
            let file = fleet.dir.join("members").join(m).join("controlplane.pid");
            let pid = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            pid.trim().parse().expect("a pid")
        })
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            while !done.load(Ordering::Relaxed) {
                most = pids.iter().map(|&p| sockets(p)).max().unwrap_or(0).max(most);
                std::thread::sleep(Duration::from_millis(250));
            }
            most
        })
    };
    // Each client creates its share from one file, one request after another.
    let batches: Vec<std::path::PathBuf> = (0..CLIENTS)
        .map(|c| {
            let docs: Vec<String> =
                (c..DEPLOYMENTS).step_by(CLIENTS).map(|i| deployment(&format!("burst-{i}"), 1, "")).collect();
            let file = fleet.home.path().join(format!("burst-{c}.yaml"));
            std::fs::write(&file, docs.join("---\n")).unwrap();
            file
        })
        .collect();
    let running: Vec<_> = batches
        .iter()
        .map(|file| {
            let mut cmd = fleet.k_command("karmada-apiserver", &["create", "-f", file.to_str().unwrap()]);
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
        })
        .collect();
    let clients: Vec<_> = running.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    let created = clients.iter().map(|o| String::from_utf8_lossy(&o.stdout).matches(" created").count()).sum::<usize>();
    assert_eq!(
        created,
        DEPLOYMENTS,
        "every create is answered: {:?}",
        clients.iter().map(|o| String::from_utf8_lossy(&o.stderr).to_string()).collect::<Vec<_>>()
    );

    let start = Instant::now();
    loop {
        let seen: Vec<(usize, usize)> = ["member1", "member2"].iter().map(|m| ready_count(&fleet, m)).collect();
        if seen.iter().all(|&(present, ready)| present == DEPLOYMENTS && ready == DEPLOYMENTS) {
            eprintln!("burst of {DEPLOYMENTS} settled on both members in {:?}", start.elapsed());
            break;
        }
        assert!(
            start.elapsed() < SETTLE,
            "after {SETTLE:?} the members hold (present, ready) {seen:?} of {DEPLOYMENTS} Deployments"
        );
        std::thread::sleep(Duration::from_secs(2));
    }
    done.store(true, Ordering::Relaxed);
    let most = sampler.join().unwrap();
    eprintln!("at most {most} sockets in a member's process during the burst");
    assert!(
        most < MAX_MEMBER_SOCKETS,
        "a member's process held {most} sockets during the burst (at most {MAX_MEMBER_SOCKETS} expected)"
    );
}

/// Sockets the process `pid` holds open now (0 once it is gone).
fn sockets(pid: u32) -> usize {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return 0 };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

/// How many of the burst's Deployments `member` holds, and how many of them are ready.
fn ready_count(fleet: &Fleet, member: &str) -> (usize, usize) {
    let list = fleet.get(member, &["deployments", "-n", "default"]).unwrap_or_default();
    let items = list["items"].as_array().cloned().unwrap_or_default();
    let burst: Vec<_> =
        items.iter().filter(|d| d["metadata"]["name"].as_str().is_some_and(|n| n.starts_with("burst-"))).collect();
    let ready = burst.iter().filter(|d| d["status"]["readyReplicas"].as_i64() == Some(1)).count();
    (burst.len(), ready)
}

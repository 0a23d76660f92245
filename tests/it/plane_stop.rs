//! Stopping the plane (SIGTERM): the process exits without freeing its caches one by one, so
//! what must happen before the exit is checked here: every acknowledged write is there after
//! a restart, and with etcd the controller lease is handed over at once rather than left to
//! expire.

use std::time::{Duration, Instant};

use crate::common::etcd::EtcdCluster;
use crate::common::plane::Plane;

/// ConfigMaps written just before the stop.
const OBJECTS: usize = 300;

#[test]
fn a_stopped_plane_comes_back_with_every_acknowledged_object() {
    let mut plane = Plane::start();
    let items: Vec<String> = (0..OBJECTS)
        .map(|i| {
            format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"kept-{i}"}},"data":{{"n":"{i}"}}}}"#)
        })
        .collect();
    let list =
        plane.file("kept.json", &format!(r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#, items.join(",")));
    let out = plane.kubectl_ok(&["create", "-n", "default", "-f", list.to_str().unwrap()]);
    assert_eq!(out.matches(" created").count(), OBJECTS, "{out}");

    // The stop comes right after the last acknowledged write.
    let status = plane.stop().expect("the plane exits on SIGTERM by itself");
    assert!(status.success(), "a graceful stop exits 0: {status:?}");
    plane.restart();
    let names = plane.kubectl_ok(&["get", "configmaps", "-n", "default", "-o", "name"]);
    let kept = names.lines().filter(|l| l.starts_with("configmap/kept-")).count();
    assert_eq!(kept, OBJECTS, "every acknowledged ConfigMap is back after the restart");
    let last = plane.kubectl_ok(&[
        "get",
        "configmap",
        &format!("kept-{}", OBJECTS - 1),
        "-n",
        "default",
        "-o",
        "jsonpath={.data.n}",
    ]);
    assert_eq!(last, (OBJECTS - 1).to_string());
}

/// With a lease of 90 s the other replica, campaigning every 30 s, would wait at least 60 s
/// after the stop for the lease to expire; a released lease is taken at its next round.
const LEASE: &str = "90s";
const HANDED_OVER_WITHIN: Duration = Duration::from_secs(50);

#[test]
fn a_stopping_replica_hands_the_controller_lease_over_at_once() {
    let etcd = EtcdCluster::start(1);
    let datastore = etcd.datastore();
    let flags = ["--datastore", &datastore, "--leader-elect-lease-duration", LEASE];
    let first = Plane::start_with(&flags);
    let pki = first.data_dir.join("pki");
    let mut second_flags = flags.to_vec();
    second_flags.extend(["--pki-dir", pki.to_str().unwrap()]);
    let second = Plane::start_with(&second_flags);
    let address = |p: &Plane| format!("_{}", p.url.trim_start_matches("https://"));

    let deadline = Instant::now() + Duration::from_secs(60);
    let leader_is_first = loop {
        let who = second.lease_holder();
        if !who.is_empty() {
            break who.ends_with(&address(&first));
        }
        assert!(Instant::now() < deadline, "no replica took the controller lease");
        std::thread::sleep(Duration::from_millis(200));
    };
    let (mut leader, survivor) = if leader_is_first { (first, second) } else { (second, first) };

    let stopped = Instant::now();
    let status = leader.stop().expect("the leader exits on SIGTERM by itself");
    assert!(status.success(), "a graceful stop exits 0: {status:?}");
    let released = survivor.lease_holder();
    assert!(!released.ends_with(&address(&leader)), "the stopped replica gave the lease up: holder {released:?}");
    let mine = address(&survivor);
    loop {
        let who = survivor.lease_holder();
        if who.ends_with(&mine) {
            break;
        }
        assert!(
            stopped.elapsed() < HANDED_OVER_WITHIN,
            "{:?} after the stop the lease is still held by {who:?}, not the survivor",
            stopped.elapsed()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

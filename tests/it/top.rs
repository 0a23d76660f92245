//! `top pod|node` read a simulated member's `metrics.k8s.io` through the plane's cluster proxy
//! and print what kubectl 1.33's `top` prints through the same proxy, plus upstream's CLUSTER
//! column; the member's metrics API answers get, list, selectors and errors as metrics-server.

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

/// Lines split into cells, with karmadactl's CLUSTER column (the second) taken out when
/// `cluster` names it, so they compare with kubectl's.
fn cells(stdout: &str, cluster_column: Option<(usize, &str)>) -> Vec<Vec<String>> {
    stdout
        .lines()
        .map(|l| {
            let mut cells: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            if let Some((i, name)) = cluster_column
                && cells.get(i).is_some_and(|c| c == name || c == "CLUSTER")
            {
                cells.remove(i);
            }
            cells
        })
        .collect()
}

fn ok(run: &Run, what: &str) -> String {
    assert_eq!(run.code, 0, "{what}:\n{}\n{}", run.stdout, run.stderr);
    run.stdout.clone()
}

/// A member with three running pods of known requests in namespace `metrics`, made directly
/// in the member (through the proxy) so the plane's propagation does not touch them.
fn seeded() -> (Fleet, std::path::PathBuf) {
    let fleet = Fleet::up(2);
    let proxy = fleet.proxy_kubeconfig("member1");
    ok(&fleet.k_with(&proxy, &["create", "namespace", "metrics"]), "create namespace");
    ok(&fleet.k_with(&proxy, &["create", "namespace", "empty"]), "create namespace");
    ok(
        &fleet.k_with(&proxy, &["create", "deployment", "web", "--image=nginx", "--replicas=3", "-n", "metrics"]),
        "create deployment",
    );
    ok(
        &fleet.k_with(
            &proxy,
            &[
                "set",
                "resources",
                "deployment",
                "web",
                "-n",
                "metrics",
                "--requests=cpu=200m,memory=256Mi",
                "--limits=cpu=500m,memory=512Mi",
            ],
        ),
        "set resources",
    );
    fleet.wait("three running pods with requests", || {
        let run = fleet.k_with(&proxy, &["get", "pods", "-n", "metrics", "-o", "json"]);
        let list: Value = serde_json::from_str(&run.stdout).map_err(|e| format!("{e}: {}", run.stderr))?;
        let items = list["items"].as_array().cloned().unwrap_or_default();
        let ready = items
            .iter()
            .filter(|p| {
                p["status"]["phase"] == "Running"
                    && p.get("metadata").and_then(|m| m.get("deletionTimestamp")).is_none()
            })
            .filter(|p| p["spec"]["containers"][0]["resources"]["requests"]["cpu"] == "200m")
            .count();
        if ready == 3 && items.len() == 3 { Ok(()) } else { Err(format!("{ready} of {} ready", items.len())) }
    });
    (fleet, proxy)
}

#[test]
fn top_pod_and_node_print_what_kubectl_prints_through_the_proxy() {
    let (fleet, proxy) = seeded();
    let member = Some((1, "member1"));

    for flags in [
        &["-n", "metrics"][..],
        &["-n", "metrics", "--sum"],
        &["-n", "metrics", "--containers"],
        &["-n", "metrics", "--sort-by", "cpu", "--no-headers"],
        &["-n", "metrics", "--sort-by", "memory"],
        &["-n", "metrics", "-l", "app=web"],
    ] {
        let theirs = ok(&fleet.k_with(&proxy, &[&["top", "pod"][..], flags].concat()), "kubectl top pod");
        let ours = ok(&fleet.karmadactl(&[&["top", "pod", "-C", "member1"][..], flags].concat()), "karmadactl top pod");
        let column = if flags.contains(&"--containers") { Some((2, "member1")) } else { member };
        assert_eq!(cells(&ours, column), cells(&theirs, None), "{flags:?}\nours:\n{ours}\ntheirs:\n{theirs}");
        assert!(ours.lines().next().unwrap().ends_with(' '), "cells end in padding as upstream's: {ours:?}");
    }

    // One pod by name, with its containers.
    let pods = fleet.k_with(&proxy, &["get", "pods", "-n", "metrics", "-o", "name"]);
    let pod = ok(&pods, "pods").lines().next().unwrap().trim_start_matches("pod/").to_string();
    let theirs = ok(&fleet.k_with(&proxy, &["top", "pod", &pod, "-n", "metrics", "--containers"]), "kubectl");
    let ours = ok(&fleet.karmadactl(&["top", "pod", &pod, "-n", "metrics", "--containers", "-C", "member1"]), "ours");
    assert_eq!(cells(&ours, Some((2, "member1"))), cells(&theirs, None));

    // -A over the member: kubectl's rows are ours for member1.
    let theirs = ok(&fleet.k_with(&proxy, &["top", "pod", "-A"]), "kubectl -A");
    let ours = ok(&fleet.karmadactl(&["top", "pod", "-A", "-C", "member1"]), "ours -A");
    assert_eq!(cells(&ours, Some((2, "member1"))), cells(&theirs, None));

    // Nodes: usage and the share of allocatable (or capacity).
    for flags in [&[][..], &["--show-capacity"], &["--sort-by", "memory"]] {
        let theirs = ok(&fleet.k_with(&proxy, &[&["top", "node"][..], flags].concat()), "kubectl top node");
        let ours =
            ok(&fleet.karmadactl(&[&["top", "node", "--clusters", "member1"][..], flags].concat()), "ours top node");
        // Upstream kept kubectl's older headers (`CPU%`; kubectl 1.33 says `CPU(%)`): rows compare.
        let (ours, theirs) = (cells(&ours, member), cells(&theirs, None));
        assert_eq!(ours[0], ["NAME", "CPU(cores)", "CPU%", "MEMORY(bytes)", "MEMORY%"]);
        assert_eq!(ours[1..], theirs[1..], "{flags:?}");
    }
    let nodes = ok(&fleet.karmadactl(&["top", "node"]), "top node over every member");
    for m in ["member1", "member2"] {
        assert_eq!(nodes.lines().filter(|l| l.split_whitespace().nth(1) == Some(m)).count(), 3, "{nodes}");
    }

    // An empty namespace: nothing on stdout, kubectl's notice on stderr.
    let theirs = fleet.k_with(&proxy, &["top", "pod", "-n", "empty"]);
    let ours = fleet.karmadactl(&["top", "pod", "-n", "empty", "-C", "member1"]);
    assert_eq!(
        (ours.code, ours.stdout.as_str(), ours.stderr.as_str()),
        (0, "", "No resources found in empty namespace.\n")
    );
    assert_eq!((theirs.code, theirs.stderr.as_str()), (0, "No resources found in empty namespace.\n"));
}

#[test]
fn top_refuses_bad_input_with_upstreams_messages() {
    let fleet = Fleet::up(1);
    let proxy = fleet.proxy_kubeconfig("member1");
    let cases: [(&[&str], &str); 5] = [
        (&["top", "pod", "--sort-by", "name"], "error: --sort-by accepts only cpu or memory\n"),
        (&["top", "pod", "x", "-l", "a=b"], "error: only one of NAME or selector can be provided\n"),
        (&["top", "node", "x", "-l", "a=b"], "error: only one of NAME or --selector can be provided\n"),
        (&["top", "pod", "-C", "nope,member1"], "error: clusters don't exist: nope\n"),
        (&["top", "pod", "missing", "-C", "member1"], "error: cluster(member1): pods \"missing\" not found\n"),
    ];
    for (args, want) in cases {
        let run = fleet.karmadactl(args);
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (1, "", want), "{args:?}");
    }
    // kubectl gets the same answer from the member's metrics API.
    let theirs = fleet.k_with(&proxy, &["top", "pod", "missing"]);
    assert_eq!(theirs.code, 1);
    assert!(theirs.stderr.contains("pods \"missing\" not found"), "{}", theirs.stderr);

    // The metrics API is read-only and says so as kube-apiserver does for an unsupported verb;
    // an unknown node is metrics-server's NotFound. (`--raw` paths ignore a kubeconfig's path
    // prefix, so these ask the member directly.)
    let del = fleet.k("member1", &["delete", "--raw", "/apis/metrics.k8s.io/v1beta1/nodes/member1-node-1"]);
    assert_eq!(del.code, 1);
    assert!(
        del.stderr.contains("delete is not supported on resources of kind \"nodes.metrics.k8s.io\""),
        "{}",
        del.stderr
    );
    let missing = fleet.k("member1", &["get", "--raw", "/apis/metrics.k8s.io/v1beta1/nodes/nope"]);
    assert!(missing.stderr.contains("nodes \"nope\" not found"), "{}", missing.stderr);
    let groups = ok(&fleet.k_with(&proxy, &["api-versions"]), "api-versions");
    assert!(groups.lines().any(|l| l == "metrics.k8s.io/v1beta1"), "{groups}");
    // The plane itself serves no metrics.
    let plane = fleet.k("karmada-apiserver", &["get", "--raw", "/apis/metrics.k8s.io/v1beta1/nodes"]);
    assert_eq!(plane.code, 1, "{}", plane.stdout);
}

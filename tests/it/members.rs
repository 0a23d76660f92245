//! Member clusters end to end, as a user runs them: `init --embedded`, simulated members from
//! `local member start`, `join` and `unjoin` with their real kubeconfigs, the plane's cluster
//! controller judging health, and the `local up` playground. Real kubectl is the judge.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::{Run, plane::Plane};
use serde_json::Value;

const CONVERGE: Duration = Duration::from_secs(30);

/// A scratch HOME with helpers to run karmadactl and kubectl in it; stops what it started.
struct Site {
    home: tempfile::TempDir,
    members: Vec<String>,
    plane_dir: Option<PathBuf>,
    playground: bool,
}

impl Site {
    fn new() -> Self {
        Site { home: tempfile::tempdir().expect("temp dir"), members: Vec::new(), plane_dir: None, playground: false }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }

    fn cli(&self, args: &[&str]) -> Run {
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(args);
        common::run(cmd)
    }

    fn cli_ok(&self, args: &[&str]) -> Run {
        let run = self.cli(args);
        assert_eq!(run.code, 0, "karmadactl {args:?} failed:\nstdout: {}\nstderr: {}", run.stdout, run.stderr);
        run
    }

    fn init(&mut self) -> PathBuf {
        let dir = self.path("karmada");
        let out =
            self.cli_ok(&["init", "--embedded", "--port", "0", "-o", "json", "--karmada-data", dir.to_str().unwrap()]);
        self.plane_dir = Some(dir);
        let v: Value = serde_json::from_str(&out.stdout).expect("init prints JSON");
        PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig path"))
    }

    fn member(&mut self, name: &str, version: &str) -> PathBuf {
        let dir = self.path(&format!("members/{name}"));
        let out = self.cli_ok(&[
            "local",
            "member",
            "start",
            name,
            "--data-dir",
            dir.to_str().unwrap(),
            "--kubernetes-version",
            version,
            "-o",
            "json",
        ]);
        self.members.push(name.to_string());
        let v: Value = serde_json::from_str(&out.stdout).expect("member start prints JSON");
        assert_eq!(v["simulated"], true);
        PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig path"))
    }

    fn stop_member(&self, name: &str, keep_data: bool) {
        let dir = self.path(&format!("members/{name}"));
        let mut args = vec!["local", "member", "stop", name, "--data-dir", dir.to_str().unwrap()];
        if keep_data {
            args.push("--keep-data");
        }
        self.cli_ok(&args);
    }

    fn kubectl(&self, kubeconfig: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(common::kubectl_binary("1.33"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .arg("--cache-dir")
            .arg(self.path("kube-cache"))
            .args(args);
        common::run(cmd)
    }

    fn kubectl_ok(&self, kubeconfig: &Path, args: &[&str]) -> String {
        let run = self.kubectl(kubeconfig, args);
        assert_eq!(run.code, 0, "kubectl {args:?} failed:\n{}", run.stderr);
        run.stdout
    }

    /// The object as JSON, or None when it does not exist.
    fn get(&self, kubeconfig: &Path, args: &[&str]) -> Option<Value> {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend(["-o", "json", "--ignore-not-found"]);
        let out = self.kubectl_ok(kubeconfig, &all);
        (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        if self.playground {
            let dir = self.path("playground");
            let _ = self.cli(&["local", "down", "--force", "--data-dir", dir.to_str().unwrap()]);
        }
        for name in self.members.clone() {
            let dir = self.path(&format!("members/{name}"));
            let _ = self.cli(&["local", "member", "stop", &name, "--data-dir", dir.to_str().unwrap()]);
        }
        if let Some(dir) = &self.plane_dir {
            let _ = self.cli(&["deinit", "--embedded", "--force", "--karmada-data", dir.to_str().unwrap()]);
        }
    }
}

fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + CONVERGE;
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `kubectl get clusters` rows as (name, version, mode, ready).
fn cluster_rows(site: &Site, kubeconfig: &Path) -> Vec<(String, String, String, String)> {
    site.kubectl_ok(kubeconfig, &["get", "clusters", "--no-headers"])
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string(), f[3].to_string())
        })
        .collect()
}

fn ready_status(site: &Site, kubeconfig: &Path, name: &str) -> Option<String> {
    let c = site.get(kubeconfig, &["cluster", name])?;
    let conditions = c["status"]["conditions"].as_array()?.clone();
    conditions.iter().find(|c| c["type"] == "Ready").and_then(|c| c["status"].as_str().map(str::to_string))
}

fn resource_versions(site: &Site, kubeconfig: &Path, args: &[&str]) -> Vec<String> {
    let list = site.get(kubeconfig, args).expect("a list");
    list["items"].as_array().unwrap().iter().map(|o| o["metadata"]["resourceVersion"].to_string()).collect()
}

#[test]
fn two_simulated_members_join_report_ready_and_unjoin_cleanly() {
    let mut site = Site::new();
    let plane = site.init();
    let m1 = site.member("member1", "v1.31.4");
    let m2 = site.member("member2", "v1.32.1");
    let plane_arg = plane.to_str().unwrap();

    for (name, kc) in [("member1", &m1), ("member2", &m2)] {
        let out = site.cli_ok(&["join", name, "--kubeconfig", plane_arg, "--cluster-kubeconfig", kc.to_str().unwrap()]);
        assert_eq!(out.stdout.trim(), format!("cluster({name}) is joined successfully"));
    }
    let rows = eventually("both members Ready", || {
        let rows = cluster_rows(&site, &plane);
        (rows.len() == 2 && rows.iter().all(|r| r.3 == "True")).then_some(rows)
    });
    assert_eq!(rows[0], ("member1".into(), "v1.31.4".into(), "Push".into(), "True".into()));
    assert_eq!(rows[1], ("member2".into(), "v1.32.1".into(), "Push".into(), "True".into()));

    // The status the controller collected from the simulated nodes.
    let c = site.get(&plane, &["cluster", "member1"]).unwrap();
    assert_eq!(c["status"]["nodeSummary"]["totalNum"], 3);
    assert_eq!(c["status"]["nodeSummary"]["readyNum"], 3);
    assert!(c["status"]["resourceSummary"]["allocatable"]["cpu"].is_string());
    assert!(site.get(&plane, &["namespace", "karmada-es-member1"]).is_some());

    // Joining again is refused and changes nothing, in either cluster.
    let before_plane = resource_versions(&site, &plane, &["secrets", "-n", "karmada-cluster"]);
    let before_member = resource_versions(&site, &m1, &["serviceaccounts", "-n", "karmada-cluster"]);
    let again = site.cli(&["join", "member1", "--kubeconfig", plane_arg, "--cluster-kubeconfig", m1.to_str().unwrap()]);
    assert_eq!(again.code, 1);
    assert!(again.stderr.contains("has been registered"), "{}", again.stderr);
    assert_eq!(resource_versions(&site, &plane, &["secrets", "-n", "karmada-cluster"]), before_plane);
    assert_eq!(resource_versions(&site, &m1, &["serviceaccounts", "-n", "karmada-cluster"]), before_member);

    // The same member under a new name: same kube-system uid, refused.
    let twin = site.cli(&["join", "member3", "--kubeconfig", plane_arg, "--cluster-kubeconfig", m1.to_str().unwrap()]);
    assert_eq!(twin.code, 1);
    assert!(twin.stderr.contains("has been registered"), "{}", twin.stderr);
    assert!(site.get(&plane, &["cluster", "member3"]).is_none());

    // Unjoin removes the Cluster, its execution namespace, its secrets and the member's objects.
    let out =
        site.cli_ok(&["unjoin", "member1", "--kubeconfig", plane_arg, "--cluster-kubeconfig", m1.to_str().unwrap()]);
    assert!(out.stdout.contains("member1"), "unjoin says what it removed: {}", out.stdout);
    assert!(site.get(&plane, &["cluster", "member1"]).is_none());
    assert!(site.get(&plane, &["namespace", "karmada-es-member1"]).is_none());
    eventually("the member's secrets collected", || {
        let s = site.get(&plane, &["secrets", "-n", "karmada-cluster"]).unwrap();
        let names: Vec<String> = s["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
            .collect();
        (!names.iter().any(|n| n.starts_with("member1"))).then_some(())
    });
    assert!(site.get(&m1, &["namespace", "karmada-cluster"]).is_none(), "member-side namespace removed");
    assert!(site.get(&m1, &["clusterrole", "karmada-controller-manager:karmada-member1"]).is_none());
    let rows = cluster_rows(&site, &plane);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, "member2");
}

#[test]
fn a_stopped_member_turns_not_ready_and_forced_unjoin_finishes() {
    let mut site = Site::new();
    // Probing fast, so the test does not wait for the 30 s production threshold.
    let plane = Plane::start_with(&["--cluster-status-update-frequency", "200ms", "--cluster-failure-threshold", "1s"]);
    let m1 = site.member("member1", "v1.33.0");
    let plane_arg = plane.kubeconfig.to_str().unwrap();
    site.cli_ok(&["join", "member1", "--kubeconfig", plane_arg, "--cluster-kubeconfig", m1.to_str().unwrap()]);
    eventually("Ready True", || (ready_status(&site, &plane.kubeconfig, "member1")? == "True").then_some(()));

    site.stop_member("member1", true);
    eventually("Ready False", || (ready_status(&site, &plane.kubeconfig, "member1")? == "False").then_some(()));

    let started = Instant::now();
    let out = site.cli(&[
        "unjoin",
        "member1",
        "--kubeconfig",
        plane_arg,
        "--cluster-kubeconfig",
        m1.to_str().unwrap(),
        "--force",
        "--wait",
        "10s",
    ]);
    assert_eq!(out.code, 0, "forced unjoin of a stopped member succeeds: {}", out.stderr);
    // Bounded by --wait plus the member-side attempts' own timeouts, never unbounded.
    assert!(started.elapsed() < Duration::from_secs(60), "unjoin took {:?}", started.elapsed());
    assert!(site.get(&plane.kubeconfig, &["cluster", "member1"]).is_none());
}

#[test]
fn local_up_brings_a_playground_with_ready_members_and_local_down_removes_it() {
    let mut site = Site::new();
    site.playground = true;
    let dir = site.path("playground");
    let out = site.cli_ok(&["local", "up", "--members", "3", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).expect("local up prints JSON");
    assert_eq!(v["simulatedMembers"], true);
    let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().unwrap());

    // One kubeconfig: the plane is current, each member has its own context.
    let contexts = site.kubectl_ok(&kubeconfig, &["config", "get-contexts", "-o", "name"]);
    let mut contexts: Vec<&str> = contexts.lines().collect();
    contexts.sort();
    assert_eq!(contexts, ["karmada-apiserver", "member1", "member2", "member3"]);
    let rows = cluster_rows(&site, &kubeconfig);
    assert_eq!(rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["member1", "member2", "member3"]);
    assert!(rows.iter().all(|r| r.2 == "Push" && r.3 == "True"), "{rows:?}");
    let nodes = site.kubectl_ok(&kubeconfig, &["--context", "member2", "get", "nodes", "--no-headers"]);
    assert_eq!(nodes.lines().count(), 3);

    // Running it again reuses everything.
    let again = site.cli_ok(&["local", "up", "--members", "3", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    assert!(again["members"].as_array().unwrap().iter().all(|m| m["joinedNow"] == false));

    // `local member list` shows the playground's members too, marked as made by `local up`.
    let list = site.cli_ok(&["local", "member", "list", "--playground-dir", dir.to_str().unwrap(), "-o", "json"]);
    let listed: Value = serde_json::from_str(&list.stdout).unwrap();
    let ours: Vec<&Value> = listed.as_array().unwrap().iter().filter(|m| m["playground"] == true).collect();
    let names: Vec<&str> = ours.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["member1", "member2", "member3"], "{}", list.stdout);
    assert!(ours.iter().all(|m| m["pid"].is_u64()), "all running: {}", list.stdout);
    assert!(ours[0]["dataDir"].as_str().unwrap().starts_with(dir.to_str().unwrap()), "{}", list.stdout);
    let table = site.cli_ok(&["local", "member", "list", "--playground-dir", dir.to_str().unwrap()]);
    let row = table.stdout.lines().find(|l| l.starts_with("member2 ")).expect("member2 row");
    assert!(row.contains("Running(pid ") && row.contains("local up"), "{}", table.stdout);
    assert!(table.stdout.starts_with("NAME"), "{}", table.stdout);
    // A directory that is no playground adds nothing.
    let elsewhere = site.cli_ok(&[
        "local",
        "member",
        "list",
        "--playground-dir",
        site.path("none").to_str().unwrap(),
        "-o",
        "json",
    ]);
    let elsewhere: Value = serde_json::from_str(&elsewhere.stdout).unwrap();
    assert!(elsewhere.as_array().unwrap().iter().all(|m| m["playground"] == false), "{elsewhere}");

    let down = site.cli(&["local", "down", "--data-dir", dir.to_str().unwrap()]);
    assert_eq!(down.code, 1, "no terminal and no --force: refused");
    assert!(dir.exists());
    site.cli_ok(&["local", "down", "--force", "--data-dir", dir.to_str().unwrap()]);
    assert!(!dir.exists());
    site.playground = false;
    let gone = site.kubectl(&kubeconfig, &["get", "clusters"]);
    assert_ne!(gone.code, 0);
}

#[test]
fn local_down_stops_the_local_agents_registered_into_the_playground() {
    let mut site = Site::new();
    site.playground = true;
    let dir = site.path("playground");
    let out = site.cli_ok(&["local", "up", "--members", "1", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let kubeconfig = v["kubeconfig"].as_str().unwrap().to_string();
    // A member of its own, registered in Pull mode with the command the plane prints.
    let member = site.member("pull1", "v1.31.0");
    let printed = site.cli_ok(&["token", "create", "--print-register-command", "--kubeconfig", &kubeconfig]);
    let mut args: Vec<String> = printed.stdout.split_whitespace().skip(1).map(String::from).collect();
    args.extend(["--kubeconfig".into(), member.to_str().unwrap().into(), "--cluster-name".into(), "pull1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    site.cli_ok(&args);
    let agent_dir = site.path(".karmada/agents/pull1");
    let pid: i32 = std::fs::read_to_string(agent_dir.join("agent.pid")).unwrap().trim().parse().unwrap();

    let plan = site.cli_ok(&["local", "down", "--dry-run", "--data-dir", dir.to_str().unwrap()]);
    let step = format!(
        "  - stop the local agent of cluster pull1 (pid {pid}) and delete its files in {}",
        agent_dir.display()
    );
    assert!(plan.stderr.contains(&step), "{}", plan.stderr);
    assert_eq!(unsafe { libc::kill(pid, 0) }, 0, "a dry run stops nothing");

    let down = site.cli_ok(&["local", "down", "--force", "--data-dir", dir.to_str().unwrap()]);
    site.playground = false;
    assert!(down.stderr.contains(&format!("stopped the local agent of cluster pull1 (pid {pid})")), "{}", down.stderr);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(stat.is_empty() || stat.contains(") Z "), "the agent is stopped: {stat}");
    assert!(!agent_dir.exists(), "its files are gone");
    assert!(!dir.exists());
}

#[test]
fn ctrl_c_during_local_up_says_what_was_left_and_exits_130() {
    use std::io::{BufRead, BufReader, Read};
    use std::os::unix::process::CommandExt;

    let mut site = Site::new();
    site.playground = true;
    let dir = site.path("playground");
    let mut cmd = common::karmadactl(site.home.path());
    cmd.args(["local", "up", "--members", "1", "--data-dir", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    // Once the members are being started, the plane is up: interrupt the whole group, as a
    // terminal's Ctrl-C does.
    while !seen.contains("starting 1 simulated member clusters") {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "local up ended early: {seen}");
        seen.push_str(&line);
    }
    let pid = child.id() as i32;
    assert_eq!(unsafe { libc::kill(-pid, libc::SIGINT) }, 0);
    stderr.read_to_string(&mut seen).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{seen}");
    assert!(
        seen.contains(&format!("interrupted: 'local up' stopped before the playground in {} was ready", dir.display())),
        "{seen}"
    );
    assert!(seen.contains("  - the Karmada control plane is running (pid "), "{seen}");
    let flag = format!("--data-dir {}", dir.display());
    assert!(
        seen.contains(&format!(
            "hint: run 'karmadactl local up {flag}' again to finish it, or 'karmadactl local down {flag}' to remove it."
        )),
        "{seen}"
    );
    // What it says is true: the playground is there for `local up` to finish.
    let again = site.cli_ok(&["local", "up", "--members", "1", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
    let v: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(v["members"][0]["name"], "member1");
}

//! A `local up` playground for end-to-end tests: the embedded plane and simulated members,
//! joined, driven with the real karmadactl and kubectl, removed again when dropped.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::Run;

/// How long the fleet may take to converge before a test gives up and shows what it saw.
const CONVERGE: Duration = Duration::from_secs(60);

pub struct Fleet {
    pub home: tempfile::TempDir,
    pub dir: PathBuf,
    pub kubeconfig: PathBuf,
    kubectl: PathBuf,
    cache: tempfile::TempDir,
    /// Members registered in Pull mode: (name, kubeconfig, agent directory).
    pull: std::sync::Mutex<Vec<(String, PathBuf, PathBuf)>>,
    /// A plane started by the test itself ([`Fleet::up_with`]) rather than by `local up`.
    plane: Option<super::plane::Plane>,
    /// Its members, started with `local member start` and joined in Push mode: (name,
    /// kubeconfig, data directory).
    members: Vec<(String, PathBuf, PathBuf)>,
}

impl Fleet {
    pub fn up(members: usize) -> Fleet {
        let home = tempfile::tempdir().expect("temp dir");
        let dir = home.path().join("playground");
        let mut cmd = super::karmadactl(home.path());
        let n = members.to_string();
        cmd.args(["local", "up", "--members", &n, "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
        let run = super::run(cmd);
        assert_eq!(run.code, 0, "local up failed:\n{}\n{}", run.stdout, run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).expect("local up prints JSON");
        let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig"));
        Fleet {
            home,
            dir,
            kubeconfig,
            kubectl: super::kubectl_binary("1.33"),
            cache: tempfile::tempdir().unwrap(),
            pull: Default::default(),
            plane: None,
            members: Vec::new(),
        }
    }

    /// Like [`Fleet::up`], but the plane runs with extra `controlplane serve` flags and each
    /// member with extra `local member start` flags: `local up` takes neither. The members are
    /// `member1`… joined in Push mode, each with a data directory that survives
    /// [`Fleet::stop_member`].
    pub fn up_with(members: usize, serve: &[&str], member: &[&str]) -> Fleet {
        let plane = super::plane::Plane::start_with(serve);
        let home = tempfile::tempdir().expect("temp dir");
        let mut fleet = Fleet {
            dir: home.path().join("playground"),
            kubeconfig: plane.kubeconfig.clone(),
            home,
            kubectl: super::kubectl_binary("1.33"),
            cache: tempfile::tempdir().unwrap(),
            pull: Default::default(),
            plane: Some(plane),
            members: Vec::new(),
        };
        for i in 1..=members {
            let name = format!("member{i}");
            let data = fleet.home.path().join(&name);
            let kubeconfig = fleet.start_member_at(&name, &data, member);
            let plane_kubeconfig = fleet.kubeconfig.to_str().unwrap().to_string();
            let join = fleet.karmadactl(&[
                "join",
                &name,
                "--kubeconfig",
                &plane_kubeconfig,
                "--cluster-kubeconfig",
                kubeconfig.to_str().unwrap(),
            ]);
            assert_eq!(join.code, 0, "join {name}:\n{}\n{}", join.stdout, join.stderr);
            fleet.members.push((name, kubeconfig, data));
        }
        fleet
    }

    /// [`Fleet::up_with`] with plane flags only, once every member is Ready, untainted and
    /// reports its capacity, so placements see every member.
    pub fn with_plane_flags(members: usize, flags: &[&str]) -> Fleet {
        let fleet = Fleet::up_with(members, flags, &[]);
        for i in 1..=members {
            let name = format!("member{i}");
            fleet.wait(&format!("cluster {name} Ready"), || {
                let c = fleet.get("karmada-apiserver", &["cluster", &name]).unwrap_or_default();
                let ready = c["status"]["conditions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|c| c["type"] == "Ready" && c["status"] == "True");
                let untainted = c["spec"]["taints"].as_array().is_none_or(Vec::is_empty);
                let capacity = c["status"]["resourceSummary"]["allocatable"].is_object();
                if ready && untainted && capacity { Ok(()) } else { Err(c.to_string()) }
            });
        }
        fleet
    }

    fn start_member_at(&self, name: &str, data: &std::path::Path, extra: &[&str]) -> PathBuf {
        let mut args = vec!["local", "member", "start", name, "--data-dir", data.to_str().unwrap(), "-o", "json"];
        args.extend_from_slice(extra);
        let started = self.karmadactl(&args);
        assert_eq!(started.code, 0, "local member start {name}: {}", started.stderr);
        let v: Value = serde_json::from_str(&started.stdout).expect("local member start prints JSON");
        PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig"))
    }

    fn member_data(&self, name: &str) -> PathBuf {
        let found = self.members.iter().find(|(n, _, _)| n == name);
        found.map(|(_, _, d)| d.clone()).unwrap_or_else(|| panic!("{name} is not a member of this fleet"))
    }

    /// Stops a member of [`Fleet::up_with`], keeping its data (and so its port) for
    /// [`Fleet::start_member`].
    pub fn stop_member(&self, name: &str) {
        let data = self.member_data(name);
        let run =
            self.karmadactl(&["local", "member", "stop", name, "--data-dir", data.to_str().unwrap(), "--keep-data"]);
        assert_eq!(run.code, 0, "local member stop {name}: {}", run.stderr);
    }

    /// Starts a stopped member again, on its old port and data.
    pub fn start_member(&self, name: &str, extra: &[&str]) {
        let data = self.member_data(name);
        let kubeconfig = self.start_member_at(name, &data, extra);
        let known = self.members.iter().any(|(n, k, _)| n == name && *k == kubeconfig);
        assert!(known, "{name} came back with the kubeconfig it was joined with");
    }

    /// Starts one more simulated member and registers it in Pull mode with a local agent, as a
    /// user would: the command `token create --print-register-command` prints, run against it.
    pub fn register_pull(&self, name: &str) {
        let data = self.home.path().join(format!("pull-{name}"));
        let started =
            self.karmadactl(&["local", "member", "start", name, "--data-dir", data.to_str().unwrap(), "-o", "json"]);
        assert_eq!(started.code, 0, "local member start: {}", started.stderr);
        let v: Value = serde_json::from_str(&started.stdout).expect("local member start prints JSON");
        let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig"));
        let agent = self.home.path().join(format!("agent-{name}"));
        self.pull.lock().unwrap().push((name.to_string(), kubeconfig.clone(), agent.clone()));
        let printed = self.karmadactl(&["token", "create", "--print-register-command"]);
        assert_eq!(printed.code, 0, "{}", printed.stderr);
        let mut args: Vec<String> = printed.stdout.split_whitespace().skip(1).map(String::from).collect();
        for a in ["--kubeconfig", kubeconfig.to_str().unwrap(), "--cluster-name", name, "--agent-mode", "local"] {
            args.push(a.into());
        }
        args.extend(["--agent-dir".into(), agent.to_str().unwrap().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = self.karmadactl(&args);
        assert_eq!(run.code, 0, "register {name}:\n{}\n{}", run.stdout, run.stderr);
    }

    pub fn karmadactl(&self, args: &[&str]) -> Run {
        let mut cmd = super::karmadactl(self.home.path());
        cmd.env("KUBECONFIG", &self.kubeconfig).args(args);
        super::run(cmd)
    }

    /// kubectl in `context` (`karmada-apiserver` is the plane).
    pub fn k(&self, context: &str, args: &[&str]) -> Run {
        super::run(self.k_command(context, args))
    }

    /// The kubectl command [`Fleet::k`] runs, to spawn (a watch, say).
    pub fn k_command(&self, context: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.kubectl);
        // Pull members have kubeconfigs of their own; KUBECONFIG merges them with the fleet's.
        let mut files = vec![self.kubeconfig.clone()];
        files.extend(self.pull.lock().unwrap().iter().map(|(_, k, _)| k.clone()));
        files.extend(self.members.iter().map(|(_, k, _)| k.clone()));
        cmd.env("KUBECONFIG", std::env::join_paths(files).unwrap()).arg("--cache-dir").arg(self.cache.path());
        cmd.args(["--context", context]).args(args);
        cmd
    }

    pub fn k_ok(&self, context: &str, args: &[&str]) -> String {
        let run = self.k(context, args);
        assert_eq!(run.code, 0, "kubectl --context {context} {args:?}:\n{}\n{}", run.stdout, run.stderr);
        run.stdout
    }

    /// A kubeconfig (JSON) whose only context reaches `member` through the plane's cluster
    /// proxy, with the plane's credentials: what upstream's member-scope commands talk to.
    pub fn proxy_kubeconfig(&self, member: &str) -> PathBuf {
        let raw = self.plane(&["config", "view", "--raw", "--minify", "-o", "json"]);
        let mut config: Value = serde_json::from_str(&raw).expect("kubectl prints the kubeconfig as JSON");
        let server = config["clusters"][0]["cluster"]["server"].as_str().expect("a server").to_string();
        config["clusters"][0]["cluster"]["server"] =
            format!("{}/apis/cluster.karmada.io/v1alpha1/clusters/{member}/proxy", server.trim_end_matches('/')).into();
        let file = self.home.path().join(format!("proxy-{member}-{}.kubeconfig", next_file()));
        std::fs::write(&file, serde_json::to_vec(&config).unwrap()).unwrap();
        file
    }

    /// kubectl with the given kubeconfig only (and the fleet's fresh cache directory).
    pub fn k_with(&self, kubeconfig: &std::path::Path, args: &[&str]) -> Run {
        super::run(self.k_with_command(kubeconfig, args))
    }

    /// The kubectl command [`Fleet::k_with`] runs, to give it stdin.
    pub fn k_with_command(&self, kubeconfig: &std::path::Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.kubectl);
        cmd.env("KUBECONFIG", kubeconfig).arg("--cache-dir").arg(self.cache.path()).args(args);
        cmd
    }

    /// Starts `kubectl get <args> --watch -o json --output-watch-events` in `context`: every
    /// version of the objects from now on is kept, so a test can tell what happened between
    /// two of its polls.
    pub fn watch(&self, context: &str, args: &[&str]) -> Watch {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--watch", "-o", "json", "--output-watch-events"]);
        Watch::start(self.k_command(context, &all))
    }

    pub fn plane(&self, args: &[&str]) -> String {
        self.k_ok("karmada-apiserver", args)
    }

    pub fn apply(&self, manifest: &str) {
        let file = self.home.path().join(format!("manifest-{}.yaml", next_file()));
        std::fs::write(&file, manifest).unwrap();
        self.plane(&["apply", "-f", file.to_str().unwrap()]);
    }

    /// An object as JSON, `None` when it does not exist.
    pub fn get(&self, context: &str, args: &[&str]) -> Option<Value> {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", "json", "--ignore-not-found"]);
        let out = self.k_ok(context, &all);
        (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
    }

    /// Names of the items of a list.
    pub fn names(&self, context: &str, args: &[&str]) -> Vec<String> {
        // kubectl prints nothing for an empty list with --ignore-not-found.
        let list = self.get(context, args).unwrap_or_default();
        let mut names: Vec<String> = list["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    }

    /// `spec.replicas` of a Deployment in a member, `None` when it is not there.
    pub fn replicas(&self, member: &str, name: &str) -> Option<i64> {
        self.get(member, &["deployment", name, "-n", "default"]).map(|d| d["spec"]["replicas"].as_i64().unwrap_or(1))
    }

    /// Polls `check` until it gives a value; fails with `what` and the last observation.
    pub fn wait<T>(&self, what: &str, mut check: impl FnMut() -> Result<T, String>) -> T {
        let start = Instant::now();
        loop {
            match check() {
                Ok(v) => return v,
                Err(last) if start.elapsed() > CONVERGE => panic!("{what}: not reached; last seen: {last}"),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Waits until each member holds the Deployment with the given replicas (`None`: absent).
    pub fn wait_replicas(&self, name: &str, want: &[(&str, Option<i64>)]) {
        self.wait(&format!("deployment {name} spread as {want:?}"), || {
            let seen: Vec<(&str, Option<i64>)> = want.iter().map(|(m, _)| (*m, self.replicas(m, name))).collect();
            if seen == want { Ok(()) } else { Err(format!("{seen:?}")) }
        });
    }
}

/// A Deployment in `default` for the fleet tests to propagate (`labels`: more `, key: value`
/// pairs after `app: <name>`).
pub fn deployment(name: &str, replicas: i64, labels: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  namespace: default
  labels: {{app: {name}{labels}}}
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      containers:
      - name: {name}
        image: nginx
"
    )
}

/// A PropagationPolicy in `default` for the Deployment `target`; `placement` is indented under
/// `placement:` and may end with more `spec` fields indented by two.
pub fn policy(name: &str, target: &str, placement: &str) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: {name}
  namespace: default
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: {target}
  placement:
{placement}"
    )
}

fn next_file() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for (name, _, agent) in self.pull.lock().unwrap().iter() {
            if let Ok(pid) = std::fs::read_to_string(agent.join("agent.pid")) {
                let _ = Command::new("kill").arg(pid.trim()).status();
            }
            let data = self.home.path().join(format!("pull-{name}"));
            let _ = self.karmadactl(&["local", "member", "stop", name, "--data-dir", data.to_str().unwrap()]);
        }
        for (name, _, data) in &self.members {
            let _ = self.karmadactl(&["local", "member", "stop", name, "--data-dir", data.to_str().unwrap()]);
        }
        if self.plane.is_none() {
            let _ = self.karmadactl(&["local", "down", "--force", "--data-dir", self.dir.to_str().unwrap()]);
        }
    }
}

/// A running `kubectl get --watch` and the events it printed so far; stopped when dropped.
pub struct Watch {
    child: std::process::Child,
    events: std::sync::Arc<std::sync::Mutex<Vec<Value>>>,
}

impl Watch {
    fn start(mut cmd: Command) -> Watch {
        use std::process::Stdio;
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("kubectl get --watch");
        let stdout = child.stdout.take().unwrap();
        let events = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = events.clone();
        std::thread::spawn(move || {
            // kubectl prints one JSON document per event, one after another.
            for event in serde_json::Deserializer::from_reader(stdout).into_iter::<Value>() {
                match event {
                    Ok(e) => sink.lock().unwrap().push(e),
                    Err(_) => break,
                }
            }
        });
        Watch { child, events }
    }

    /// The events so far: `{"type": …, "object": …}`.
    pub fn events(&self) -> Vec<Value> {
        self.events.lock().unwrap().clone()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An object's `metadata.resourceVersion` as a number: the plane's store counts one revision
/// for all objects, as etcd does, so revisions order changes across objects.
pub fn revision(object: &Value) -> u64 {
    object["metadata"]["resourceVersion"].as_str().and_then(|v| v.parse().ok()).expect("a numeric resourceVersion")
}

impl Fleet {
    /// A kube client of the plane with the fleet's admin credentials.
    pub async fn plane_client(&self) -> kube::Client {
        let kubeconfig = kube::config::Kubeconfig::read_from(&self.kubeconfig).unwrap();
        let options =
            kube::config::KubeConfigOptions { context: Some("karmada-apiserver".into()), ..Default::default() };
        let config = kube::Config::from_custom_kubeconfig(kubeconfig, &options).await.unwrap();
        kube::Client::try_from(config).unwrap()
    }

    /// A JSON POST to the plane with the fleet's credentials: the status code and body it answers.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let client = self.plane_client().await;
            let body = serde_json::to_vec(body).unwrap();
            super::raw_api::send(&client, http::Method::POST, path, "application/json", body).await
        })
    }
}

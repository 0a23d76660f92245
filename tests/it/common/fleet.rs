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
    /// The plane and members of [`Fleet::with_plane_flags`], stopped when dropped.
    servers: Vec<super::plane::Plane>,
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
            servers: vec![],
        }
    }

    /// A fleet whose plane runs with extra `controlplane serve` flags (feature gates, say),
    /// which `local up` does not pass: the plane and `members` simulated members
    /// (`--profile kubernetes --simulate-workloads`) are servers of their own, joined in Push
    /// mode, with one kubeconfig holding a context per cluster as `local up` writes it.
    pub fn with_plane_flags(members: usize, flags: &[&str]) -> Fleet {
        use super::plane::Plane;
        let home = tempfile::tempdir().expect("temp dir");
        let plane = Plane::start_with(flags);
        let mut servers = vec![];
        let mut kubeconfigs = vec![plane.kubeconfig.clone()];
        for i in 1..=members {
            let name = format!("member{i}");
            let member =
                Plane::start_with(&["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", &name]);
            let mut cmd = super::karmadactl(home.path());
            cmd.args(["join", &name, "--kubeconfig"])
                .arg(&plane.kubeconfig)
                .arg("--cluster-kubeconfig")
                .arg(&member.kubeconfig);
            let run = super::run(cmd);
            assert_eq!(run.code, 0, "join {name}:\n{}\n{}", run.stdout, run.stderr);
            kubeconfigs.push(member.kubeconfig.clone());
            servers.push(member);
        }
        servers.push(plane);
        let kubectl = super::kubectl_binary("1.33");
        let cache = tempfile::tempdir().unwrap();
        let merged = std::process::Command::new(&kubectl)
            .env("KUBECONFIG", std::env::join_paths(&kubeconfigs).unwrap())
            .args(["config", "view", "--flatten", "--raw"])
            .output()
            .expect("kubectl runs");
        assert!(merged.status.success(), "kubectl config view: {}", String::from_utf8_lossy(&merged.stderr));
        let kubeconfig = home.path().join("kubeconfig");
        std::fs::write(&kubeconfig, &merged.stdout).unwrap();
        let dir = home.path().join("no-playground");
        let fleet = Fleet { home, dir, kubeconfig, kubectl, cache, pull: Default::default(), servers };
        for i in 1..=members {
            let name = format!("member{i}");
            // Ready, untainted and with its capacity reported, so placements see every member.
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
        let mut cmd = Command::new(&self.kubectl);
        cmd.env("KUBECONFIG", kubeconfig).arg("--cache-dir").arg(self.cache.path()).args(args);
        super::run(cmd)
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
        // The servers of `with_plane_flags` stop as they are dropped; there is no playground.
        if self.servers.is_empty() {
            let _ = self.karmadactl(&["local", "down", "--force", "--data-dir", self.dir.to_str().unwrap()]);
        }
    }
}

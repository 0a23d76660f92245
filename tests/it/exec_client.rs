//! `karmadactl exec` and `attach` with `-s members --cluster member1` against kubectl 1.33's
//! through the plane's cluster proxy for the same member: the same stdout, stderr and exit code
//! for the simulated commands, piped stdin, a mounted ConfigMap, the remote exit code,
//! workloads, the default-container note, every refusal, and sessions under a pseudo-terminal;
//! for attach, the simulated main process (stdin echoed, log lines streamed) and kubectl's
//! terminal rules.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

const MEMBER: &str = "member1";

/// A ConfigMap, a pod that mounts it, a pod of two containers, a Deployment, and pods started
/// with stdin (one with a terminal) and without.
const WORKLOADS: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg", "namespace": "default"},
   "data": {"key": "hello from the config map\n"}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "box", "namespace": "default"},
   "spec": {"containers": [{"name": "c", "image": "busybox",
                            "volumeMounts": [{"name": "config", "mountPath": "/etc/config"}]}],
            "volumes": [{"name": "config", "configMap": {"name": "cfg"}}]}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "two", "namespace": "default"},
   "spec": {"containers": [{"name": "a", "image": "busybox"}, {"name": "b", "image": "busybox"}]}},
  {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
   "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "talk", "namespace": "default"},
   "spec": {"containers": [{"name": "c", "image": "busybox", "stdin": true, "stdinOnce": true}]}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "term", "namespace": "default"},
   "spec": {"containers": [{"name": "c", "image": "busybox", "stdin": true, "stdinOnce": true, "tty": true}]}}
]}"#;

/// Pods the workloads make.
const PODS: usize = 5;

/// Runs `cmd` with `stdin` piped (closed at once when `None`).
pub fn piped(mut cmd: Command, stdin: Option<&str>) -> Run {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the command runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    if let Some(input) = stdin {
        pipe.write_all(input.as_bytes()).expect("the command reads stdin");
    }
    drop(pipe);
    let out = child.wait_with_output().expect("the command ends");
    Run {
        code: out.status.code().expect("exited normally"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
    }
}

pub(crate) struct Twins {
    pub fleet: Fleet,
    pub proxy: PathBuf,
}

impl Twins {
    pub fn up() -> Twins {
        Twins::with(Fleet::up(1))
    }

    fn with(fleet: Fleet) -> Twins {
        let file = fleet.home.path().join("workloads.json");
        std::fs::write(&file, WORKLOADS).unwrap();
        fleet.k_ok(MEMBER, &["create", "-f", file.to_str().unwrap()]);
        fleet.wait("every pod running", || {
            let run = fleet.k(MEMBER, &["get", "pods", "-o", "json"]);
            let list: Value = serde_json::from_str(&run.stdout).map_err(|e| format!("{e}: {}", run.stderr))?;
            let phases: Vec<&str> =
                list["items"].as_array().into_iter().flatten().filter_map(|p| p["status"]["phase"].as_str()).collect();
            match phases.len() == PODS && phases.iter().all(|p| *p == "Running") {
                true => Ok(()),
                false => Err(format!("{phases:?}")),
            }
        });
        let proxy = fleet.proxy_kubeconfig(MEMBER);
        Twins { fleet, proxy }
    }

    /// karmadactl's `exec ARGS` for the member.
    fn ours(&self, args: &[&str]) -> Command {
        self.ours_of("exec", args)
    }

    /// karmadactl's `COMMAND ARGS` for the member.
    pub fn ours_of(&self, command: &str, args: &[&str]) -> Command {
        let mut cmd = crate::common::karmadactl(self.fleet.home.path());
        cmd.env("KUBECONFIG", &self.fleet.kubeconfig).args([command, "-s", "members", "--cluster", MEMBER]).args(args);
        cmd
    }

    /// Runs `exec ARGS` with both tools and checks they agree; returns karmadactl's run.
    fn same(&self, args: &[&str], stdin: Option<&str>) -> Run {
        self.same_of("exec", args, stdin, |s| s.to_string())
    }

    /// Runs `COMMAND ARGS` with both tools and checks they agree on the exit code, stderr, and
    /// stdout as `shown` keeps it; returns karmadactl's run with its stdout as kept.
    fn same_of(&self, command: &str, args: &[&str], stdin: Option<&str>, shown: fn(&str) -> String) -> Run {
        let mut full = vec![command];
        full.extend(args);
        let theirs = piped(self.fleet.k_with_command(&self.proxy, &full), stdin);
        let mut ours = piped(self.ours_of(command, args), stdin);
        let stderr = theirs.stderr.replace(&format!("'kubectl {command}"), &format!("'karmadactl {command}"));
        ours.stdout = shown(&ours.stdout);
        assert_eq!(
            (ours.code, &ours.stdout, &ours.stderr),
            (theirs.code, &shown(&theirs.stdout), &stderr),
            "{command} {args:?}"
        );
        ours
    }

    fn spec(&self, kind: &str, name: &str) -> Value {
        let object: Value = serde_json::from_str(&self.fleet.k_ok(MEMBER, &["get", kind, name, "-o", "json"])).unwrap();
        object["spec"].clone()
    }
}

fn expect(run: &Run, code: i32, stdout: &str, stderr: &str) {
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (code, stdout, stderr));
}

#[test]
fn exec_prints_what_kubectl_prints_through_the_cluster_proxy() {
    let twins = Twins::up();
    let before = (twins.spec("pod", "box"), twins.spec("pod", "two"), twins.spec("deploy", "web"));

    expect(&twins.same(&["box", "--", "echo", "hi"], None), 0, "hi\n", "");
    expect(&twins.same(&["box", "--", "cat", "/etc/config/key"], None), 0, "hello from the config map\n", "");
    expect(&twins.same(&["-i", "box", "--", "cat"], Some("line one\nline two\n")), 0, "line one\nline two\n", "");
    // Without -i, stdin is not passed on: cat has nothing to read.
    expect(&twins.same(&["box", "--", "cat"], Some("ignored\n")), 0, "", "");
    expect(&twins.same(&["box", "--", "sh", "-c", "exit 3"], None), 3, "", "command terminated with exit code 3\n");
    expect(
        &twins.same(&["box", "--", "cat", "/nope"], None),
        1,
        "",
        "cat: /nope: No such file or directory\ncommand terminated with exit code 1\n",
    );
    expect(
        &twins.same(&["box", "--", "ls"], None),
        1,
        "",
        "error: Internal error occurred: error executing command in container: OCI runtime exec failed: exec failed: \
         unable to start container process: exec: \"ls\": executable file not found in $PATH: unknown\n",
    );

    // The default container, with kubectl's note unless quiet; a named one.
    expect(&twins.same(&["two", "--", "echo", "x"], None), 0, "x\n", "Defaulted container \"a\" out of: a, b\n");
    expect(&twins.same(&["-q", "two", "--", "echo", "x"], None), 0, "x\n", "");
    expect(&twins.same(&["two", "-c", "b", "--", "echo", "x"], None), 0, "x\n", "");
    // A workload's pod (its generated name is the simulated hostname; both pick the same pod).
    let web = twins.same(&["deploy/web", "--", "hostname"], None);
    assert_eq!(web.code, 0, "{}", web.stderr);
    assert!(web.stdout.starts_with("web-"), "{}", web.stdout);
    // A pod from a file is used as written (kubectl's builder does not read it again).
    let file = twins.fleet.home.path().join("box.json");
    std::fs::write(&file, r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "box"}}"#).unwrap();
    expect(
        &twins.same(&["-f", file.to_str().unwrap(), "--", "hostname"], None),
        1,
        "",
        "error: pod default/box does not have any containers\n",
    );
    let file = twins.fleet.home.path().join("box-full.json");
    std::fs::write(
        &file,
        r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "box"}, "spec": {"containers": [{"name": "c"}]}}"#,
    )
    .unwrap();
    expect(&twins.same(&["-f", file.to_str().unwrap(), "--", "hostname"], None), 0, "box\n", "");
    // -t with stdin that is no terminal: kubectl's note, then the session without one.
    expect(
        &twins.same(&["-i", "-t", "box", "--", "cat"], Some("piped\n")),
        0,
        "piped\n",
        "Unable to use a TTY - input is not a terminal or the right kind of file\n",
    );

    // Refusals.
    expect(
        &twins.same(&["ghost", "--", "true"], None),
        1,
        "",
        "Error from server (NotFound): pods \"ghost\" not found\n",
    );
    expect(
        &twins.same(&["box", "-c", "nope", "--", "true"], None),
        1,
        "",
        "Error from server (BadRequest): container nope is not valid for pod box\n",
    );
    expect(&twins.same(&["box"], None), 1, "", "error: you must specify at least one command for the container\n");
    expect(
        &twins.same(&["box", "echo"], None),
        1,
        "",
        "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'karmadactl exec -h' for help and examples\n",
    );
    expect(&twins.same(&["--", "echo"], None), 1, "", "error: pod, type/name or --filename must be specified\n");
    let cm = twins.same(&["configmap/cfg", "--", "true"], None);
    assert_eq!(cm.code, 1);
    assert_eq!(cm.stderr, "error: cannot attach to *v1.ConfigMap: selector for *v1.ConfigMap not implemented\n");

    // Nothing changed.
    assert_eq!((twins.spec("pod", "box"), twins.spec("pod", "two"), twins.spec("deploy", "web")), before);
}

#[test]
fn exec_member_scope_needs_a_known_cluster() {
    let twins = Twins::up();
    let mut cmd = crate::common::karmadactl(twins.fleet.home.path());
    cmd.env("KUBECONFIG", &twins.fleet.kubeconfig).args(["exec", "-s", "members", "box", "--", "true"]);
    let run = crate::common::run(cmd);
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert!(run.stderr.starts_with("error: must specify a member cluster\n"), "{}", run.stderr);
    let mut cmd = crate::common::karmadactl(twins.fleet.home.path());
    cmd.env("KUBECONFIG", &twins.fleet.kubeconfig).args([
        "exec",
        "-s",
        "members",
        "--cluster",
        "nowhere",
        "box",
        "--",
        "true",
    ]);
    let run = crate::common::run(cmd);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (1, "", "error: clusters.cluster.karmada.io \"nowhere\" not found\n")
    );
}

/// Runs `command` under a pseudo-terminal (util-linux `script`), returning what the terminal
/// showed and the exit code.
pub(crate) fn under_terminal(command: &Command, dir: &Path) -> Run {
    under_terminal_typing(command, dir, "")
}

/// [`under_terminal`], with `typed` written to the terminal.
pub(crate) fn under_terminal_typing(command: &Command, dir: &Path, typed: &str) -> Run {
    let mut line = String::new();
    for (k, v) in command.get_envs() {
        if let Some(v) = v {
            line.push_str(&format!("{}={} ", k.to_string_lossy(), shell_quote(&v.to_string_lossy())));
        }
    }
    line.push_str(&shell_quote(&command.get_program().to_string_lossy()));
    for a in command.get_args() {
        line.push(' ');
        line.push_str(&shell_quote(&a.to_string_lossy()));
    }
    let mut script = Command::new("script");
    script.current_dir(dir).args(["-qec", &line, "/dev/null"]);
    piped(script, (!typed.is_empty()).then_some(typed))
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn exec_under_a_terminal_matches_kubectl() {
    let twins = Twins::up();
    let dir = twins.fleet.home.path();
    for args in [&["-it", "box", "--", "echo", "hi"][..], &["-it", "box", "--", "sh", "-c", "exit 3"][..]] {
        let mut theirs = twins.fleet.k_with_command(&twins.proxy, &["exec"]);
        theirs.args(args);
        let theirs = under_terminal(&theirs, dir);
        let ours = under_terminal(&twins.ours(args), dir);
        assert_eq!((ours.code, &ours.stdout), (theirs.code, &theirs.stdout), "exec {args:?}");
        assert_eq!(ours.stderr, "");
    }
    let mut echo = twins.ours(&["-it", "box", "--", "echo", "hi"]);
    echo.env("TERM", "dumb");
    let run = under_terminal(&echo, dir);
    // The terminal translated the newline, as a remote terminal does.
    assert_eq!((run.code, run.stdout.as_str()), (0, "hi\r\n"));
}

/// An attached process's output without the simulated log lines, which arrive by the clock.
pub(crate) fn without_log_lines(stdout: &str) -> String {
    stdout.split_inclusive('\n').filter(|l| !l.starts_with("simulated member member1: line ")).collect()
}

pub(crate) const PROMPT: &str = "If you don't see a command prompt, try pressing enter.\n";

#[test]
fn attach_prints_what_kubectl_prints_through_the_cluster_proxy() {
    let twins = Twins::up();
    let before = (twins.spec("pod", "talk"), twins.spec("pod", "term"), twins.spec("pod", "box"));
    let attach = |args: &[&str], stdin: Option<&str>| twins.same_of("attach", args, stdin, without_log_lines);

    // A process started with stdin echoes it, and ends when it closes (stdinOnce).
    expect(&attach(&["-i", "talk"], Some("hello\nthere\n")), 0, "hello\nthere\n", PROMPT);
    expect(&attach(&["-q", "-i", "talk"], Some("quiet\n")), 0, "quiet\n", "");
    expect(&attach(&["-i", "pod", "talk"], Some("typed\n")), 0, "typed\n", PROMPT);
    // -t for a container started without a terminal: kubectl's note, and no terminal.
    expect(
        &attach(&["-i", "-t", "talk"], Some("x\n")),
        0,
        "x\n",
        &format!("error: Unable to use a TTY - container c did not allocate one\n{PROMPT}"),
    );
    // A container started with a terminal forces one, which piped stdin cannot be.
    expect(
        &attach(&["-i", "term"], Some("y\n")),
        0,
        "y\n",
        &format!("Unable to use a TTY - input is not a terminal or the right kind of file\n{PROMPT}"),
    );

    // Refusals.
    expect(&attach(&["ghost"], None), 1, "", "Error from server (NotFound): pods \"ghost\" not found\n");
    expect(
        &attach(&["talk", "-c", "nope"], None),
        1,
        "",
        "error: cannot attach to the container: container nope not found in pod talk\n",
    );
    expect(&attach(&[], None), 1, "", "error: at least 1 argument is required for attach\n");
    expect(
        &attach(&["a", "b", "c"], None),
        1,
        "",
        "error: expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw 3: [a b c]\n",
    );
    expect(
        &attach(&["talk", "--pod-running-timeout", "0s"], None),
        1,
        "",
        "error: --pod-running-timeout must be higher than zero\nSee 'karmadactl attach -h' for help and examples\n",
    );

    assert_eq!((twins.spec("pod", "talk"), twins.spec("pod", "term"), twins.spec("pod", "box")), before);
}

#[test]
fn attach_streams_the_log_lines_of_a_process_without_stdin() {
    // The plane holds an upgraded connection for two seconds at most (twice its minimum
    // request timeout), so an attach to a process that never ends is cut by the proxy.
    let twins = Twins::with(Fleet::up_with(1, &["--min-request-timeout", "1"], &[]));
    for tool in ["kubectl", "karmadactl"] {
        let run = match tool {
            "kubectl" => piped(twins.fleet.k_with_command(&twins.proxy, &["attach", "-i", "box"]), Some("ignored\n")),
            _ => piped(twins.ours_of("attach", &["-i", "box"]), Some("ignored\n")),
        };
        assert_ne!(run.code, 0, "{tool}: the proxy ended the session");
        assert!(run.stderr.starts_with(PROMPT), "{tool}: {}", run.stderr);
        // Only the container's new log lines, consecutive; stdin was not echoed.
        let numbers: Vec<i64> = run
            .stdout
            .lines()
            .map(|l| {
                let rest = l.strip_prefix("simulated member member1: line ").unwrap_or_else(|| panic!("{tool}: {l:?}"));
                let (n, tail) = rest.split_once(' ').unwrap();
                assert_eq!(tail, "of container c in pod default/box (nothing runs here)", "{tool}");
                n.parse().unwrap()
            })
            .collect();
        assert!(!numbers.is_empty(), "{tool}: {}", run.stderr);
        assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{tool}: {numbers:?}");
    }
}

#[test]
fn attach_under_a_terminal_matches_kubectl() {
    let twins = Twins::up();
    let dir = twins.fleet.home.path();
    // What is typed reaches the attached process, and Ctrl-D ends it (stdinOnce); whether the
    // local terminal or the remote one echoes the line depends on when raw mode begins, so the
    // line is looked for rather than the screen compared byte for byte.
    for tool in ["kubectl", "karmadactl"] {
        let mut cmd = match tool {
            "kubectl" => twins.fleet.k_with_command(&twins.proxy, &["attach", "-q", "-it", "term"]),
            _ => twins.ours_of("attach", &["-q", "-it", "term"]),
        };
        cmd.env("TERM", "dumb");
        let run = under_terminal_typing(&cmd, dir, "typed\n\u{4}");
        assert_eq!(run.code, 0, "{tool}: {}", run.stdout);
        assert!(without_log_lines(&run.stdout.replace('\r', "")).contains("typed\n"), "{tool}: {:?}", run.stdout);
    }
}

/// A kubeconfig for `member` that authenticates with `token` only (no client certificate).
pub(crate) fn token_kubeconfig(fleet: &Fleet, member: &str, token: &str) -> PathBuf {
    let raw = fleet.k_ok(member, &["config", "view", "--raw", "--minify", "-o", "json"]);
    let mut config: Value = serde_json::from_str(&raw).unwrap();
    config["users"][0]["user"] = serde_json::json!({ "token": token });
    let file = fleet.home.path().join("token.kubeconfig");
    std::fs::write(&file, serde_json::to_vec(&config).unwrap()).unwrap();
    file
}

#[test]
fn attach_needs_create_on_pods_attach_as_kube_apiserver_requires() {
    let twins = Twins::up();
    let fleet = &twins.fleet;
    // May read pods and GET pods/attach (what the WebSocket upgrade is), but not create it.
    let rbac = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "viewer", "namespace": "default"}},
      {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "peek", "namespace": "default"},
       "rules": [{"apiGroups": [""], "resources": ["pods", "pods/attach"], "verbs": ["get", "list"]}]},
      {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "peek", "namespace": "default"},
       "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "peek"},
       "subjects": [{"kind": "ServiceAccount", "name": "viewer", "namespace": "default"}]}
    ]}"#;
    let file = fleet.home.path().join("rbac.json");
    std::fs::write(&file, rbac).unwrap();
    fleet.k_ok(MEMBER, &["create", "-f", file.to_str().unwrap()]);
    let token = fleet.k_ok(MEMBER, &["create", "token", "viewer", "-n", "default"]);
    let viewer = token_kubeconfig(fleet, MEMBER, token.trim());
    let before = twins.spec("pod", "talk");
    let refused = piped(fleet.k_with_command(&viewer, &["attach", "-q", "-i", "talk"]), Some("never echoed\n"));
    assert_eq!(
        (refused.code, refused.stdout.as_str(), refused.stderr.as_str()),
        (
            1,
            "",
            "Error from server (Forbidden): pods \"talk\" is forbidden: User \"system:serviceaccount:default:viewer\" \
             cannot create resource \"pods/attach\" in API group \"\" in the namespace \"default\"\n"
        )
    );
    assert_eq!(twins.spec("pod", "talk"), before);
}

//! `pods/exec` on a simulated member, driven by kubectl 1.33 over WebSocket, both straight to
//! the member and through the plane's cluster proxy (which must pass the upgrade on, and bound
//! it, SPDY sessions too): the built-in commands' output, stdin piped through `cat`, the files
//! of a mounted ConfigMap, the remote exit code becoming kubectl's, and the refusals
//! kube-apiserver gives.

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

const MEMBER: &str = "member1";

/// A ConfigMap and a pod that mounts it.
const WORKLOADS: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg", "namespace": "default"},
   "data": {"key": "hello from the config map\n", "other": "2"}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "box", "namespace": "default"},
   "spec": {"containers": [{"name": "c", "image": "busybox", "env": [{"name": "GREETING", "value": "hi"}],
                            "volumeMounts": [{"name": "config", "mountPath": "/etc/config"}]}],
            "volumes": [{"name": "config", "configMap": {"name": "cfg"}}]}}
]}"#;

/// kubectl `cmd`, with `stdin` piped when given.
fn kubectl(cmd: std::process::Command, stdin: Option<&str>) -> Run {
    crate::exec_client::piped(cmd, stdin)
}

fn up() -> Fleet {
    with_pod(Fleet::up(1))
}

/// Creates the ConfigMap and the pod in the fleet's member and waits for the pod to run.
fn with_pod(fleet: Fleet) -> Fleet {
    let file = fleet.home.path().join("workloads.json");
    std::fs::write(&file, WORKLOADS).unwrap();
    fleet.k_ok(MEMBER, &["create", "-f", file.to_str().unwrap()]);
    fleet.wait("the pod running", || {
        let run = fleet.k(MEMBER, &["get", "pod", "box", "-o", "json"]);
        let pod: Value = serde_json::from_str(&run.stdout).map_err(|e| format!("{e}: {}", run.stderr))?;
        match pod["status"]["phase"].as_str() {
            Some("Running") => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });
    fleet
}

#[test]
fn kubectl_exec_runs_the_simulated_commands_over_websocket() {
    let fleet = up();
    let spec = |kind: &str, name: &str, field: &str| -> Value {
        let object: Value = serde_json::from_str(&fleet.k_ok(MEMBER, &["get", kind, name, "-o", "json"])).unwrap();
        object[field].clone()
    };
    let before = (spec("pod", "box", "spec"), spec("cm", "cfg", "metadata"));
    let proxy = fleet.proxy_kubeconfig(MEMBER);
    // Each exec runs against the member and through the proxy; both must print the same.
    let run = |args: &[&str], stdin: Option<&str>| {
        let mut full = vec!["exec"];
        full.extend(args);
        let direct = kubectl(fleet.k_command(MEMBER, &full), stdin);
        let proxied = kubectl(fleet.k_with_command(&proxy, &full), stdin);
        assert_eq!(
            (proxied.code, &proxied.stdout, &proxied.stderr),
            (direct.code, &direct.stdout, &direct.stderr),
            "through the proxy: {args:?}"
        );
        direct
    };
    let ok = |args: &[&str], stdin: Option<&str>, stdout: &str| {
        let r = run(args, stdin);
        assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, stdout, ""), "{args:?}");
    };
    ok(&["box", "--", "echo", "a", "b"], None, "a b\n");
    ok(&["box", "--", "hostname"], None, "box\n");
    ok(&["box", "--", "cat", "/etc/config/key"], None, "hello from the config map\n");
    ok(&["box", "-c", "c", "--", "cat", "/etc/config/other"], None, "2");
    ok(&["-i", "box", "--", "cat"], Some("line one\nline two\n"), "line one\nline two\n");
    ok(&["box", "--", "true"], None, "");
    let env = run(&["box", "--", "env"], None);
    assert_eq!(env.code, 0, "{}", env.stderr);
    assert!(env.stdout.contains("\nHOSTNAME=box\nGREETING=hi\nHOME=/root\n"), "{}", env.stdout);

    // The remote exit code is kubectl's, with its message.
    let exit3 = run(&["box", "--", "sh", "-c", "exit 3"], None);
    assert_eq!(
        (exit3.code, exit3.stdout.as_str(), exit3.stderr.as_str()),
        (3, "", "command terminated with exit code 3\n")
    );
    let false_ = run(&["box", "--", "false"], None);
    assert_eq!((false_.code, false_.stderr.as_str()), (1, "command terminated with exit code 1\n"));
    let missing = run(&["box", "--", "cat", "/etc/config/nope"], None);
    assert_eq!(
        (missing.code, missing.stdout.as_str(), missing.stderr.as_str()),
        (1, "", "cat: /etc/config/nope: No such file or directory\ncommand terminated with exit code 1\n")
    );
    let unknown = run(&["box", "--", "ls"], None);
    assert_eq!(unknown.code, 1, "{}", unknown.stderr);
    assert_eq!(
        unknown.stderr,
        "error: Internal error occurred: error executing command in container: OCI runtime exec failed: exec failed: \
         unable to start container process: exec: \"ls\": executable file not found in $PATH: unknown\n"
    );

    // Refusals from the server.
    let no_container = run(&["box", "-c", "nope", "--", "true"], None);
    assert_eq!(
        (no_container.code, no_container.stderr.as_str()),
        (1, "Error from server (BadRequest): container nope is not valid for pod box\n")
    );
    let no_pod = run(&["ghost", "--", "true"], None);
    assert_eq!((no_pod.code, no_pod.stderr.as_str()), (1, "Error from server (NotFound): pods \"ghost\" not found\n"));

    // A request that does not upgrade, answered as kube-apiserver answers it.
    let plain = fleet.k(MEMBER, &["get", "--raw", "/api/v1/namespaces/default/pods/box/exec?command=true&stdout=true"]);
    assert_eq!(
        (plain.code, plain.stdout.as_str(), plain.stderr.as_str()),
        (1, "", "Error from server (BadRequest): Upgrade request required\n")
    );

    // Nothing changed: the pod's spec and the ConfigMap are as created.
    assert_eq!((spec("pod", "box", "spec"), spec("cm", "cfg", "metadata")), before);
}

#[test]
fn the_proxy_ends_an_upgraded_session_the_member_keeps_open() {
    // The plane's minimum request timeout is one second, so the proxy holds an upgraded
    // connection for two seconds at most; the member's own limit is an hour, and the command runs
    // for twenty seconds.
    let fleet = with_pod(Fleet::up_with(1, &["--min-request-timeout", "1"], &[]));
    let proxy = fleet.proxy_kubeconfig(MEMBER);
    let cut = kubectl(fleet.k_with_command(&proxy, &["exec", "box", "--", "sleep", "20"]), None);
    assert_ne!(cut.code, 0, "the session ended as the proxy closed it, not as the command succeeded");
    assert_eq!(cut.stdout, "");
    assert!(!cut.stderr.contains("command terminated with exit code"), "{}", cut.stderr);
    // A SPDY session (kubectl 1.27's only kind) is held to the same bound. kubectl's SPDY path
    // takes a connection closed under it for the end of the error stream and exits 0; karmadactl
    // over SPDY says the session was cut (docs/differences.md).
    let started = std::time::Instant::now();
    let mut old = std::process::Command::new(crate::common::kubectl_binary("1.27"));
    old.env("KUBECONFIG", &proxy).arg("--cache-dir").arg(fleet.home.path().join("cache-1.27"));
    old.args(["exec", "box", "--", "sleep", "20"]);
    let cut = kubectl(old, None);
    assert!(started.elapsed() < std::time::Duration::from_secs(15), "{:?}", started.elapsed());
    assert_eq!((cut.code, cut.stdout.as_str(), cut.stderr.as_str()), (0, "", ""));
    let started = std::time::Instant::now();
    let mut ours = crate::common::karmadactl(fleet.home.path());
    ours.env("KUBECONFIG", &fleet.kubeconfig).env("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false");
    ours.args(["exec", "-s", "members", "--cluster", MEMBER, "box", "--", "sleep", "20"]);
    let cut = kubectl(ours, None);
    assert!(started.elapsed() < std::time::Duration::from_secs(15), "{:?}", started.elapsed());
    assert_eq!(
        (cut.code, cut.stdout.as_str(), cut.stderr.as_str()),
        (1, "", "error: the connection to the server closed before the remote command ended\n")
    );
    // Straight to the member, the same command is cut by nobody: a short one completes.
    let direct = kubectl(fleet.k_command(MEMBER, &["exec", "box", "--", "sleep", "1"]), None);
    assert_eq!((direct.code, direct.stderr.as_str()), (0, ""));
}

//! `exec` and `attach` over SPDY/3.1: kubectl 1.27 and 1.29 (which speak nothing else), kubectl
//! 1.33 and karmadactl told to skip WebSocket (`KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false`), each
//! against a simulated member straight and through the plane's cluster proxy, must print the
//! same bytes and end with the same exit code as kubectl 1.33 over WebSocket through the proxy:
//! piped sessions, refusals, and sessions under a pseudo-terminal.

use std::process::Command;

use crate::common::Run;
use crate::exec_client::{PROMPT, Twins, piped, under_terminal, under_terminal_typing, without_log_lines};

const MEMBER: &str = "member1";
const SKIP_WEBSOCKET: (&str, &str) = ("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false");

/// Every way of running one session that must agree with kubectl 1.33 over WebSocket.
struct Ways<'a> {
    twins: &'a Twins,
}

impl Ways<'_> {
    /// kubectl `version` with `base`'s environment and arguments, and a cache of its own.
    fn kubectl(&self, version: &str, base: Command) -> Command {
        let mut cmd = Command::new(crate::common::kubectl_binary(version));
        for (k, v) in base.get_envs() {
            if let Some(v) = v {
                cmd.env(k, v);
            }
        }
        let cache = self.twins.fleet.home.path().join(format!("cache-{version}"));
        let mut args = base.get_args();
        while let Some(arg) = args.next() {
            cmd.arg(arg);
            if arg == "--cache-dir" {
                args.next();
                cmd.arg(&cache);
            }
        }
        cmd
    }

    /// The reference: kubectl 1.33 through the proxy (WebSocket).
    fn reference(&self, args: &[&str]) -> Command {
        self.twins.fleet.k_with_command(&self.twins.proxy, args)
    }

    /// The SPDY sessions, named.
    fn spdy(&self, args: &[&str]) -> Vec<(&'static str, Command)> {
        let fleet = &self.twins.fleet;
        let mut skipping = self.reference(args);
        skipping.env(SKIP_WEBSOCKET.0, SKIP_WEBSOCKET.1);
        let mut ours = self.twins.ours_of(args[0], &args[1..]);
        ours.env(SKIP_WEBSOCKET.0, SKIP_WEBSOCKET.1);
        vec![
            ("kubectl 1.27 straight to the member", self.kubectl("1.27", fleet.k_command(MEMBER, args))),
            ("kubectl 1.27 through the proxy", self.kubectl("1.27", self.reference(args))),
            ("kubectl 1.29 straight to the member", self.kubectl("1.29", fleet.k_command(MEMBER, args))),
            ("kubectl 1.29 through the proxy", self.kubectl("1.29", self.reference(args))),
            ("kubectl 1.33 without WebSocket", skipping),
            ("karmadactl without WebSocket", ours),
        ]
    }

    /// Runs `args` every way with `stdin` piped; all agree with the reference, whose run
    /// (stdout as `shown` keeps it) is returned.
    fn same(&self, args: &[&str], stdin: Option<&str>, shown: fn(&str) -> String) -> Run {
        let mut reference = piped(self.reference(args), stdin);
        reference.stdout = shown(&reference.stdout);
        for (way, cmd) in self.spdy(args) {
            let run = piped(cmd, stdin);
            assert_eq!(
                (run.code, shown(&run.stdout), &run.stderr),
                (reference.code, reference.stdout.clone(), &reference.stderr),
                "{way}: {args:?}"
            );
        }
        reference
    }
}

fn expect(run: &Run, code: i32, stdout: &str, stderr: &str) {
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (code, stdout, stderr));
}

#[test]
fn exec_and_attach_over_spdy_match_kubectl_over_websocket() {
    let twins = Twins::up();
    let ways = Ways { twins: &twins };
    let exec = |args: &[&str], stdin: Option<&str>| {
        let mut full = vec!["exec"];
        full.extend(args);
        ways.same(&full, stdin, |s| s.to_string())
    };
    expect(&exec(&["box", "--", "echo", "a", "b"], None), 0, "a b\n", "");
    expect(&exec(&["box", "--", "cat", "/etc/config/key"], None), 0, "hello from the config map\n", "");
    expect(&exec(&["-i", "box", "--", "cat"], Some("line one\nline two\n")), 0, "line one\nline two\n", "");
    expect(&exec(&["box", "--", "sh", "-c", "exit 3"], None), 3, "", "command terminated with exit code 3\n");
    expect(
        &exec(&["box", "--", "cat", "/etc/config/nope"], None),
        1,
        "",
        "cat: /etc/config/nope: No such file or directory\ncommand terminated with exit code 1\n",
    );
    let unknown = exec(&["box", "--", "ls"], None);
    assert!(
        unknown.stderr.starts_with("error: Internal error occurred: error executing command"),
        "{}",
        unknown.stderr
    );
    expect(
        &exec(&["box", "-c", "nope", "--", "true"], None),
        1,
        "",
        "Error from server (BadRequest): container nope is not valid for pod box\n",
    );
    expect(&exec(&["ghost", "--", "true"], None), 1, "", "Error from server (NotFound): pods \"ghost\" not found\n");

    let attach = |args: &[&str], stdin: Option<&str>| {
        let mut full = vec!["attach"];
        full.extend(args);
        ways.same(&full, stdin, without_log_lines)
    };
    expect(&attach(&["-i", "talk"], Some("hello\nthere\n")), 0, "hello\nthere\n", PROMPT);
    expect(&attach(&["-q", "-i", "talk"], Some("quiet\n")), 0, "quiet\n", "");
}

#[test]
fn exec_and_attach_over_spdy_under_a_terminal_match_kubectl() {
    let twins = Twins::up();
    let ways = Ways { twins: &twins };
    let dir = twins.fleet.home.path();
    for args in
        [&["exec", "-it", "box", "--", "echo", "hi"][..], &["exec", "-it", "box", "--", "sh", "-c", "exit 3"][..]]
    {
        let reference = under_terminal(&ways.reference(args), dir);
        for (way, cmd) in ways.spdy(args) {
            let run = under_terminal(&cmd, dir);
            assert_eq!((run.code, &run.stdout), (reference.code, &reference.stdout), "{way}: {args:?}");
        }
    }
    // What is typed reaches the attached process (over the terminal's raw stdin) and Ctrl-D
    // ends it; which terminal echoes the line depends on when raw mode begins, so the line is
    // looked for rather than the screen compared.
    for (way, mut cmd) in ways.spdy(&["attach", "-q", "-it", "term"]) {
        cmd.env("TERM", "dumb");
        let run = under_terminal_typing(&cmd, dir, "typed\n\u{4}");
        assert_eq!(run.code, 0, "{way}: {}", run.stdout);
        assert!(without_log_lines(&run.stdout.replace('\r', "")).contains("typed\n"), "{way}: {:?}", run.stdout);
    }
}

#[test]
fn a_refused_websocket_upgrade_falls_back_to_spdy() {
    let twins = Twins::up();
    let fleet = &twins.fleet;
    // May create pods/exec (a SPDY POST) but not get it (a WebSocket GET): the WebSocket
    // upgrade is refused with 403, and kubectl 1.33 then tries SPDY, which succeeds.
    let rbac = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "poster", "namespace": "default"}},
      {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "post", "namespace": "default"},
       "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]},
                 {"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["create"]}]},
      {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "post", "namespace": "default"},
       "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "post"},
       "subjects": [{"kind": "ServiceAccount", "name": "poster", "namespace": "default"}]}
    ]}"#;
    let file = fleet.home.path().join("rbac.json");
    std::fs::write(&file, rbac).unwrap();
    fleet.k_ok(MEMBER, &["create", "-f", file.to_str().unwrap()]);
    let token = fleet.k_ok(MEMBER, &["create", "token", "poster", "-n", "default"]);
    let poster = crate::exec_client::token_kubeconfig(fleet, MEMBER, token.trim());
    let args = ["exec", "-i", "box", "--", "cat"];
    let theirs = piped(fleet.k_with_command(&poster, &args), Some("through SPDY\n"));
    expect(&theirs, 0, "through SPDY\n", "");
    for skip in [None, Some("false"), Some("FALSE")] {
        let mut ours = crate::common::karmadactl(fleet.home.path());
        ours.arg("--kubeconfig").arg(&poster).args(args);
        if let Some(value) = skip {
            ours.env(SKIP_WEBSOCKET.0, value);
        }
        expect(&piped(ours, Some("through SPDY\n")), 0, "through SPDY\n", "");
    }
}

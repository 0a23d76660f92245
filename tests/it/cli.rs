//! The command surface, driven through the real binary: help for every command, every upstream
//! flag parsing, upstream's argument conventions, error format and exit codes.

use crate::common;
use crate::common::{karmadactl_run, run};

/// Every command path in the tree, e.g. ["token", "create"].
fn command_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands() {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(&karmadactl::cli::command(karmadactl::cli::Flavour::Standalone), &[], &mut out);
    out
}

#[test]
fn help_text_of_every_command_is_stable() {
    let root = karmadactl_run(&["--help"]);
    assert_eq!(root.code, 0);
    insta::assert_snapshot!("help_root", root.stdout);
    for path in command_paths() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = karmadactl_run(&args);
        assert_eq!(out.code, 0, "{args:?} --help failed: {}", out.stderr);
        assert!(out.stdout.contains("Usage: karmadactl "), "{args:?}: {}", out.stdout);
        insta::assert_snapshot!(format!("help_{}", path.join("_")), out.stdout);
    }
}

#[test]
fn the_required_commands_all_exist() {
    let paths: Vec<String> = command_paths().iter().map(|p| p.join(" ")).collect();
    for want in [
        "init",
        "deinit",
        "join",
        "unjoin",
        "register",
        "unregister",
        "token create",
        "token list",
        "token delete",
        "cordon",
        "uncordon",
        "taint",
        "get",
        "promote",
        "version",
        "completion",
    ] {
        assert!(paths.iter().any(|p| p == want), "missing command {want}; have {paths:?}");
    }
}

#[test]
fn no_subcommand_prints_grouped_help_and_succeeds() {
    let out = karmadactl_run(&[]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("karmadactl controls a Kubernetes Cluster Federation.\n"));
    for group in
        ["Basic Commands:", "Cluster Registration Commands:", "Cluster Management Commands:", "Other Commands:"]
    {
        assert!(out.stdout.contains(group), "missing {group} in {}", out.stdout);
    }
}

/// Asserts the invocation parsed and got as far as contacting the server of the test
/// kubeconfig (127.0.0.1:5443 or :6443, where nothing of the test listens), for commands that
/// are built.
fn assert_parses_and_connects(args: &[&str]) {
    let out = common::KubeEnv::new().run(args);
    assert_eq!(out.code, 1, "{args:?} should parse and then fail to reach the cluster; stderr: {}", out.stderr);
    assert!(out.stderr.starts_with("error: "), "{args:?}: {}", out.stderr);
    assert!(out.stderr.contains("https://127.0.0.1:"), "{args:?} did not get to the server: {}", out.stderr);
}

#[test]
fn every_upstream_flag_of_init_parses() {
    let mut args = vec![
        "init",
        "--private-image-registry",
        "reg.local",
        "--image-pull-policy",
        "Always",
        "--image-pull-secrets",
        "a,b",
        "--kube-image-mirror-country",
        "cn",
        "--kube-image-registry",
        "r",
        "--kube-image-tag",
        "v1.33.0",
        "--cert-external-ip",
        "10.0.0.1,10.0.0.2",
        "--cert-external-dns",
        "a.example.com",
        "--cert-validity-period",
        "8760h0m0s",
        "--ca-cert-file",
        "/ca.crt",
        "--ca-key-file",
        "/ca.key",
        "-n",
        "karmada-system",
        "--storage-classes-name",
        "std",
        "--kubeconfig",
        "/k",
        "--context",
        "c",
        "--host-cluster-domain",
        "cluster.local",
        "--etcd-storage-mode",
        "PVC",
        "--etcd-data",
        "/d",
        "--etcd-node-selector-labels",
        "a=b",
        "--etcd-pvc-size",
        "5Gi",
        "--crds",
        "/crds.tar.gz",
        "--config",
        "/cfg.yaml",
        "--karmada-apiserver-advertise-address",
        "10.0.0.1",
        "-p",
        "32443",
        "-d",
        "/tmp/karmada-data",
        "--karmada-pki",
        "/tmp/karmada-pki",
        "--wait-component-ready-timeout",
        "120",
    ];
    let component_flags: Vec<String> = karmadactl::cmd::init::COMPONENTS
        .iter()
        .flat_map(|c| {
            [
                format!("--{}-image=img:1", c.prefix),
                format!("--{}-replicas=1", c.prefix),
                format!("--{}-priority-class=system-node-critical", c.prefix),
                format!("--{}-extra-args=--v=4,--feature-gates=a=true,b=false", c.prefix),
            ]
        })
        .collect();
    args.extend(component_flags.iter().map(String::as_str));
    // Every flag parsed when init gets to reading the --config file, the first thing it does.
    let out = common::KubeEnv::new().run(&args);
    assert_eq!(out.code, 1, "stderr: {}", out.stderr);
    assert!(out.stderr.contains("cannot read the --config file /cfg.yaml"), "{}", out.stderr);
    assert_parses_and_connects(&[
        "init",
        "--external-etcd-servers",
        "https://e:2379",
        "--external-etcd-ca-cert-path",
        "/ca",
        "--external-etcd-client-cert-path",
        "/c",
        "--external-etcd-client-key-path",
        "/k",
        "--external-etcd-key-prefix",
        "/karmada",
    ]);
}

#[test]
fn every_upstream_flag_of_the_other_commands_parses() {
    assert_parses_and_connects(&[
        "deinit",
        "-n",
        "karmada-system",
        "--kubeconfig",
        "/k",
        "--context",
        "c",
        "--dry-run",
        "-f",
        "--purge-namespace",
    ]);
    assert_parses_and_connects(&[
        "join",
        "member1",
        "--cluster-namespace",
        "karmada-cluster",
        "--cluster-context",
        "c",
        "--cluster-kubeconfig",
        "/m",
        "--cluster-provider",
        "aws",
        "--cluster-region",
        "eu",
        "--cluster-zones",
        "a,b",
        "--karmada-as",
        "u",
        "--karmada-as-group",
        "g1",
        "--karmada-as-group",
        "g2",
        "--karmada-as-uid",
        "1",
        "--dry-run",
        "--kubeconfig",
        "/k",
        "--karmada-context",
        "karmada-apiserver",
    ]);
    assert_parses_and_connects(&[
        "unjoin",
        "member1",
        "--cluster-namespace",
        "x",
        "--cluster-context",
        "c",
        "--cluster-kubeconfig",
        "/m",
        "--force",
        "--wait",
        "2m0s",
        "--dry-run",
        "--kubeconfig",
        "/k",
        "--karmada-context",
        "c",
    ]);
    assert_parses_and_connects(&[
        "token",
        "create",
        "--print-register-command",
        "--ttl",
        "0",
        "--usages",
        "signing,authentication",
        "--groups",
        "system:bootstrappers:karmada:default-cluster-token",
        "--description",
        "d",
        "--kubeconfig",
        "/k",
        "--karmada-context",
        "c",
    ]);
    assert_parses_and_connects(&["token", "list", "--kubeconfig", "/k", "--karmada-context", "c"]);
    assert_parses_and_connects(&["token", "delete", "abcdef", "--kubeconfig", "/k"]);
    assert_parses_and_connects(&[
        "register",
        "10.0.0.1:5443",
        "--kubeconfig",
        "/m",
        "--context",
        "c",
        "-n",
        "karmada-system",
        "--cluster-name",
        "member1",
        "--cluster-namespace",
        "karmada-cluster",
        "--cluster-provider",
        "p",
        "--cluster-region",
        "r",
        "--cluster-zones",
        "z1,z2",
        "--enable-cert-rotation",
        "--token",
        "abcdef.0123456789abcdef",
        "--discovery-token-ca-cert-hash",
        "sha256:0000000000000000000000000000000000000000000000000000000000000000",
        "--discovery-timeout",
        "5m0s",
        "--karmada-agent-image",
        "img",
        "--karmada-agent-replicas",
        "2",
        "--cert-expiration-seconds",
        "3600",
        "--dry-run",
        "--proxy-server-address",
        "http://p:8080",
    ]);
    assert_parses_and_connects(&[
        "register",
        "10.0.0.1:5443",
        "--token",
        "abcdef.0123456789abcdef",
        "--discovery-token-unsafe-skip-ca-verification",
    ]);
    assert_parses_and_connects(&[
        "unregister",
        "member1",
        "--cluster-kubeconfig",
        "/m",
        "--cluster-context",
        "c",
        "--karmada-config",
        "/k",
        "--karmada-context",
        "c",
        "-n",
        "karmada-system",
        "--agent-name",
        "karmada-agent",
        "--cluster-namespace",
        "karmada-cluster",
        "--wait",
        "1m0s",
        "--dry-run",
    ]);
    assert_parses_and_connects(&["cordon", "member1", "--dry-run", "--kubeconfig", "/k", "--karmada-context", "c"]);
    assert_parses_and_connects(&["uncordon", "member1", "--dry-run", "--kubeconfig", "/k", "--karmada-context", "c"]);
    assert_parses_and_connects(&[
        "taint",
        "clusters",
        "member1",
        "dedicated=special-user:NoSchedule",
        "bar-",
        "--overwrite",
        "--dry-run",
    ]);
    assert_parses_and_connects(&["taint", "clusters", "-l", "env=prod", "k:NoExecute"]);
    assert_parses_and_connects(&["taint", "clusters", "--selector=a!=b", "k:NoExecute-"]);
    assert_parses_and_connects(&["taint", "clusters", "--all", "k:PreferNoSchedule"]);
    assert_parses_and_connects(&[
        "get",
        "deploy",
        "nginx",
        "-s",
        "all",
        "-C",
        "member1,member2",
        "-l",
        "app=nginx",
        "--ignore-not-found",
        "-n",
        "default",
        "-o",
        "wide",
        "--show-labels",
        "--show-kind",
        "--show-managed-fields",
        "-L",
        "app,tier",
        "--no-headers",
        "--allow-missing-template-keys=false",
        "--kubeconfig",
        "/k",
        "--karmada-context",
        "c",
    ]);
    // Watch events, data formats with --watch, sorting and templates parse but are not built:
    // exit 2 with a sentence, before any request.
    for extra in [
        &["-w", "--output-watch-events"][..],
        &["--watch-only", "-o", "json"],
        &["--sort-by", ".metadata.name"],
        &["--template", "{{.metadata.name}}"],
    ] {
        let mut args = vec!["get", "pods", "-A"];
        args.extend_from_slice(extra);
        let out = common::KubeEnv::new().run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("error: ") && out.stderr.contains("is not built yet"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("https://127.0.0.1:"), "refused before any request: {}", out.stderr);
    }
    // A plain watch parses and goes to the server.
    assert_parses_and_connects(&["get", "pods", "--watch-only"]);
    assert_parses_and_connects(&["top", "pod", "-A", "-C", "m1,m2", "--sort-by", "cpu", "--containers", "--sum"]);
    assert_parses_and_connects(&["top", "no", "--clusters", "m1", "--show-capacity", "--use-protocol-buffers=false"]);
    assert_parses_and_connects(&[
        "promote",
        "deployment",
        "nginx",
        "-n",
        "default",
        "-C",
        "member1",
        "--cluster-kubeconfig",
        "/m",
        "--cluster-context",
        "c",
        "-d",
        "--auto-create-policy=false",
        "--policy-name",
        "p",
        "-o",
        "yaml",
        "--dry-run",
        "--kubeconfig",
        "/k",
        "--karmada-context",
        "c",
    ]);
}

#[test]
fn flags_before_the_subcommand_are_accepted_as_upstream() {
    // The upstream e2e harness puts these before the subcommand name.
    assert_parses_and_connects(&[
        "--kubeconfig=/k",
        "--karmada-context=karmada-apiserver",
        "--namespace=ns",
        "promote",
        "deployment",
        "x",
        "-C",
        "member1",
    ]);
    assert_parses_and_connects(&["--kubeconfig", "/k", "token", "--karmada-context", "c", "list"]);
    let out = karmadactl_run(&["--kubeconfig=/k", "--v=4", "version"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("karmadactl version: version.Info{GitVersion:\"v"));
}

#[test]
fn go_style_boolean_values_are_accepted() {
    assert_parses_and_connects(&["cordon", "member1", "--dry-run=true"]);
    assert_parses_and_connects(&["join", "member1", "--dry-run=false"]);
}

#[test]
fn every_upstream_command_is_there() {
    // Upstream's help groups (spec §1), plus `version` and `options`.
    let upstream = [
        "explain",
        "get",
        "create",
        "delete",
        "edit",
        "init",
        "deinit",
        "addons",
        "join",
        "unjoin",
        "token",
        "register",
        "unregister",
        "cordon",
        "uncordon",
        "taint",
        "attach",
        "logs",
        "exec",
        "describe",
        "interpret",
        "apply",
        "promote",
        "top",
        "patch",
        "label",
        "annotate",
        "completion",
        "api-resources",
        "api-versions",
        "version",
        "options",
    ];
    for name in upstream {
        let out = common::KubeEnv::new().run(&[name, "--help"]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert!(out.stdout.contains(&format!("karmadactl {name}")), "{name}: {}", out.stdout);
    }
    // A typo is an unknown command (exit 1), and so is a nested unknown name.
    let typo = common::KubeEnv::new().run(&["describ"]);
    assert_eq!(typo.code, 1, "{}", typo.stderr);
    assert!(typo.stderr.starts_with("error: unknown command \"describ\" for \"karmadactl\""), "{}", typo.stderr);
    let nested = common::KubeEnv::new().run(&["token", "describe"]);
    assert_eq!(nested.code, 1, "{}", nested.stderr);
}

#[test]
fn bad_invocations_give_a_sentence_and_a_hint_and_exit_1() {
    let cases: &[(&str, &[&str])] = &[
        ("unknown_flag", &["version", "--invalidflag"]),
        ("unknown_command", &["jion", "member1"]),
        ("join_no_name", &["join"]),
        ("join_two_names", &["join", "a", "b"]),
        ("join_invalid_name", &["join", "Member_1"]),
        ("join_long_name", &["join", "a23456789012345678901234567890123456789012345678x"]),
        ("unjoin_zero_wait", &["unjoin", "member1", "--wait", "0s"]),
        ("unjoin_bad_wait", &["unjoin", "member1", "--wait", "soon"]),
        ("unjoin_negative_wait", &["unjoin", "member1", "--wait", "-1m"]),
        ("token_create_negative_ttl", &["token", "create", "--ttl", "-1h"]),
        ("unregister_no_kubeconfig", &["unregister", "member1"]),
        ("unregister_dotted_name", &["unregister", "member.1", "--cluster-kubeconfig", "/m"]),
        ("register_no_token", &["register", "10.0.0.1:5443"]),
        ("register_no_endpoint", &["register", "--token", "abcdef.0123456789abcdef"]),
        ("register_no_pin", &["register", "10.0.0.1:5443", "--token", "abcdef.0123456789abcdef"]),
        (
            "register_bad_token",
            &[
                "register",
                "10.0.0.1:5443",
                "--token",
                "ABCDEF.0123456789abcdef",
                "--discovery-token-unsafe-skip-ca-verification",
            ],
        ),
        (
            "register_bad_pin",
            &[
                "register",
                "10.0.0.1:5443",
                "--token",
                "abcdef.0123456789abcdef",
                "--discovery-token-ca-cert-hash",
                "md5:abc",
            ],
        ),
        ("token_create_bad_ttl", &["token", "create", "--ttl", "a day"]),
        ("token_create_bad_group", &["token", "create", "--groups", "system:masters"]),
        ("token_create_bad_usage", &["token", "create", "--usages", "signing,everything"]),
        ("token_delete_none", &["token", "delete"]),
        ("token_delete_bad", &["token", "delete", "abc"]),
        ("token_no_subcommand_typo", &["token", "craete"]),
        ("cordon_two", &["cordon", "a", "b"]),
        ("get_bad_scope", &["get", "pods", "-s", "everywhere"]),
        ("promote_one_arg", &["promote", "deployment"]),
        ("promote_no_cluster", &["promote", "deployment", "nginx"]),
        ("promote_bad_output", &["promote", "deployment", "nginx", "-C", "m1", "-o", "wide"]),
        ("init_bad_ip", &["init", "--cert-external-ip", "10.0.0.1,not-an-ip"]),
        ("init_bad_pull_policy", &["init", "--image-pull-policy", "Sometimes"]),
        ("init_hostpath_replicas", &["init", "--etcd-replicas", "3"]),
        ("init_bad_storage_mode", &["init", "--etcd-storage-mode", "tmpfs"]),
        ("init_ca_without_key", &["init", "--ca-cert-file", "/ca.crt"]),
        ("init_replicas_not_a_number", &["init", "--karmada-apiserver-replicas", "three"]),
        ("version_bad_output", &["version", "-o", "xml"]),
        ("kubeconfig_missing_file", &["join", "member1", "--kubeconfig", "/nonexistent/config"]),
        ("karmada_context_unknown", &["cordon", "member1", "--karmada-context", "nope"]),
        ("member_context_unknown", &["join", "member1", "--cluster-kubeconfig", "/m", "--cluster-context", "nope"]),
        ("unjoin_member_context_defaults_to_cluster_name", &["unjoin", "member2", "--cluster-kubeconfig", "/m"]),
        ("completion_none", &["completion"]),
        ("completion_two", &["completion", "bash", "zsh"]),
        ("completion_unknown", &["completion", "tcsh"]),
    ];
    for (name, args) in cases {
        let out = common::KubeEnv::new().run(args);
        assert_eq!(out.code, 1, "{args:?} should fail with 1: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?} printed data on failure: {}", out.stdout);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert!(lines.first().is_some_and(|l| l.starts_with("error: ")), "{args:?}: {}", out.stderr);
        assert!(lines.iter().any(|l| l.starts_with("hint: ")), "{args:?} has no hint: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{args:?} panicked: {}", out.stderr);
        insta::assert_snapshot!(format!("error_{name}"), out.stderr);
    }
}

#[test]
fn kubeconfig_problems_are_reported_before_anything_else() {
    // No kubeconfig anywhere: upstream's "Missing or incomplete configuration info".
    let out = karmadactl_run(&["token", "list"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with("error: Missing or incomplete configuration info."), "{}", out.stderr);
    insta::assert_snapshot!("error_no_kubeconfig", out.stderr.replace(&home_of(&out), "<HOME>"));

    // A malformed file names the file and does not echo its content.
    let env = common::KubeEnv::new();
    let bad = env.home.path().join("bad.yaml");
    std::fs::write(&bad, "apiVersion: v1\nclusters: [ {name: x, cluster: {server: 'https://h', token: s3cr3t-value\n")
        .unwrap();
    let out = env.run(&["get", "pods", "--kubeconfig", bad.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("bad.yaml"), "{}", out.stderr);
    assert!(!out.stderr.contains("s3cr3t-value"), "a malformed kubeconfig's content leaked: {}", out.stderr);
    assert!(out.stderr.lines().any(|l| l.starts_with("hint: ")), "{}", out.stderr);

    // An unreadable file (a directory) is an error with a sentence, not a panic.
    let out = env.run(&["get", "pods", "--kubeconfig", env.home.path().to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.starts_with("error: "), "{}", out.stderr);

    // KUBECONFIG is honoured: an unknown context there names the contexts that exist.
    let out = env.run(&["cordon", "member1", "--karmada-context", "nope"]);
    assert!(out.stderr.contains("context \"nope\""), "{}", out.stderr);
    assert!(out.stderr.contains("karmada-apiserver"), "the hint lists available contexts: {}", out.stderr);
}

/// The HOME used for a run appears in some messages; snapshots replace it.
fn home_of(out: &common::Run) -> String {
    out.stderr
        .split_whitespace()
        .find(|w| w.contains("/.kube/config"))
        .map(|w| {
            w.trim_matches(|c| c == '"' || c == ',' || c == '(' || c == ')' || c == '.')
                .trim_end_matches("/.kube/config")
                .to_string()
        })
        .unwrap_or_default()
}

#[test]
fn upstream_error_texts_are_kept() {
    let out = karmadactl_run(&["version", "--invalidflag"]);
    assert!(out.stderr.starts_with("error: unknown flag: --invalidflag\n"), "{}", out.stderr);
    let out = karmadactl_run(&["get", "pods", "-s", "everywhere"]);
    assert!(out.stderr.contains("not support OperationScope: everywhere"), "{}", out.stderr);
    let out = karmadactl_run(&["promote", "deployment"]);
    assert!(out.stderr.starts_with("error: incorrect command format, please use correct command format\n"));
    let out = karmadactl_run(&["completion", "tcsh"]);
    assert!(out.stderr.starts_with("error: Unsupported shell type \"tcsh\".\n"));
}

#[test]
fn version_prints_build_facts_in_every_format() {
    let out = karmadactl_run(&["version"]);
    assert_eq!(out.code, 0);
    let line = out.stdout.trim_end();
    assert_eq!(out.stdout.lines().count(), 1);
    for field in [
        "GitVersion:\"v",
        "GitCommit:\"",
        "BuildDate:\"",
        "RustVersion:\"rustc ",
        "Platform:\"linux/",
        "KubernetesAPIVersion:\"v1.33",
    ] {
        assert!(line.contains(field), "missing {field} in {line}");
    }
    let json = karmadactl_run(&["version", "-o", "json"]);
    assert_eq!(json.code, 0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("version -o json is JSON");
    assert_eq!(v["gitVersion"], format!("v{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(v["kubernetesAPIVersion"], "v1.33.0");
    assert!(v["rustVersion"].as_str().is_some_and(|s| s.starts_with("rustc 1.")));
    assert!(v["platform"].as_str().is_some_and(|s| s.contains('/')));
    let yaml = karmadactl_run(&["version", "-o", "yaml"]);
    assert_eq!(yaml.code, 0);
    assert!(yaml.stdout.contains("gitVersion: v"), "{}", yaml.stdout);
    assert!(yaml.stdout.contains("kubernetesAPIVersion: v1.33.0"), "{}", yaml.stdout);
}

#[test]
fn closed_stdout_is_not_an_error() {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = common::karmadactl(home.path());
    cmd.args(["completion", "bash"]);
    cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(child.stdout.take()); // the reader goes away, like `| head -0`
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn plugin_flavour_says_kubectl_karmada_and_works_through_real_kubectl() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("kubectl-karmada");
    std::os::unix::fs::symlink(common::bin(), &plugin).unwrap();
    let home = tempfile::tempdir().unwrap();

    let mut cmd = common::karmadactl(home.path());
    cmd.arg("--help");
    let mut cmd = std::process::Command::new(&plugin);
    cmd.env_clear().env("HOME", home.path()).env("COLUMNS", "100").arg("--help");
    let help = run(cmd);
    assert_eq!(help.code, 0);
    assert!(help.stdout.starts_with("kubectl karmada controls a Kubernetes Cluster Federation."), "{}", help.stdout);
    assert!(help.stdout.contains("Use \"kubectl karmada <command> --help\""));
    assert!(!help.stdout.contains("karmadactl"), "plugin help mentions karmadactl: {}", help.stdout);

    let mut cmd = std::process::Command::new(&plugin);
    cmd.env_clear().env("HOME", home.path()).env("COLUMNS", "100").args(["join", "--help"]);
    let join = run(cmd);
    assert!(join.stdout.contains("Usage: kubectl karmada join"), "{}", join.stdout);
    assert!(!join.stdout.contains("karmadactl"), "{}", join.stdout);

    let kubectl = common::kubectl_binary("1.32");
    let path = format!("{}:{}", dir.path().display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = std::process::Command::new(kubectl);
    cmd.env_clear().env("HOME", home.path()).env("PATH", path).args(["karmada", "version"]);
    let out = run(cmd);
    assert_eq!(out.code, 0, "kubectl karmada version failed: {}", out.stderr);
    assert!(out.stdout.starts_with("kubectl karmada version: version.Info{"), "{}", out.stdout);
}

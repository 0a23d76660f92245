//! Dynamic shell completion: the hidden `__complete` command the scripts call back, answered
//! from a live plane (cluster names, resource kinds) and a kubeconfig (contexts), and the bash
//! script driven by a real bash the way programmable completion calls it.

use std::path::Path;
use std::process::Command;

use crate::common;
use crate::common::plane::Plane;
use crate::common::{KubeEnv, Run, karmadactl, run};

/// The klog flags upstream inherits; none may ever be offered.
const KLOG_FLAGS: &[&str] = &[
    "--v",
    "--vmodule",
    "--logtostderr",
    "--alsologtostderr",
    "--add-dir-header",
    "--log-dir",
    "--log-file",
    "--log-file-max-size",
    "--one-output",
    "--skip-headers",
    "--skip-log-headers",
    "--stderrthreshold",
    "--log-backtrace-at",
];

fn complete(home: &Path, words: &[&str]) -> Run {
    let mut cmd = karmadactl(home);
    cmd.arg("__complete").args(words);
    run(cmd)
}

fn lines(run: &Run) -> Vec<&str> {
    run.stdout.lines().collect()
}

fn cluster(name: &str) -> String {
    format!(
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {name}\nspec:\n  syncMode: Push\n  apiEndpoint: https://127.0.0.1:1\n"
    )
}

#[test]
fn cluster_names_and_kinds_come_from_the_live_plane() {
    let plane = Plane::start();
    plane.create(&cluster("member-a"));
    plane.create(&cluster("member-b"));
    plane.create(&cluster("other"));
    let home = tempfile::tempdir().unwrap();
    let kc = plane.kubeconfig.to_str().unwrap();

    for words in [
        vec!["--kubeconfig", kc, "cordon", ""],
        vec!["uncordon", "--kubeconfig", kc, ""],
        vec!["unjoin", "--kubeconfig", kc, ""],
        vec!["taint", "--kubeconfig", kc, "clusters", ""],
        vec!["get", "--kubeconfig", kc, "-C", ""],
        vec!["get", "--kubeconfig", kc, "--clusters", ""],
        vec!["promote", "--kubeconfig", kc, "deployment", "web", "-C", ""],
        vec!["api-resources", "--kubeconfig", kc, "-s", "members", "--cluster", ""],
        vec!["api-versions", "--kubeconfig", kc, "--cluster", ""],
        vec!["label", "--kubeconfig", kc, "-s", "members", "-C", ""],
        vec!["annotate", "--kubeconfig", kc, "--cluster", ""],
        vec!["describe", "--kubeconfig", kc, "-s", "members", "-C", ""],
    ] {
        let r = complete(home.path(), &words);
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{words:?}");
        assert_eq!(lines(&r), ["member-a", "member-b", "other"], "{words:?}");
    }

    let r = complete(home.path(), &["get", "--kubeconfig", kc, "-C", "mem"]);
    assert_eq!(lines(&r), ["member-a", "member-b"]);
    let r = complete(home.path(), &["get", "--kubeconfig", kc, "--clusters=o"]);
    assert_eq!(lines(&r), ["--clusters=other"]);
    let r = complete(home.path(), &["taint", "--kubeconfig", kc, ""]);
    assert_eq!(lines(&r), ["clusters"]);

    // Kinds come from discovery: Karmada's own resources are served, so they are offered.
    let r = complete(home.path(), &["get", "--kubeconfig", kc, "propagation"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(lines(&r), ["propagationpolicies"]);
    let r = complete(home.path(), &["get", "--kubeconfig", kc, "c"]);
    assert!(lines(&r).contains(&"clusters"), "{}", r.stdout);
    assert!(lines(&r).contains(&"configmaps"), "{}", r.stdout);
    assert!(!lines(&r).contains(&"completion"), "subcommands are not offered below get: {}", r.stdout);
    for command in ["label", "annotate", "patch", "delete"] {
        let r = complete(home.path(), &[command, "--kubeconfig", kc, "propagation"]);
        assert_eq!(lines(&r), ["propagationpolicies"], "{command}");
    }
    let r = complete(home.path(), &["describe", "--kubeconfig", kc, "propagation"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(lines(&r), ["propagationpolicies"]);
}

#[test]
fn an_unreachable_plane_completes_nothing_silently_and_kinds_fall_back() {
    let env = KubeEnv::new();
    let kc = env.kubeconfig.to_str().unwrap();
    let r = complete(env.home.path(), &["--kubeconfig", kc, "cordon", ""]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    let r = complete(env.home.path(), &["get", "--kubeconfig", kc, "dep"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(lines(&r), ["deployments"]);
}

#[test]
fn contexts_come_from_the_kubeconfig() {
    let env = KubeEnv::new();
    let kc = env.kubeconfig.to_str().unwrap();
    let all = ["c", "karmada-apiserver", "member1"];
    for words in [
        vec!["join", "member1", "--kubeconfig", kc, "--cluster-context", ""],
        vec!["get", "--kubeconfig", kc, "--karmada-context", ""],
        vec!["deinit", "--kubeconfig", kc, "--context", ""],
        // Without --kubeconfig, kubectl's default file (~/.kube/config) is read.
        vec!["join", "member1", "--karmada-context", ""],
    ] {
        let r = complete(env.home.path(), &words);
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{words:?}");
        assert_eq!(lines(&r), all, "{words:?}");
    }
    let r = complete(env.home.path(), &["get", "--karmada-context=k"]);
    assert_eq!(lines(&r), ["--karmada-context=karmada-apiserver"]);
    // --cluster-context reads the member's kubeconfig when one is named.
    let member = env.home.path().join("member.kubeconfig");
    std::fs::write(&member, common::TEST_KUBECONFIG.replace("name: c\n", "name: only-in-member\n")).unwrap();
    let r = complete(
        env.home.path(),
        &["join", "m", "--cluster-kubeconfig", member.to_str().unwrap(), "--cluster-context", ""],
    );
    assert_eq!(lines(&r), ["karmada-apiserver", "member1", "only-in-member"]);
}

#[test]
fn fixed_values_flags_and_subcommands() {
    let home = tempfile::tempdir().unwrap();
    let r = complete(home.path(), &["get", "-s", ""]);
    assert_eq!(lines(&r), ["karmada", "members", "all"]);
    let r = complete(home.path(), &["get", "-o", ""]);
    assert_eq!(lines(&r), ["json", "yaml", "wide", "name"]);
    let r = complete(home.path(), &["api-resources", "-s", ""]);
    assert_eq!(lines(&r), ["karmada", "members"]);
    let r = complete(home.path(), &["api-versions", "--operation-scope", ""]);
    assert_eq!(lines(&r), ["karmada", "members"]);
    let r = complete(home.path(), &["api-resources", "-o", ""]);
    assert_eq!(lines(&r), ["json", "yaml", "wide", "name"]);
    let r = complete(home.path(), &["delete", "-o", ""]);
    assert_eq!(lines(&r), ["name"]);
    for command in ["label", "annotate", "patch"] {
        let r = complete(home.path(), &[command, "-o", ""]);
        assert_eq!(lines(&r), ["json", "yaml", "name"], "{command}");
        let r = complete(home.path(), &[command, "-s", ""]);
        assert_eq!(lines(&r), ["karmada", "members"], "{command}");
    }
    for verb in ["enable", "disable"] {
        let r = complete(home.path(), &["addons", verb, "karmada-search", ""]);
        let addons = ["karmada-descheduler", "karmada-metrics-adapter", "karmada-scheduler-estimator"];
        assert_eq!(lines(&r)[..3], addons, "{verb}");
        assert!(lines(&r).contains(&"all"), "{verb}");
    }
    let r = complete(home.path(), &["api-resources", "--sort-by", ""]);
    assert_eq!(lines(&r), ["kind", "name"]);
    let r = complete(home.path(), &["get", "--output=y"]);
    assert_eq!(lines(&r), ["--output=yaml"]);
    // Paths are left to the shell, which knows its quoting.
    let r = complete(home.path(), &["get", "--kubeconfig", ""]);
    assert_eq!(lines(&r), [":files"]);
    let r = complete(home.path(), &["join", "m", "--cluster-kubeconfig=/tm"]);
    assert_eq!(lines(&r), [":files"]);
    let r = complete(home.path(), &["un"]);
    assert_eq!(lines(&r), ["unjoin", "unregister", "uncordon"]);

    let r = complete(home.path(), &["get", "--"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let offered = lines(&r);
    for flag in ["--clusters", "--operation-scope", "--output", "--kubeconfig", "--karmada-context"] {
        assert!(offered.contains(&flag), "{flag} missing from {offered:?}");
    }
    for flag in KLOG_FLAGS {
        assert!(!offered.contains(flag), "klog flag {flag} offered: {offered:?}");
    }
    let r = complete(home.path(), &["--"]);
    for flag in KLOG_FLAGS {
        assert!(!lines(&r).contains(flag), "klog flag {flag} offered at the root: {}", r.stdout);
    }
}

/// Sources `completion bash` in a real bash, sets the programmable-completion variables for
/// `line` (cursor at its end) and returns what the completion function put in COMPREPLY.
pub(crate) fn bash_complete(home: &Path, line: &str) -> Vec<String> {
    let script = home.join("karmadactl.bash");
    let mut gen_cmd = karmadactl(home);
    gen_cmd.args(["completion", "bash"]);
    let generated = run(gen_cmd);
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    std::fs::write(&script, &generated.stdout).unwrap();
    let bin_dir = common::bin().parent().unwrap().to_path_buf();
    let driver = r#"
source "$SCRIPT"
read -ra COMP_WORDS <<< "$LINE"
[[ "$LINE" == *' ' ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE="$LINE"
COMP_POINT=${#LINE}
_karmadactl karmadactl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
"#;
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", driver])
        .env_clear()
        .env("HOME", home)
        .env("PATH", format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default()))
        .env("SCRIPT", &script)
        .env("LINE", line)
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().filter(|l| !l.is_empty()).map(str::to_string).collect()
}

#[test]
fn the_bash_script_offers_clusters_contexts_and_no_klog_flags() {
    let plane = Plane::start();
    plane.create(&cluster("member-a"));
    plane.create(&cluster("member-b"));
    let home = tempfile::tempdir().unwrap();
    let kc = plane.kubeconfig.to_str().unwrap();

    assert_eq!(bash_complete(home.path(), &format!("karmadactl cordon --kubeconfig {kc} ")), ["member-a", "member-b"]);
    assert_eq!(bash_complete(home.path(), &format!("karmadactl get --kubeconfig {kc} -C member-b")), ["member-b"]);
    // bash splits `--karmada-context=` at `=`: the reply holds only the value part.
    let contexts = bash_complete(home.path(), &format!("karmadactl get --kubeconfig {kc} --karmada-context="));
    assert_eq!(contexts, ["karmada-apiserver"]);
    assert_eq!(bash_complete(home.path(), "karmadactl get -s m"), ["members"]);
    // -s and -C never fall back to file names; --kubeconfig completes them.
    std::fs::write(home.path().join("my.kubeconfig"), "").unwrap();
    assert_eq!(bash_complete(home.path(), "karmadactl get -s "), ["karmada", "members", "all"]);
    let unreachable = format!("karmadactl get --kubeconfig {}/my.kubeconfig -C ", home.path().display());
    assert_eq!(bash_complete(home.path(), &unreachable), Vec::<String>::new());
    let path = format!("karmadactl get --kubeconfig {}/my.k", home.path().display());
    assert_eq!(bash_complete(home.path(), &path), [format!("{}/my.kubeconfig", home.path().display())]);
    let inline = format!("karmadactl get --kubeconfig={}/my.k", home.path().display());
    assert_eq!(bash_complete(home.path(), &inline), [format!("{}/my.kubeconfig", home.path().display())]);

    let flags = bash_complete(home.path(), "karmadactl get --");
    assert!(flags.contains(&"--clusters".to_string()), "{flags:?}");
    for flag in KLOG_FLAGS {
        assert!(!flags.iter().any(|f| f == flag), "klog flag {flag} offered by bash: {flags:?}");
    }
}

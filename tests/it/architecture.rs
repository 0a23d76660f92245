//! The crate arrows docs/architecture.md draws, checked with `cargo tree`: each crate sees only
//! the workspace crates below it, and only the plane and the CLI depend on the API server.

use std::collections::BTreeSet;
use std::process::Command;

/// The workspace crates `cargo tree` shows for a query (normal dependencies), itself included.
fn workspace_crates(args: &[&str]) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name == "karmadactl" || name.starts_with("karmadactl-"))
        .map(str::to_string)
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| format!("karmadactl-{n}")).collect()
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let expected: &[(&str, &[&str])] = &[
        ("karmada-api", &["karmada-api"]),
        ("apimachinery", &["apimachinery"]),
        ("pki", &["pki"]),
        ("store", &["store"]),
        ("simulator", &["simulator"]),
        ("kubeconfig", &["kubeconfig", "karmada-api"]),
        ("interpreter", &["interpreter", "karmada-api", "apimachinery"]),
        ("engine", &["engine", "interpreter", "karmada-api", "apimachinery"]),
        ("controllers", &["controllers", "karmada-api", "apimachinery", "pki"]),
        ("apiserver", &["apiserver", "interpreter", "karmada-api", "apimachinery", "pki", "store", "kubeconfig"]),
        (
            "plane",
            &[
                "plane",
                "apiserver",
                "engine",
                "interpreter",
                "controllers",
                "simulator",
                "karmada-api",
                "apimachinery",
                "pki",
                "store",
                "kubeconfig",
            ],
        ),
    ];
    for (krate, below) in expected {
        let package = format!("karmadactl-{krate}");
        let seen = workspace_crates(&["-p", &package]);
        assert_eq!(seen, set(below), "{package} depends on exactly these workspace crates");
    }
}

#[test]
fn only_the_plane_and_the_cli_depend_on_the_api_server() {
    let seen = workspace_crates(&["-i", "karmadactl-apiserver", "--workspace"]);
    let mut expected = set(&["apiserver", "plane"]);
    expected.insert("karmadactl".to_string());
    assert_eq!(seen, expected, "the crates that reach karmadactl-apiserver");
}

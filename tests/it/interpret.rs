//! `karmadactl interpret`: checking, running and editing customizations offline, with the
//! real binary and upstream's customization objects and test inputs.

use std::path::{Path, PathBuf};

use crate::common::{self, karmada_fixtures};

fn cloneset_dir() -> PathBuf {
    karmada_fixtures().join("resourcecustomizations/apps.kruise.io/v1alpha1/CloneSet")
}

/// One input object of an upstream test case, written to `dir` as a file of its own.
fn case_object(dir: &Path, test_file: &str, key: &str, file: &str) -> PathBuf {
    let text = std::fs::read_to_string(cloneset_dir().join("testdata").join(test_file)).unwrap();
    let case: serde_json::Value = serde_saphyr::from_multiple::<serde_json::Value>(&text).unwrap().remove(0);
    let path = dir.join(file);
    std::fs::write(&path, serde_json::to_string(&case[key]).unwrap()).unwrap();
    path
}

fn interpret(dir: &Path, args: &[&str]) -> common::Run {
    let mut cmd = common::karmadactl(dir);
    cmd.current_dir(dir).arg("interpret").args(args);
    common::run(cmd)
}

const BROKEN: &str = "apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: broken
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    retention:
      luaScript: |
        function Retain(desiredObj, observedObj)
          return desiredObj
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(observedObj)
          return observedObj.status.readyReplicas ==
        end
";

#[test]
fn check_passes_every_rule_an_upstream_customization_sets() {
    let dir = tempfile::tempdir().unwrap();
    let file = cloneset_dir().join("customizations.yaml");
    let r = interpret(dir.path(), &["-f", file.to_str().unwrap(), "--check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The target line is 40 characters, so the rule column is 43 wide (kubectl's tab writer
    // keeps the widest column seen: 40 + 3 of padding).
    let rules = [
        ("Retain", "UNSET"),
        ("InterpretReplica", "PASS"),
        ("InterpretComponent", "UNSET"),
        ("ReviseReplica", "PASS"),
        ("InterpretStatus", "PASS"),
        ("AggregateStatus", "PASS"),
        ("InterpretHealth", "PASS"),
        ("InterpretDependency", "PASS"),
    ];
    let mut want = String::from(
        "-----------------------------------\nSOURCE: declarative-configuration-cloneset\n\
         TARGET: apps.kruise.io/v1alpha1 CloneSet   \nRULERS:\n",
    );
    for (rule, result) in rules {
        want.push_str(&format!("    {:<39}{result}\n", format!("{rule}:")));
    }
    assert_eq!(r.stdout, want);
}

#[test]
fn check_reports_a_script_that_does_not_compile_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.yaml"), BROKEN).unwrap();
    let r = interpret(dir.path(), &["-f", "broken.yaml", "--check"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[4].trim_end(), "    Retain:                  PASS");
    assert!(lines[10].starts_with("    InterpretHealth:         ERROR: "), "{}", r.stdout);
    assert!(lines[10].contains("unexpected symbol near 'end'"), "the Lua error is shown: {}", lines[10]);
    assert_eq!(r.stderr, "error: 1 of 1 customizations failed the check\n");
}

#[test]
fn check_names_documents_that_are_not_customizations_as_upstream_does() {
    let dir = tempfile::tempdir().unwrap();
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: not-customization\n---\n\
                apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\n\
                metadata:\n  name: api-version-unset\nspec:\n  target:\n    kind: Deployment\n---\n\
                apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\n\
                metadata:\n  name: kind-unset\nspec:\n  target:\n    apiVersion: apps/v1\n";
    std::fs::write(dir.path().join("errors.yml"), text).unwrap();
    let r = interpret(dir.path(), &["-f", "errors.yml", "--check"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "-----------------------------------\nSOURCE: not-customization\n\
         not a ResourceInterpreterCustomization, got /v1, Kind=Pod\n\
         -----------------------------------\nSOURCE: api-version-unset\ntarget.apiVersion no set\n\
         -----------------------------------\nSOURCE: kind-unset\ntarget.kind no set\n"
    );
}

#[test]
fn interpret_replica_runs_the_script_with_the_kube_library() {
    let dir = tempfile::tempdir().unwrap();
    let desired = case_object(dir.path(), "interpretreplica-test.yaml", "desiredObj", "desired.json");
    let file = cloneset_dir().join("customizations.yaml");
    let run = |desired: &Path| {
        interpret(
            dir.path(),
            &[
                "-f",
                file.to_str().unwrap(),
                "--operation",
                "interpretreplica",
                "--desired-file",
                desired.to_str().unwrap(),
            ],
        )
    };
    // Upstream's case: a pod template with neither requests nor node constraints needs nothing.
    let r = run(&desired);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "---\n# [1/2] replica:\n4\n---\n# [2/2] requires:\nnull\n");
    // kube.accuratePodRequirements adds up what the containers request and keeps the node selector.
    let mut object: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&desired).unwrap()).unwrap();
    let spec = &mut object["spec"]["template"]["spec"];
    spec["nodeSelector"] = serde_json::json!({"disk": "ssd"});
    spec["containers"][0]["resources"] = serde_json::json!({"requests": {"cpu": "250m", "memory": "64Mi"}});
    std::fs::write(&desired, object.to_string()).unwrap();
    let r = run(&desired);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "---\n# [1/2] replica:\n4\n---\n# [2/2] requires:\nnodeClaim:\n  nodeSelector:\n    disk: ssd\n\
         resourceRequest:\n  cpu: 250m\n  memory: 64Mi\n"
    );
}

#[test]
fn aggregate_status_reads_status_items_from_standard_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let desired = case_object(dir.path(), "aggregatestatus-test.yaml", "desiredObj", "desired.json");
    let file = cloneset_dir().join("customizations.yaml");
    let items = "clusterName: member1\nstatus:\n  replicas: 2\n  readyReplicas: 2\n  updatedReplicas: 2\n  \
                 availableReplicas: 2\n  updatedReadyReplicas: 2\n  expectedUpdatedReplicas: 2\n  \
                 observedGeneration: 1\n  generation: 1\n  resourceTemplateGeneration: 1\napplied: true\n---\n\
                 clusterName: member2\nstatus:\n  replicas: 1\n  readyReplicas: 0\n  updatedReplicas: 1\n  \
                 availableReplicas: 0\n  updatedReadyReplicas: 0\n  expectedUpdatedReplicas: 1\n  \
                 observedGeneration: 1\n  generation: 1\n  resourceTemplateGeneration: 1\napplied: true\n";
    let mut cmd = common::karmadactl(dir.path());
    cmd.current_dir(dir.path())
        .args(["interpret", "-f", file.to_str().unwrap(), "--operation", "AggregateStatus"])
        .args(["--desired-file", desired.to_str().unwrap(), "--status-file", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(items.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("---\n# [1/1] aggregatedStatus:\n"), "{stdout}");
    let doc: serde_json::Value = serde_saphyr::from_str(stdout.split_once(":\n").unwrap().1).unwrap();
    assert_eq!(doc["status"]["replicas"], 3, "{stdout}");
    assert_eq!(doc["status"]["readyReplicas"], 2, "{stdout}");
    assert_eq!(doc["status"]["updatedReplicas"], 3, "{stdout}");
}

#[test]
fn a_rule_the_files_do_not_set_is_not_enabled_even_for_a_built_in_kind() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.yaml"), BROKEN).unwrap();
    std::fs::write(
        dir.path().join("d.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 3\n",
    )
    .unwrap();
    let r = interpret(dir.path(), &["-f", "c.yaml", "--operation", "InterpretReplica", "--desired-file", "d.yaml"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr, "error: Execute InterpretReplica error: rule is not enabled\n");
}

#[test]
fn retain_needs_both_objects_and_says_which_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let (retain_only, _) = BROKEN.split_once("    healthInterpretation:").unwrap();
    std::fs::write(dir.path().join("c.yaml"), retain_only).unwrap();
    std::fs::write(dir.path().join("d.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n").unwrap();
    let r = interpret(dir.path(), &["-f", "c.yaml", "--operation", "retain", "--desired-file", "d.yaml"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "error: Execute Retain error: observed, observed-file options are not set\n");
    let r = interpret(
        dir.path(),
        &["-f", "c.yaml", "--operation", "retain", "--desired-file", "d.yaml", "--observed-file", "d.yaml"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "---\n# [1/1] retained:\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n");
}

#[test]
fn usage_errors_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.yaml"), BROKEN).unwrap();
    let r = interpret(dir.path(), &["-f", "c.yaml", "--check", "--edit"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, "error: you can't set both --check and --edit options\n"));
    let r = interpret(dir.path(), &["-f", "c.yaml", "--operation", "Nope"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("error: operation Nope is not supported. Use one of: Retain, InterpretReplica,"));
    let r = interpret(dir.path(), &["-f", "missing.yaml", "--check"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, "error: the path \"missing.yaml\" does not exist\n"));
}

/// An editor that replaces the health rule's body: first with a script that does not compile,
/// then (when the file is reopened with the error on top) with one that does.
const EDITOR: &str = "#!/bin/sh\n\
    n=$(cat \"$(dirname \"$0\")/count\" 2>/dev/null || echo 0); echo $((n+1)) > \"$(dirname \"$0\")/count\"\n\
    if [ \"$n\" = 0 ]; then\n\
      grep -q '^---@rule: InterpretHealth$' \"$1\" || exit 3\n\
      sed -i 's/return observedObj.status.readyReplicas ==$/return (/' \"$1\"\n\
    else\n\
      grep -q 'was not valid' \"$1\" || exit 4\n\
      sed -i 's/^  return ($/  return true/' \"$1\"\n\
    fi\n";

#[test]
fn edit_reopens_a_script_that_does_not_compile_and_saves_only_a_valid_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.yaml");
    std::fs::write(&file, BROKEN).unwrap();
    let editor = dir.path().join("editor.sh");
    std::fs::write(&editor, EDITOR).unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = common::karmadactl(dir.path());
    cmd.current_dir(dir.path()).env("EDITOR", &editor).args(["interpret", "-f", "c.yaml", "--edit"]);
    let r = common::run(cmd);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "resourceinterpretercustomization.config.karmada.io/broken edited\n");
    assert_eq!(r.stderr, "error: resourceinterpretercustomizations \"broken\" is invalid\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("count")).unwrap().trim(), "2");
    let saved: serde_json::Value = serde_saphyr::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        saved["spec"]["customizations"]["healthInterpretation"]["luaScript"],
        "function InterpretHealth(observedObj)\n  return true\nend\n"
    );
    assert_eq!(saved["spec"]["target"]["kind"], "Deployment");
    let r = interpret(dir.path(), &["-f", "c.yaml", "--check"]);
    assert_eq!(r.code, 0, "the saved file passes the check: {}", r.stdout);
}

#[test]
fn edit_without_changes_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.yaml");
    std::fs::write(&file, BROKEN).unwrap();
    let mut cmd = common::karmadactl(dir.path());
    cmd.current_dir(dir.path()).env("EDITOR", "true").args(["interpret", "-f", "c.yaml", "--edit"]);
    let r = common::run(cmd);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(r.stderr, "Edit cancelled, no changes made.\n");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), BROKEN);
}

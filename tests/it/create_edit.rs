//! `create --edit`, `create --raw` and `create -k` next to kubectl 1.33's on the same plane,
//! both driven by the same scripted editor: the same lines on stdout and stderr, the same exit
//! codes and the same objects afterwards. kubectl works in namespace `theirs`, karmadactl in
//! `ours`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::plane::Plane;
use crate::common::{self, Run};

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n";

/// An editor script: `body` runs with the file as `$1`; `$0`'s directory keeps what it saw.
fn editor(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\ncp \"$1\" \"$0.seen\"\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

/// As for `edit` (temporary file names, the namespaces, the objects' identities and versions),
/// and kubectl names itself in the hints it prints.
fn text(s: &str) -> String {
    crate::edit::text(s).replace("'kubectl create", "'karmadactl create")
}

struct Pair<'a> {
    plane: &'a Plane,
}

impl Pair<'_> {
    /// Runs `args` (`{ns}` stands for the tool's namespace) with both tools and `editor`, if
    /// any, as KUBE_EDITOR (its copy of the file each saw is returned alongside); they must
    /// agree. Returns karmadactl's run and the files each editor saw.
    fn same(&self, editor: Option<(&Path, &Path)>, args: &[&str]) -> (Run, Option<(String, String)>) {
        let with = |ns: &str| args.iter().map(|a| a.replace("{ns}", ns)).collect::<Vec<_>>();
        let mut theirs = self.plane.kubectl_version("1.33");
        theirs.args(with("theirs"));
        let mut ours = common::karmadactl(self.plane.dir.path());
        ours.env("KUBECONFIG", &self.plane.kubeconfig).args(with("ours"));
        if let Some((t, o)) = editor {
            theirs.env("KUBE_EDITOR", t);
            ours.env("KUBE_EDITOR", o);
        }
        let (theirs, ours) = (common::run(theirs), common::run(ours));
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(text(&ours.stdout), text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(text(&ours.stderr), text(&theirs.stderr), "stderr of {args:?}");
        let seen = editor.map(|(t, o)| {
            let read = |p: &Path| std::fs::read_to_string(format!("{}.seen", p.display())).unwrap_or_default();
            (read(o), read(t))
        });
        // Parsers word their errors differently: a file reopened for a syntax error differs there.
        if let Some((o, t)) = seen.as_ref().filter(|(_, t)| !t.contains("failed validation\": yaml:")) {
            // kubectl 1.33's create never reads --windows-line-endings (docs/differences.md).
            let plain = |s: &str| s.replace("theirs", "ours").replace("\r\n", "\n");
            assert_eq!(plain(o), plain(t), "the editors saw different files");
        }
        self.same_objects();
        (ours, seen)
    }

    /// Both namespaces hold the same deployments.
    fn same_objects(&self) {
        let objects = |ns: &str| {
            let out = self.plane.kubectl_version_ok("1.33", &["get", "deployments", "-n", ns, "-o", "json"]);
            let mut list: Value = serde_json::from_str(&out.replace("theirs", "ours")).unwrap();
            for item in list["items"].as_array_mut().unwrap() {
                let meta = item["metadata"].as_object_mut().unwrap();
                for k in ["resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"] {
                    meta.remove(k);
                }
                item.as_object_mut().unwrap().remove("status");
            }
            list
        };
        assert_eq!(objects("ours"), objects("theirs"));
    }
}

/// An editor pair, one script for each tool, running the same `body`.
fn editors(dir: &Path, name: &str, body: &str) -> (PathBuf, PathBuf) {
    (editor(dir, &format!("{name}-theirs"), body), editor(dir, &format!("{name}-ours"), body))
}

#[test]
fn create_edit_edits_each_object_before_creating_it() {
    let plane = Plane::start();
    for ns in ["ours", "theirs"] {
        plane.create(&format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n"));
    }
    let pair = Pair { plane: &plane };
    let dir = plane.dir.path();
    let file = plane.file("web.yaml", DEPLOYMENT);
    let f = file.to_str().unwrap();

    // Unchanged or emptied: nothing is created.
    let (unchanged, _) = editors(dir, "unchanged", "true");
    let (run, seen) = pair
        .same(Some((&unchanged, &editors(dir, "unchanged", "true").1)), &["create", "--edit", "-f", f, "-n", "{ns}"]);
    assert_eq!(run.stderr, "Edit cancelled, no changes made.\n");
    let (seen, _) = seen.unwrap();
    assert!(seen.starts_with("# Please edit the object below."), "{seen}");
    assert!(seen.contains("  namespace: ours\n"), "{seen}");
    // An emptied file holds no object: kubectl's validator refuses it, and emptied again the
    // edit is given up.
    let (t, o) = editors(dir, "empty", ": > \"$1\"");
    let (run, seen) = pair.same(Some((&t, &o)), &["create", "--edit", "-f", f, "-n", "{ns}"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with("error: deployments.apps \"web\" is invalid\nA copy of your changes"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.ends_with("\nerror: Edit cancelled, no valid changes were saved.\n"), "{}", run.stderr);
    let seen = seen.unwrap().0;
    assert!(
        seen.contains("# * <nil>: Invalid value: \"The edited file failed validation\": invalid object to validate\n"),
        "{seen}"
    );

    // A change is created and printed.
    let (t, o) = editors(dir, "scale", "sed -i 's/replicas: 1/replicas: 3/' \"$1\"");
    let (run, _) = pair.same(Some((&t, &o)), &["create", "--edit", "-f", f, "-n", "{ns}", "--save-config"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "deployment.apps/web created\n"), "{}", run.stderr);
    let replicas = plane.kubectl_ok(&["get", "deploy", "web", "-n", "ours", "-o", "jsonpath={.spec.replicas}"]);
    assert_eq!(replicas, "3");

    // A refused create keeps the edited file and says where.
    let (run, _) = pair.same(Some((&t, &o)), &["create", "--edit", "-f", f, "-n", "{ns}"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with("A copy of your changes has been stored to \"/tmp/"), "{}", run.stderr);
    assert!(run.stderr.contains("Error from server (AlreadyExists)"), "{}", run.stderr);

    // A file that does not parse is reopened with the reason; unchanged again, it is given up.
    let broken = "if grep -q 'was not valid' \"$1\"; then exit 0; fi\nsed -i 's/^kind: .*/kind: [/' \"$1\"";
    let (t, o) = editors(dir, "broken", broken);
    let (run, seen) = pair.same(Some((&t, &o)), &["create", "--edit", "-f", f, "-n", "{ns}"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with("error: deployments.apps \"web\" is invalid\n"), "{}", run.stderr);
    assert!(run.stderr.contains("Edit cancelled, no valid changes were saved."), "{}", run.stderr);
    assert!(seen.unwrap().0.contains("# deployments.apps \"web\" was not valid:"));

    // JSON, with Windows line endings: no header, CRLF throughout (kubectl 1.33 takes the flag
    // in create but never passes it to its editor).
    let (t, o) = editors(dir, "rename", "sed -i 's/\"web\"/\"web-json\"/' \"$1\"");
    let args = ["create", "--edit", "-f", f, "-n", "{ns}", "-o", "json", "--windows-line-endings"];
    let (run, seen) = pair.same(Some((&t, &o)), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (seen, theirs) = seen.unwrap();
    assert!(!theirs.contains('\r'), "kubectl 1.33 ignores the flag in create: {theirs:?}");
    assert!(seen.starts_with("{\r\n"), "{seen:?}");
    assert_eq!(seen.matches('\n').count(), seen.matches("\r\n").count(), "{seen:?}");

    // A namespace other than -n's is refused after the edit.
    let (t, o) =
        editors(dir, "elsewhere", "sed -i 's/namespace: .*/namespace: default/; s/name: web$/name: web-2/' \"$1\"");
    let (run, _) = pair.same(Some((&t, &o)), &["create", "--edit", "-f", f, "-n", "{ns}"]);
    assert!(run.stderr.contains("does not match the namespace"), "{}", run.stderr);
}

#[test]
fn create_raw_posts_the_file_to_the_plane() {
    let plane = Plane::start();
    let pair = Pair { plane: &plane };
    let ns = |name: &str| {
        format!("{{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{{\"name\":\"raw-{name}\"}}}}")
    };
    plane.file("raw-ours.json", &ns("ours"));
    plane.file("raw-theirs.json", &ns("theirs"));
    let file = format!("{}/raw-{{ns}}.json", plane.dir.path().display());
    let created = |run: &Run| -> Value {
        let mut v: Value = serde_json::from_str(&run.stdout.replace("theirs", "ours")).unwrap();
        let meta = v["metadata"].as_object_mut().unwrap();
        for k in ["uid", "resourceVersion", "creationTimestamp", "managedFields"] {
            meta.remove(k);
        }
        v
    };
    let run = |args: &[String]| {
        let mut cmd = common::karmadactl(plane.dir.path());
        cmd.env("KUBECONFIG", &plane.kubeconfig).args(args);
        common::run(cmd)
    };
    let args = |ns: &str, raw: &str| -> Vec<String> {
        vec!["create".into(), "--raw".into(), raw.into(), "-f".into(), file.replace("{ns}", ns)]
    };
    let ours = run(&args("ours", "/api/v1/namespaces"));
    let theirs = plane.kubectl_version_run(
        "1.33",
        &args("theirs", "/api/v1/namespaces").iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!((ours.code, theirs.code), (0, 0), "{} / {}", ours.stderr, theirs.stderr);
    assert_eq!(created(&ours), created(&theirs));
    assert_eq!(created(&ours)["metadata"]["name"], "raw-ours");
    // Another host in the URI still reaches the plane's own path.
    let elsewhere = run(&args("ours", "https://elsewhere.invalid/api/v1/namespaces"));
    assert_eq!(elsewhere.code, 1);
    assert!(elsewhere.stderr.contains("AlreadyExists"), "{}", elsewhere.stderr);

    let refusals: &[&[&str]] = &[
        &["create", "--raw", "/api/v1/namespaces"],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file, "-f", &file],
        &["create", "--raw", "/api/v1/namespaces", "-f", "https://example.invalid/x.json"],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file, "-R"],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file, "-l", "a=b"],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file, "-o", "yaml"],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file, "--edit"],
        &["create", "--raw", "api/v1/namespaces", "-f", &file],
        &["create", "--raw", "/api/v1/namespaces", "-f", "/nonexistent/file.json"],
        &["create", "--raw", "/api/v1/namespaces/raw-{ns}/nothing", "-f", &file],
        &["create", "--raw", "/api/v1/namespaces", "-f", &file],
    ];
    for args in refusals {
        let (run, _) = pair.same(None, args);
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn create_k_is_refused_as_apply_k_is() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut cmd = common::karmadactl(home.path());
        cmd.args(args);
        common::run(cmd)
    };
    let create = run(&["create", "-k", "dir"]);
    let apply = run(&["apply", "-k", "dir"]);
    assert_eq!((create.code, apply.code), (2, 2), "{} / {}", create.stderr, apply.stderr);
    assert_eq!(create.stderr.replace("create -k", "apply -k"), apply.stderr);
    assert!(create.stderr.contains("kubectl kustomize"), "{}", create.stderr);
}

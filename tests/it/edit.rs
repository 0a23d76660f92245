//! `edit` does what kubectl 1.33 does on the same plane, both driven by the same scripted
//! editor (an `sh` script running `sed` on the file): the same lines on stdout and stderr, the
//! same exit code and the same objects afterwards; a cancelled edit, an edit the server finds
//! invalid (the file reopened with the reasons, then given up) and a file that is not YAML.
//! kubectl works in namespace `theirs`, karmadactl in `ours`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::fleet::Fleet;
use crate::common::{Run, run};

/// An editor script running `sed -i EXPR` on the file it is given.
fn editor(dir: &Path, name: &str, sed: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\nsed -i '{sed}' \"$1\"\n")).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

/// The temporary file names differ (random, and named after each binary), and so do the
/// identities and versions of the two objects printed with `-o json`.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::new();
    for line in s.replace("theirs", "ours").lines() {
        let volatile = ["\"uid\":", "\"resourceVersion\":", "\"creationTimestamp\":"];
        let line = match line.find("\"/tmp/") {
            Some(i) => format!("{}\"TMPFILE\"", &line[..i]),
            None if volatile.iter().any(|v| line.trim_start().starts_with(v)) => "VOLATILE".to_string(),
            None => line.to_string(),
        };
        out.push_str(&line.replace("kubectl.1.33", "karmadactl"));
        out.push('\n');
    }
    out
}

struct Pair<'a> {
    fleet: &'a Fleet,
}

impl Pair<'_> {
    fn kubectl(&self, args: &[&str]) -> Run {
        self.fleet.k("karmada-apiserver", args)
    }

    /// Runs `edit ARGS -n NS` with both tools and `editor` as KUBE_EDITOR; checks they agree.
    fn same(&self, editor: &Path, args: &[&str]) -> Run {
        let with = |ns: &str| {
            let mut all = vec!["edit".to_string()];
            all.extend(args.iter().map(|a| a.to_string()));
            all.extend(["-n".to_string(), ns.to_string()]);
            all
        };
        let theirs_args = with("theirs");
        let mut theirs =
            self.fleet.k_command("karmada-apiserver", &theirs_args.iter().map(String::as_str).collect::<Vec<_>>());
        theirs.env("KUBE_EDITOR", editor);
        let theirs = run(theirs);
        let mut ours = crate::common::karmadactl(self.fleet.home.path());
        ours.env("KUBECONFIG", &self.fleet.kubeconfig).env("KUBE_EDITOR", editor).args(with("ours"));
        let ours = run(ours);
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(text(&ours.stdout), text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(text(&ours.stderr), text(&theirs.stderr), "stderr of {args:?}");
        self.same_objects();
        ours
    }

    fn objects(&self, ns: &str) -> Value {
        let run = self.kubectl(&["get", "deployments,configmaps", "-n", ns, "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut list: Value = serde_json::from_str(&run.stdout.replace("theirs", "ours")).unwrap();
        for item in list["items"].as_array_mut().unwrap() {
            let meta = item["metadata"].as_object_mut().unwrap();
            for k in ["resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"] {
                meta.remove(k);
            }
            item.as_object_mut().unwrap().remove("status");
        }
        list["items"].take()
    }

    fn same_objects(&self) {
        assert_eq!(self.objects("ours"), self.objects("theirs"));
    }
}

#[test]
fn edit_does_what_kubectl_does() {
    let fleet = Fleet::up(1);
    let pair = Pair { fleet: &fleet };
    for ns in ["theirs", "ours"] {
        for args in [
            &["create", "namespace", ns][..],
            &["create", "deployment", "web", "--image=nginx", "-n", ns],
            &["create", "configmap", "c1", "--from-literal=a=b", "-n", ns],
            &["label", "configmap", "c1", "l=v", "-n", ns],
        ] {
            let run = pair.kubectl(args);
            assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        }
    }
    let dir = fleet.home.path();
    let scale = editor(dir, "scale.sh", "s/replicas: 1$/replicas: 3/");
    let edited = pair.same(&scale, &["deployment/web"]);
    assert_eq!((edited.stdout.as_str(), edited.stderr.as_str()), ("deployment.apps/web edited\n", ""));
    // --windows-line-endings: the file comes with CRLF line endings (the script changes it only
    // then) and is read back with them.
    let crlf = dir.join("crlf.sh");
    std::fs::write(
        &crlf,
        "#!/bin/sh\ngrep -q \"$(printf '\\r')\" \"$1\" && sed -i 's/replicas: 3/replicas: 4/' \"$1\"\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&crlf, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let windows = pair.same(&crlf, &["deployment/web", "--windows-line-endings"]);
    assert_eq!((windows.stdout.as_str(), windows.stderr.as_str()), ("deployment.apps/web edited\n", ""));
    // Nothing changed in the file: nothing is sent.
    let noop = editor(dir, "noop.sh", "s/^nothing-matches$//");
    let cancelled = pair.same(&noop, &["deploy", "web"]);
    assert_eq!((cancelled.code, cancelled.stderr.as_str()), (0, "Edit cancelled, no changes made.\n"));
    // The patch shown; JSON editing.
    let data = editor(dir, "data.sh", "s/\"a\": \"b\"/\"a\": \"c\"/");
    let json = pair.same(&data, &["cm", "c1", "-o", "json", "--output-patch"]);
    assert!(json.stdout.starts_with("Patch: {\"data\":{\"a\":\"c\"}"), "{}", json.stdout);
    let yaml_data = editor(dir, "yaml-data.sh", "s/^  a: c$/  a: d/");
    assert_eq!(pair.same(&yaml_data, &["cm/c1", "--output-patch"]).stdout.lines().last(), Some("configmap/c1 edited"));
    // An invalid label: the server refuses, the file reopens with the reasons, the editor
    // changes nothing more, and the edit gives up keeping the file.
    let bad_label = editor(dir, "bad-label.sh", "s/^    l: v$/    l: \"a b\"/");
    let invalid = pair.same(&bad_label, &["cm", "c1"]);
    assert_eq!(invalid.code, 1);
    assert!(invalid.stderr.starts_with("error: configmaps \"c1\" is invalid\n"), "{}", invalid.stderr);
    assert!(invalid.stderr.ends_with("error: Edit cancelled, no valid changes were saved.\n"), "{}", invalid.stderr);
    // A file that is no longer YAML is reopened too, then given up.
    let broken = editor(dir, "broken.sh", "s/^kind: ConfigMap$/kind: [ConfigMap/");
    let syntax = pair.same(&broken, &["cm", "c1"]);
    assert_eq!(syntax.code, 1);
    // Changing the name is refused.
    let rename = editor(dir, "rename.sh", "s/^  name: c1$/  name: c9/");
    let renamed = pair.same(&rename, &["cm", "c1"]);
    assert!(renamed.stderr.contains("At least one of apiVersion, kind and name was changed"), "{}", renamed.stderr);
    // A custom resource takes a JSON merge patch.
    for ns in ["theirs", "ours"] {
        fleet.apply(&format!(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: pp\n  namespace: {ns}\nspec:\n  priority: 1\n  resourceSelectors:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: unrelated\n"
        ));
    }
    let priority = editor(dir, "priority.sh", "s/^  priority: 1$/  priority: 2/");
    let pp = pair.same(&priority, &["pp", "pp", "--output-patch"]);
    assert_eq!(pp.stdout, "Patch: {\"spec\":{\"priority\":2}}\npropagationpolicy.policy.karmada.io/pp edited\n");
    for ns in ["theirs", "ours"] {
        assert_eq!(fleet.plane(&["get", "pp", "pp", "-n", ns, "-o", "jsonpath={.spec.priority}"]), "2");
    }
    // Nothing to edit.
    for args in [&[][..], &["cm", "nope"], &["nosuch", "x"]] {
        let run = pair.same(&scale, args);
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}");
    }
}

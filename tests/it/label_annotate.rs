//! `label` and `annotate` do what kubectl 1.33 does on the same server: the same lines on
//! stdout and stderr, the same exit code, and the same objects afterwards. kubectl works in
//! namespace `theirs`, karmadactl in `ours`, each holding the same objects, on the plane and
//! on a member through the plane's cluster proxy.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::Run;
use crate::common::fleet::Fleet;

/// One server seen by both tools: the plane, or a member through the proxy.
struct Twins<'a> {
    fleet: &'a Fleet,
    /// kubectl's kubeconfig for the member (`None`: the plane).
    proxy: Option<PathBuf>,
    member: Option<&'a str>,
}

impl<'a> Twins<'a> {
    fn plane(fleet: &'a Fleet) -> Self {
        Twins { fleet, proxy: None, member: None }
    }

    fn member(fleet: &'a Fleet, name: &'a str) -> Self {
        Twins { fleet, proxy: Some(fleet.proxy_kubeconfig(name)), member: Some(name) }
    }

    fn kubectl(&self, args: &[&str]) -> Run {
        match &self.proxy {
            Some(p) => self.fleet.k_with(p, args),
            None => self.fleet.k("karmada-apiserver", args),
        }
    }

    fn ours(&self, args: &[&str]) -> Run {
        let mut all = args.to_vec();
        if let Some(m) = self.member {
            all.extend(["-s", "members", "-C", m]);
        }
        self.fleet.karmadactl(&all)
    }

    /// The same objects in both namespaces. (The plane's namespaces reach its members by
    /// themselves, so a member may have them already.)
    fn seed(&self) {
        for ns in ["theirs", "ours"] {
            let created = self.kubectl(&["create", "namespace", ns]);
            assert!(created.code == 0 || created.stderr.contains("AlreadyExists"), "{}", created.stderr);
            for args in [
                &["create", "deployment", "web", "--image=nginx", "-n", ns][..],
                &["create", "configmap", "c1", "--from-literal=a=b", "-n", ns],
                &["create", "configmap", "c2", "-n", ns],
            ] {
                let run = self.kubectl(args);
                assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
            }
        }
    }

    /// The Deployments and ConfigMaps of a namespace without what differs between any two
    /// objects (identity, versions, times, the namespace itself).
    fn objects(&self, ns: &str) -> Value {
        let run = self.kubectl(&["get", "deployments,configmaps", "-n", ns, "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut list: Value = serde_json::from_str(&run.stdout).unwrap();
        for item in list["items"].as_array_mut().unwrap() {
            let meta = item["metadata"].as_object_mut().unwrap();
            for k in ["resourceVersion", "uid", "creationTimestamp", "managedFields", "namespace"] {
                meta.remove(k);
            }
            item.as_object_mut().unwrap().remove("status");
        }
        list["items"].take()
    }

    /// Runs `args` with both tools, each in its namespace, and checks they agree; returns
    /// karmadactl's run.
    fn same(&self, args: &[&str]) -> Run {
        let with_ns = |ns: &'static str| {
            let mut all = args.to_vec();
            all.extend(["-n", ns]);
            all
        };
        let theirs = self.kubectl(&with_ns("theirs"));
        let ours = self.ours(&with_ns("ours"));
        let text = |s: &str| s.replace("theirs", "ours").replace("kubectl.1.33", "karmadactl");
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(ours.stdout, text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(ours.stderr, text(&theirs.stderr), "stderr of {args:?}");
        assert_eq!(self.objects("ours"), self.objects("theirs"), "objects after {args:?}");
        ours
    }
}

/// The scenario both tools go through, in order (each step sees the state the last left).
fn label_and_annotate_like_kubectl(twins: &Twins, manifest: &str) {
    twins.seed();
    let lines = |run: Run| run.stdout;
    // Labels: new, clashing, overwritten, removed (one missing), dry runs, listings.
    assert_eq!(lines(twins.same(&["label", "deployment", "web", "tier=front"])), "deployment.apps/web labeled\n");
    let clash = twins.same(&["label", "deploy", "web", "tier=back"]);
    assert_eq!(clash.stderr, "error: 'tier' already has a value (front), and --overwrite is false\n");
    twins.same(&["label", "deploy/web", "tier=back", "--overwrite"]);
    let removed = twins.same(&["label", "deploy", "web", "tier-", "nope-"]);
    assert_eq!(removed.stdout, "label \"nope\" not found.\ndeployment.apps/web unlabeled\n");
    assert_eq!(
        lines(twins.same(&["label", "deploy", "web", "x=1", "--dry-run=server"])),
        "deployment.apps/web labeled (server dry run)\n"
    );
    twins.same(&["label", "deploy", "web", "x=1", "--dry-run=client", "-o", "name"]);
    twins.same(&["label", "deploy", "web", "--list"]);
    twins.same(&["label", "configmaps", "--all", "env=test"]);
    twins.same(&["label", "cm", "-l", "env=test", "--list"]);
    twins.same(&["label", "cm", "-l", "env=test", "team=a", "-o", "name"]);
    // Several objects, one missing: the others change, the missing one is reported at the end.
    let mixed = twins.same(&["label", "deploy/web", "cm/nope", "cm/c1", "y=1"]);
    assert_eq!(mixed.stderr, "Error from server (NotFound): configmaps \"nope\" not found\n");
    twins.same(&["label", "-f", manifest, "from-file=yes"]);
    let stale = twins.same(&["label", "deploy", "web", "z=1", "--resource-version=1"]);
    assert!(stale.stderr.starts_with("Error from server (Conflict): "), "{}", stale.stderr);
    // Annotations.
    twins.same(&["annotate", "deploy", "web", "note=hi"]);
    let clash = twins.same(&["annotate", "deploy", "web", "note=bye"]);
    assert_eq!(
        clash.stderr,
        "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (hi)\n"
    );
    assert_eq!(
        lines(twins.same(&["annotate", "deploy", "web", "note=bye", "--overwrite", "-o", "name"])),
        "deployment.apps/web\n"
    );
    twins.same(&["annotate", "cm", "c1", "only=one"]);
    twins.same(&["annotate", "cm", "c1", "--list"]);
    twins.same(&["annotate", "cm", "c1", "--list", "-o", "yaml"]);
    twins.same(&["annotate", "deploy", "web", "note-", "gone-"]);
    twins.same(&["annotate", "cm", "--all", "bulk=1", "--dry-run=server"]);
    twins.same(&["annotate", "cm", "-l", "team=a", "bulk=2"]);
    twins.same(&["annotate", "-f", manifest, "from-file=yes", "-o", "name"]);
}

fn manifest(fleet: &Fleet) -> String {
    let file = fleet.home.path().join("c2.yaml");
    std::fs::write(&file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c2\n").unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn on_the_plane_and_on_a_member_label_and_annotate_do_what_kubectl_does() {
    let fleet = Fleet::up(1);
    let file = manifest(&fleet);
    label_and_annotate_like_kubectl(&Twins::plane(&fleet), &file);
    label_and_annotate_like_kubectl(&Twins::member(&fleet, "member1"), &file);
    // The member's objects are the member's: the plane has no namespace `ours`.
    let plane = fleet.k("karmada-apiserver", &["get", "namespace", "ours", "-o", "name"]);
    assert_eq!(plane.code, 0, "{}", plane.stderr);
    let member = fleet.karmadactl(&["label", "cm", "c1", "--list", "-n", "ours", "-s", "members", "-C", "member1"]);
    assert_eq!((member.code, member.stdout.as_str()), (0, "env=test\nteam=a\ny=1\n"), "{}", member.stderr);
}

#[test]
fn bad_arguments_are_refused_as_kubectl_refuses_them_and_change_nothing() {
    let fleet = Fleet::up(1);
    let twins = Twins::plane(&fleet);
    twins.seed();
    let before = twins.objects("ours");
    let cases: &[&[&str]] = &[
        &["label", "deploy", "a=b"],
        &["label", "deploy", "nope", "a=b"],
        &["label", "a=b"],
        &["label", "deploy", "web"],
        &["label", "deploy", "web", "a=b=c"],
        &["label", "deploy", "web", "a=b", "x", "c=d"],
        &["label", "deploy", "web", "a=b", "a-"],
        &["label", "deploy", "web", "a=@@"],
        &["label", "deploy", "web", "--list", "-o", "name"],
        &["label", "deploy", "--all", "-l", "a=b", "q=1"],
        &["label", "deploy", "web", "-l", "a=b", "q=1"],
        &["label", "-A", "deploy", "web", "q=1"],
        &["label", "deploy,cm", "--all", "r=1", "--resource-version=5"],
        &["label", "nosuch", "x", "z=1"],
        &["label", "deploy", "web", "q=4", "--dry-run=bogus"],
        &["label", "deploy", "web", "bad key=1"],
        &["annotate", "cm", "c1", "=3"],
        &["annotate", "cm", "c1", "w=3", "w-"],
        &["annotate", "cm", "c1", "=x", "y"],
    ];
    for args in cases {
        let run = twins.same(args);
        assert_eq!(run.code, 1, "{args:?}");
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
        assert!(!run.stderr.is_empty(), "{args:?} said nothing");
    }
    assert_eq!(twins.objects("ours"), before, "a refused command changed something");

    // Where this tool differs from kubectl: the member scope needs a cluster that exists, and
    // what is not built says so with exit code 2 before anything is read.
    let missing = fleet.karmadactl(&["label", "cm", "c1", "a=1", "-n", "ours", "-s", "members"]);
    assert_eq!((missing.code, missing.stderr.lines().next()), (1, Some("error: must specify a member cluster")));
    let unknown = fleet.karmadactl(&["annotate", "cm", "c1", "a=1", "-n", "ours", "-s", "members", "-C", "nope"]);
    assert_eq!(unknown.stderr.lines().next(), Some("error: clusters.cluster.karmada.io \"nope\" not found"));
    for args in [&["label", "-k", "dir", "a=1"][..], &["annotate", "cm", "c1", "a=1", "-o", "jsonpath={.a}"]] {
        let run = fleet.karmadactl(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("is not built yet"), "{}", run.stderr);
    }
    let wide = fleet.karmadactl(&["label", "cm", "c1", "a=1", "-o", "wide", "-n", "ours"]);
    assert_eq!(wide.code, 1);
    assert!(wide.stderr.starts_with("error: unable to match a printer suitable for the output format \"wide\""));
    assert_eq!(twins.objects("ours"), before, "a refused command changed something");
}

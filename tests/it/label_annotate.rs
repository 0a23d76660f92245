//! `label` and `annotate` do what kubectl 1.33 does on the same server: the same lines on
//! stdout and stderr, the same exit code, and the same objects afterwards. kubectl works in
//! namespace `theirs`, karmadactl in `ours`, each holding the same objects, on the plane and
//! on a member through the plane's cluster proxy.

use crate::common::Run;
use crate::common::fleet::Fleet;
use crate::common::twins::Twins;

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

//! `patch` and `delete` do what kubectl 1.33 does on the same server: the same lines on stdout
//! and stderr, the same exit code, and the same objects afterwards, on the plane and on a
//! member through the plane's cluster proxy; and `delete cluster NAME` removes a member as
//! upstream's does, its execution namespace and Works going with it.

use crate::common::fleet::Fleet;
use crate::common::twins::Twins;

/// A file naming ConfigMap c2 (no namespace: `-n` chooses it).
fn manifest(fleet: &Fleet) -> String {
    let file = fleet.home.path().join("c2.yaml");
    std::fs::write(&file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c2\n  labels:\n    app: c\n").unwrap();
    file.to_str().unwrap().to_string()
}

/// Waits until the object keeps its resourceVersion for a second in both namespaces.
fn settled(twins: &Twins, object: &str) {
    let versions = || {
        ["theirs", "ours"]
            .map(|ns| twins.kubectl(&["get", object, "-n", ns, "-o", "jsonpath={.metadata.resourceVersion}"]).stdout)
    };
    let mut last = versions();
    twins.fleet.wait(&format!("{object} settled"), || {
        std::thread::sleep(std::time::Duration::from_secs(1));
        let now = versions();
        let same = now == last;
        last = now;
        if same { Ok(()) } else { Err(format!("{last:?}")) }
    });
}

fn patch_like_kubectl(twins: &Twins, manifest: &str) {
    twins.seed();
    let replicas = r#"{"spec":{"replicas":2}}"#;
    assert_eq!(twins.same(&["patch", "deployment", "web", "-p", replicas]).stdout, "deployment.apps/web patched\n");
    // "(no change)" compares the object read before the patch with the answer: a member's
    // workload simulation still writing the Deployment's status in between would make it a
    // change, so both copies must have settled first.
    settled(twins, "deploy/web");
    assert_eq!(
        twins.same(&["patch", "deploy/web", "-p", replicas]).stdout,
        "deployment.apps/web patched (no change)\n"
    );
    twins.same(&["patch", "deploy", "web", "--type=merge", "-p", r#"{"spec":{"replicas":3}}"#, "-o", "name"]);
    // kubectl's patch never says "(dry run)": its operation replaces the suffix.
    let json = r#"[{"op":"replace","path":"/spec/replicas","value":4}]"#;
    let dry = twins.same(&["patch", "deploy", "web", "--type", "json", "-p", json, "--dry-run=server"]);
    assert_eq!(dry.stdout, "deployment.apps/web patched\n");
    twins.same(&["patch", "deploy", "web", "--type", "json", "-p", json, "--dry-run=client", "-o", "name"]);
    let scale = twins.same(&["patch", "deploy", "web", "--subresource=scale", "--type=merge", "-p", replicas]);
    assert_eq!(scale.stdout, "scale.autoscaling/web patched\n");
    twins.same(&["patch", "cm", "c1", "-p", "data:\n  w: z\n"]);
    twins.same(&["patch", "-f", manifest, "--type=merge", "-p", r#"{"data":{"from":"file"}}"#]);
    twins.same(&["patch", "--local", "-f", manifest, "-p", r#"{"data":{"k":"v"}}"#, "-o", "json"]);
    let patch_file = twins.fleet.home.path().join("patch.yaml");
    std::fs::write(&patch_file, "metadata:\n  labels:\n    patched: \"yes\"\n").unwrap();
    twins.same(&["patch", "cm", "c1", "--patch-file", patch_file.to_str().unwrap()]);
    // Refusals: before anything is read, and the server's.
    let missing = twins.same(&["patch", "cm", "nope", "-p", "{}"]);
    assert_eq!(missing.stderr, "Error from server (NotFound): configmaps \"nope\" not found\n");
    for args in [
        &["patch", "cm", "c1"][..],
        &["patch", "cm", "c1", "-p", "{}", "--patch-file", "x"],
        &["patch", "-p", "{}"],
        &["patch", "cm", "-p", "{}"],
        &["patch", "cm", "c1", "-p", "{}", "--type=apply"],
        &["patch", "cm", "c1", "--patch-file", "/nonexistent/p.json"],
        &["patch", "cm", "c1", "-p", "[1]"],
        &["patch", "cm", "c1", "-p", "{}", "--local"],
        &["patch", "nosuch", "x", "-p", "{}"],
        &["patch", "deploy", "web", "--type=json", "-p", r#"[{"op":"remove","path":"/spec/nope"}]"#],
    ] {
        let run = twins.same(args);
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}");
        assert!(
            run.stderr.starts_with("error: ")
                || run.stderr.starts_with("Error from server")
                || run.stderr.starts_with("The request"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

fn delete_like_kubectl(twins: &Twins, manifest: &str) {
    twins.seed();
    assert_eq!(twins.same(&["delete", "configmap", "c1"]).stdout, "configmap \"c1\" deleted\n");
    let gone = twins.same(&["delete", "cm", "c1"]);
    assert_eq!((gone.code, gone.stderr.as_str()), (1, "Error from server (NotFound): configmaps \"c1\" not found\n"));
    assert_eq!(twins.same(&["delete", "cm", "c1", "--ignore-not-found"]).code, 0);
    let dry = twins.same(&["delete", "cm/c2", "--dry-run=server"]);
    assert_eq!(dry.stdout, "configmap \"c2\" deleted (server dry run)\n");
    assert_eq!(twins.same(&["delete", "cm", "c2", "--dry-run=client", "-o", "name"]).stdout, "configmap/c2\n");
    assert_eq!(twins.same(&["delete", "cm", "-l", "app=none"]).stdout, "No resources found\n");
    let deprecated = twins.same(&["delete", "cm", "nope", "--cascade=false", "--ignore-not-found"]);
    assert!(deprecated.stderr.contains("--cascade=false is deprecated"), "{}", deprecated.stderr);
    // A finalizer nobody removes: both wait, and give up after --timeout.
    for ns in ["theirs", "ours"] {
        let run = twins.kubectl(&["create", "configmap", "held", "-n", ns]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let run = twins.kubectl(&[
            "patch",
            "cm",
            "held",
            "-n",
            ns,
            "-p",
            r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let held = twins.same(&["delete", "cm", "held", "--timeout=1s"]);
    assert_eq!(held.stdout, "configmap \"held\" deleted\n");
    assert_eq!(held.stderr, "error: timed out waiting for the condition on configmaps/held\n");
    twins.same(&["delete", "cm", "held", "--wait=false"]);
    twins.same(&["patch", "cm", "held", "--type=json", "-p", r#"[{"op":"remove","path":"/metadata/finalizers"}]"#]);
    // Files, --all, the Deployment with its dependents waited for.
    twins.same(&["delete", "-f", manifest]);
    let from_file = twins.same(&["delete", "-f", manifest]);
    assert!(from_file.stderr.contains("error when deleting"), "{}", from_file.stderr);
    twins.same(&["delete", "deploy", "web", "--cascade=foreground", "--timeout=60s"]);
    for args in [
        &["delete"][..],
        &["delete", "cm"],
        &["delete", "cm", "x", "-o", "wide"],
        &["delete", "cm", "x", "--now", "--grace-period=2"],
        &["delete", "cm", "x", "--force", "--grace-period=3"],
        &["delete", "cm", "--all", "-l", "a=b"],
        &["delete", "cm", "x", "--cascade=sideways"],
        &["delete", "nosuch", "x"],
        &["delete", "-A", "cm", "x"],
    ] {
        let run = twins.same(args);
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {}", run.stderr);
    }
    for ns in ["theirs", "ours"] {
        let run = twins.kubectl(&["create", "configmap", "c3", "-n", ns]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    assert_eq!(twins.same(&["delete", "cm", "--all"]).stdout, "configmap \"c3\" deleted\n");
}

#[test]
fn on_the_plane_and_on_a_member_patch_and_delete_do_what_kubectl_does() {
    let fleet = Fleet::up(1);
    let file = manifest(&fleet);
    for twins in [Twins::plane(&fleet), Twins::member(&fleet, "member1")] {
        patch_like_kubectl(&twins, &file);
        for ns in ["theirs", "ours"] {
            let run = twins.kubectl(&["delete", "deploy,cm", "--all", "-n", ns]);
            assert_eq!(run.code, 0, "{}", run.stderr);
        }
        delete_like_kubectl(&twins, &file);
    }
    // Custom resources take no strategic merge patch, on the server or here.
    let twins = Twins::plane(&fleet);
    for ns in ["theirs", "ours"] {
        let pp = format!(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: pp\n  namespace: {ns}\nspec:\n  resourceSelectors:\n  - apiVersion: v1\n    kind: ConfigMap\n"
        );
        fleet.apply(&pp);
    }
    let smp = twins.same(&["patch", "pp", "pp", "-p", r#"{"spec":{"priority":1}}"#]);
    assert!(smp.stderr.starts_with("error: application/strategic-merge-patch+json is not supported by policy.karmada.io/v1alpha1, Kind=PropagationPolicy: "), "{}", smp.stderr);
    let local = twins.same(&["patch", "pp", "pp", "-p", r#"{"spec":{"priority":1}}"#, "--dry-run=client"]);
    assert_eq!(
        local.stderr,
        "error: strategic merge patch is not supported for policy.karmada.io/v1alpha1, Kind=PropagationPolicy locally, try --type merge\n"
    );
    twins.same(&["patch", "pp", "pp", "--type=merge", "-p", r#"{"spec":{"priority":1}}"#]);
    twins.same(&["delete", "pp", "pp"]);
}

#[test]
fn delete_cluster_removes_the_member_as_upstream_does() {
    let fleet = Fleet::up(2);
    fleet.apply("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: default\n");
    fleet.apply("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: shared\n  namespace: default\nspec:\n  resourceSelectors:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: shared\n  placement:\n    clusterAffinity:\n      clusterNames: [member1, member2]\n");
    for member in ["member1", "member2"] {
        fleet.wait(&format!("the ConfigMap's Work for {member}"), || {
            let works = fleet.names("karmada-apiserver", &["works", "-n", &format!("karmada-es-{member}")]);
            if works.iter().any(|w| w.starts_with("shared-")) { Ok(()) } else { Err(format!("works: {works:?}")) }
        });
    }
    // kubectl removes member2, karmadactl member1: the same line, and each returns only once
    // the Cluster is gone (its finalizer waits for the execution namespace to go).
    let theirs = fleet.k("karmada-apiserver", &["delete", "cluster", "member2"]);
    let ours = fleet.karmadactl(&["delete", "cluster", "member1"]);
    assert_eq!((theirs.code, ours.code), (0, 0), "{} / {}", theirs.stderr, ours.stderr);
    assert_eq!(ours.stdout, "cluster.cluster.karmada.io \"member1\" deleted\n");
    assert_eq!(ours.stdout, theirs.stdout.replace("member2", "member1"));
    assert_eq!(ours.stderr, "");
    let clusters = fleet.names("karmada-apiserver", &["clusters"]);
    assert!(clusters.is_empty(), "clusters left: {clusters:?}");
    for member in ["member1", "member2"] {
        let es = fleet.k("karmada-apiserver", &["get", "namespace", &format!("karmada-es-{member}")]);
        assert!(es.stderr.contains("NotFound"), "{member}'s execution namespace: {} {}", es.stdout, es.stderr);
        let works = fleet.k("karmada-apiserver", &["get", "works", "-A", "-o", "name"]);
        assert_eq!((works.code, works.stdout.as_str()), (0, ""), "{}", works.stderr);
    }
    // Once gone, the cluster is not found again, as kubectl says it.
    let again = fleet.karmadactl(&["delete", "cluster", "member1"]);
    assert_eq!(
        (again.code, again.stderr.as_str()),
        (1, "Error from server (NotFound): clusters.cluster.karmada.io \"member1\" not found\n")
    );
}

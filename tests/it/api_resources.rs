//! `api-resources` and `api-versions` print what kubectl 1.33 prints for the same server: the
//! control plane, and a member through the plane's cluster proxy (`-s members --cluster`).

use crate::common::fleet::Fleet;

fn same(fleet: &Fleet, ours: &[&str], kubectl_kubeconfig: Option<&std::path::Path>, theirs: &[&str]) {
    let mine = fleet.karmadactl(ours);
    assert_eq!(mine.code, 0, "karmadactl {ours:?}: {}", mine.stderr);
    let reference = match kubectl_kubeconfig {
        Some(k) => fleet.k_with(k, theirs),
        None => fleet.k("karmada-apiserver", theirs),
    };
    assert_eq!(reference.code, 0, "kubectl {theirs:?}: {}", reference.stderr);
    assert!(!mine.stdout.is_empty());
    assert_eq!(mine.stdout, reference.stdout, "karmadactl {ours:?} against kubectl {theirs:?}");
}

#[test]
fn the_plane_and_a_member_list_what_kubectl_lists() {
    let fleet = Fleet::up(1);
    for args in [
        &["api-resources"][..],
        &["api-resources", "-o", "wide"],
        &["api-resources", "-o", "name"],
        &["api-resources", "--sort-by=kind", "--no-headers"],
        &["api-resources", "--namespaced=false", "--api-group=cluster.karmada.io"],
        &["api-resources", "--verbs=list,watch,create", "--categories=karmada-io"],
        &["api-versions"],
    ] {
        same(&fleet, args, None, args);
    }
    // The plane serves Karmada's kinds; the member does not, and says it is a different server.
    let plane = fleet.karmadactl(&["api-resources", "-o", "name"]).stdout;
    assert!(plane.lines().any(|l| l == "propagationpolicies.policy.karmada.io"), "{plane}");

    let proxy = fleet.proxy_kubeconfig("member1");
    for args in [&["api-resources"][..], &["api-resources", "-o", "wide", "--sort-by=name"], &["api-versions"]] {
        let mut ours = args.to_vec();
        ours.extend(["-s", "members", "--cluster", "member1"]);
        same(&fleet, &ours, Some(&proxy), args);
    }
    let member = fleet.karmadactl(&["api-resources", "-o", "name", "--operation-scope=members", "--cluster=member1"]);
    assert!(!member.stdout.contains("policy.karmada.io"), "{}", member.stdout);
    assert!(member.stdout.lines().any(|l| l == "deployments.apps"), "{}", member.stdout);
}

#[test]
fn bad_scopes_and_flags_are_refused_before_any_listing() {
    let fleet = Fleet::up(1);
    let cases: &[(&[&str], &str)] = &[
        (&["api-resources", "-s", "members"], "error: must specify a member cluster"),
        (&["api-versions", "--operation-scope=members"], "error: must specify a member cluster"),
        (
            &["api-resources", "-s", "members", "--cluster", "nope"],
            "error: clusters.cluster.karmada.io \"nope\" not found",
        ),
        (
            &["api-versions", "-s", "members", "--cluster", "nope"],
            "error: clusters.cluster.karmada.io \"nope\" not found",
        ),
        (&["api-resources", "--sort-by=age"], "error: --sort-by accepts only name or kind"),
        (&["api-resources", "-o", "foo"], "error: unable to match a printer suitable for the output format \"foo\""),
        (&["api-resources", "-s", "all"], "not support operation scope: all"),
        (&["api-resources", "-s", "everything"], "not support OperationScope: everything"),
    ];
    for (args, want) in cases {
        let run = fleet.karmadactl(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
        assert!(run.stderr.starts_with("error: ") && run.stderr.contains(want), "{args:?}: {}", run.stderr);
    }
}

//! `explain` prints what kubectl 1.33 prints for the same server, byte for byte and with the
//! same exit code: built-in kinds, Karmada's kinds and a CRD's kind on the control plane, a
//! member through the plane's cluster proxy (`-s members -C`), and kubectl's errors for an
//! unknown type or field. What kubectl does not have (`plaintext-openapiv2`) is refused.

use crate::common::Run;
use crate::common::fleet::Fleet;

/// A CRD with what the template prints specially: a required field, enums (more values than
/// the list view shows), nested objects, an array of objects, a map and a field without a
/// description.
const WIDGETS: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wd], listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget is a made-up kind whose schema holds what explain prints in its own way.
        properties:
          spec:
            type: object
            description: What the widget should be.
            required: [size]
            properties:
              size:
                type: string
                description: How big the widget is. One of the five sizes; anything else is refused by the server when the object is created or updated.
                enum: [XS, S, M, L, XL]
              color:
                type: string
                enum: ["", red]
              parts:
                type: array
                description: The parts, in assembly order.
                items:
                  type: object
                  properties:
                    name: {type: string, description: The part's name.}
                    count: {type: integer, format: int32}
              labels:
                type: object
                additionalProperties: {type: string}
"#;

fn same(ours: &Run, theirs: &Run, what: &str) {
    assert_eq!(ours.code, theirs.code, "{what}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
    assert_eq!(ours.stdout, theirs.stdout, "stdout of {what}");
    assert_eq!(ours.stderr, theirs.stderr, "stderr of {what}");
}

#[test]
fn the_plane_a_crd_and_a_member_are_explained_as_kubectl_explains_them() {
    let fleet = Fleet::up(1);
    fleet.apply(WIDGETS);
    fleet.wait("the Widget CRD served", || {
        let run = fleet.k("karmada-apiserver", &["explain", "widgets"]);
        if run.code == 0 { Ok(()) } else { Err(run.stderr) }
    });
    let plane: &[(&[&str], i32)] = &[
        (&["pods"], 0),
        (&["deployment.spec.template.spec.containers"], 0),
        (&["--recursive", "deployments.spec.strategy"], 0),
        (&["deployments.apps.spec.replicas"], 0),
        (&["propagationpolicies.spec.placement"], 0),
        (&["--recursive", "clusters.spec"], 0),
        (&["resourcebindings", "--api-version=work.karmada.io/v1alpha1"], 0),
        (&["widgets"], 0),
        (&["wd.spec"], 0),
        (&["widgets.spec", "--recursive"], 0),
        (&["widgets.spec.size"], 0),
        (&["widgets.spec.parts.name"], 0),
        (&["pods.foo"], 1),
        (&["propagationpolicies.spec.nothing"], 1),
        (&["foo"], 1),
        (&["foo.spec"], 1),
        (&["pods", "--api-version=apps/v1"], 1),
        (&["pods", "--api-version=v2"], 1),
        (&["pods.spec.containers[0]"], 1),
        (&["svc.spec.ports[0]", "--api-version=v1"], 1),
    ];
    for (args, code) in plane {
        let mut all = vec!["explain"];
        all.extend_from_slice(args);
        let ours = fleet.karmadactl(&all);
        let theirs = fleet.k("karmada-apiserver", &all);
        same(&ours, &theirs, &format!("{all:?}"));
        assert_eq!(ours.code, *code, "{all:?}: {}", ours.stderr);
    }
    // What the cases above rest on: the header and kubectl's error texts.
    let crd = fleet.karmadactl(&["explain", "widgets.spec.size"]);
    assert!(
        crd.stdout.starts_with(
            "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\nFIELD: size <string>\nENUM:\n    XS\n"
        ),
        "{}",
        crd.stdout
    );
    let listed = fleet.karmadactl(&["explain", "widgets.spec"]);
    assert!(listed.stdout.contains("  size\t<string> -required-\n  enum: XS, S, M, L, ....\n"), "{}", listed.stdout);
    assert!(
        listed.stdout.contains("  color\t<string>\n  enum: \"\", red\n    <no description>\n"),
        "{}",
        listed.stdout
    );
    let unknown = fleet.karmadactl(&["explain", "pods.foo"]);
    assert_eq!(unknown.stderr, "error: field \"foo\" does not exist\n");
    assert_eq!(unknown.stdout, "KIND:       Pod\nVERSION:    v1\n\n");
    let no_type = fleet.karmadactl(&["explain", "foo"]);
    assert_eq!(
        (no_type.stdout.as_str(), no_type.stderr.as_str()),
        ("", "the server doesn't have a resource type \"foo\"\n")
    );

    // A member through the proxy: its kinds, not the plane's.
    let proxy = fleet.proxy_kubeconfig("member1");
    for args in
        [&["deploy.spec.strategy", "--recursive"][..], &["pods.spec.containers.ports"], &["propagationpolicies"]]
    {
        let mut ours = vec!["explain"];
        ours.extend_from_slice(args);
        let theirs = fleet.k_with(&proxy, &ours);
        ours.extend(["-s", "members", "-C", "member1"]);
        same(&fleet.karmadactl(&ours), &theirs, &format!("{ours:?}"));
    }
    let member =
        fleet.karmadactl(&["explain", "propagationpolicies", "--operation-scope=members", "--cluster=member1"]);
    assert_eq!(member.stderr, "the server doesn't have a resource type \"propagationpolicies\"\n");
}

#[test]
fn bad_scopes_arguments_and_formats_are_refused_before_anything_is_printed() {
    let fleet = Fleet::up(1);
    let cases: &[(&[&str], i32, &str)] = &[
        (&["explain", "pods", "-s", "members"], 1, "error: must specify a member cluster\n"),
        (
            &["explain", "pods", "-s", "members", "--cluster", "nope"],
            1,
            "error: clusters.cluster.karmada.io \"nope\" not found\n",
        ),
        (&["explain", "pods", "-s", "all"], 1, "not support operation scope: all"),
        (
            &["explain"],
            1,
            "error: You must specify the type of resource to explain. Use \"karmadactl api-resources\" for a complete list of supported resources.\n",
        ),
        (&["explain", "pods", "svc"], 1, "error: We accept only this format: explain RESOURCE\n"),
        (&["explain", "pods", "--output=yaml"], 1, "error: unrecognized format: yaml\n"),
        (&["explain", "pods", "--api-version=a/b/c"], 1, "error: unexpected GroupVersion string: a/b/c\n"),
        (
            &["explain", "pods", "-o", "plaintext-openapiv2"],
            2,
            "error: `karmadactl explain --output=plaintext-openapiv2` is not built yet in this version of karmadactl\n",
        ),
    ];
    for (args, code, want) in cases {
        let run = fleet.karmadactl(args);
        assert_eq!(run.code, *code, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
        assert!(run.stderr.starts_with("error: ") && run.stderr.contains(want), "{args:?}: {}", run.stderr);
    }
    // kubectl says the same for the ones it has.
    for args in [&["explain", "pods", "svc"][..], &["explain", "pods", "--output=yaml"]] {
        let theirs = fleet.k("karmada-apiserver", args);
        assert_eq!(theirs.code, 1);
        assert!(fleet.karmadactl(args).stderr.starts_with(&theirs.stderr), "{args:?}: kubectl said {}", theirs.stderr);
    }
}

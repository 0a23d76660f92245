use super::*;

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn err(args: &[&str]) -> String {
    parse_request(&strings(args), None, false).unwrap_err().to_string()
}

fn taint(key: &str, value: Option<&str>, effect: &str) -> Taint {
    Taint { key: key.into(), value: value.map(Into::into), effect: effect.into(), time_added: None }
}

#[test]
fn adds_and_removals_are_split_as_kubectl_splits_them() {
    let req = parse_request(
        &strings(&[
            "clusters",
            "m1",
            "m2",
            "dedicated=special-user:NoSchedule",
            "bar:NoExecute",
            "gone-",
            "x:NoSchedule-",
        ]),
        None,
        false,
    )
    .unwrap();
    assert_eq!(req.targets, Targets::Names(strings(&["m1", "m2"])));
    assert_eq!(req.adds, vec![taint("dedicated", Some("special-user"), "NoSchedule"), taint("bar", None, "NoExecute")]);
    assert_eq!(
        req.removes,
        vec![
            Removal { key: "gone".into(), effect: None },
            Removal { key: "x".into(), effect: Some("NoSchedule".into()) }
        ]
    );
    // A value given with a removal is dropped.
    let req = parse_request(&strings(&["cluster", "m1", "k=v:PreferNoSchedule-"]), None, false).unwrap();
    assert_eq!(req.removes, vec![Removal { key: "k".into(), effect: Some("PreferNoSchedule".into()) }]);
    assert_eq!(req.removes[0].to_string(), "k:PreferNoSchedule");
}

#[test]
fn every_resource_spelling_upstream_and_kubectl_users_type_is_accepted() {
    for word in ["cluster", "clusters", "Clusters", "clusters.cluster.karmada.io", "cluster.cluster.karmada.io"] {
        assert!(parse_request(&strings(&[word, "m1", "k:NoSchedule"]), None, false).is_ok(), "{word}");
    }
    assert_eq!(
        err(&["nodes", "m1", "k:NoSchedule"]),
        "invalid resource type nodes, only [\"cluster\" \"clusters\" \"cluster.cluster.karmada.io\" \"clusters.cluster.karmada.io\"] are supported"
    );
}

#[test]
fn command_line_shape_errors_have_kubectl_wording() {
    assert_eq!(err(&["clusters", "k:NoSchedule", "m1"]), "all resources must be specified before taint changes: m1");
    assert_eq!(err(&["k:NoSchedule"]), "one or more resources must be specified as <resource> <name>");
    assert_eq!(err(&["clusters", "m1"]), "at least one taint update is required");
    assert_eq!(
        err(&["clusters", "k:NoSchedule"]),
        "at least one resource name must be specified since 'all' parameter is not set"
    );
}

#[test]
fn invalid_taints_are_rejected_with_kubectl_messages() {
    assert_eq!(err(&["clusters", "m1", "k=v:Sometimes"]), "invalid taint effect: Sometimes, unsupported taint effect");
    assert_eq!(
        err(&["clusters", "m1", "k=v"]).lines().next().unwrap().split(',').next().unwrap(),
        "invalid taint spec: k=v"
    );
    assert_eq!(err(&["clusters", "m1", "k:NoSchedule:x"]), "invalid taint spec: k:NoSchedule:x");
    assert_eq!(err(&["clusters", "m1", "k=a=b:NoSchedule"]), "invalid taint spec: k=a=b:NoSchedule");
    assert!(
        err(&["clusters", "m1", "bad key:NoSchedule"])
            .starts_with("invalid taint spec: bad key:NoSchedule, name part must consist of alphanumeric characters"),
        "{}",
        err(&["clusters", "m1", "bad key:NoSchedule"])
    );
    assert!(
        err(&["clusters", "m1", "k=bad value:NoSchedule"])
            .starts_with("invalid taint spec: k=bad value:NoSchedule, a valid label must be")
    );
    assert!(
        err(&["clusters", "m1", &format!("k={}:NoSchedule", "v".repeat(64))])
            .contains("must be no more than 63 characters")
    );
    assert_eq!(
        err(&["clusters", "m1", "k=a:NoSchedule", "k=b:NoSchedule"]),
        "duplicated taints with the same key and effect: {k b NoSchedule <nil>}"
    );
    assert_eq!(
        err(&["clusters", "m1", "k=a:NoSchedule", "k-"]),
        "can not both modify and remove the following taint(s) in the same command: {\"k\":\"\"}"
    );
    assert_eq!(
        err(&["clusters", "m1", "k=a:NoSchedule", "k:NoSchedule-"]),
        "can not both modify and remove the following taint(s) in the same command: {\"k\":\"NoSchedule\"}"
    );
    // The same key with another effect is no conflict.
    assert!(parse_request(&strings(&["clusters", "m1", "k=a:NoSchedule", "k:NoExecute-"]), None, false).is_ok());
}

#[test]
fn selection_flags_follow_kubectl() {
    let args = strings(&["clusters", "k:NoSchedule"]);
    assert_eq!(parse_request(&args, None, true).unwrap().targets, Targets::All);
    assert_eq!(parse_request(&args, Some("env=prod"), false).unwrap().targets, Targets::Selector("env=prod".into()));
    let e = parse_request(&args, Some("env=prod"), true).unwrap_err();
    assert_eq!(e.to_string(), "setting 'all' parameter with a non empty selector is prohibited.");
    let named = strings(&["clusters", "m1", "k:NoSchedule"]);
    assert!(parse_request(&named, Some("env=prod"), false).is_err());
    assert!(parse_request(&named, None, true).is_err());
    let e = parse_request(&args, Some("env in (a"), false).unwrap_err();
    assert!(matches!(e, TaintError::Usage(_)), "{e}");
}

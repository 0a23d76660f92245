//! Unit tests for meta_validation.rs (messages as objectmeta_test.go expects them).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference,
};

use super::*;

fn meta(name: &str, namespace: Option<&str>) -> ObjectMeta {
    ObjectMeta { name: Some(name.into()), namespace: namespace.map(Into::into), ..ObjectMeta::default() }
}

fn rendered(causes: &[Cause]) -> Vec<String> {
    causes.iter().map(ToString::to_string).collect()
}

fn owner(kind: &str, name: &str, controller: Option<bool>) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".into(),
        kind: kind.into(),
        name: name.into(),
        uid: "u1".into(),
        controller,
        block_owner_deletion: None,
    }
}

#[test]
fn valid_objects_pass() {
    assert!(validate_object_meta(&meta("web.example", Some("default")), true, NameRule::DnsSubdomain).is_empty());
    assert!(validate_object_meta(&meta("ns1", None), false, NameRule::DnsLabel).is_empty());
    assert!(validate_object_meta(&meta("system:admin", None), false, NameRule::PathSegment).is_empty());
}

#[test]
fn names_and_generate_name() {
    let got = validate_object_meta(&ObjectMeta::default(), false, NameRule::DnsSubdomain);
    assert_eq!(rendered(&got), vec!["metadata.name: Required value: name or generateName is required"]);
    let got = validate_object_meta(&meta("Bad_Name", Some("default")), true, NameRule::DnsSubdomain);
    assert_eq!(got.len(), 1);
    assert!(got[0].to_string().starts_with(
        "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case"
    ));
    let got = validate_object_meta(&meta("a.b", None), false, NameRule::DnsLabel);
    assert_eq!(rendered(&got), vec!["metadata.name: Invalid value: \"a.b\": must not contain dots"]);
    let got = validate_object_meta(&meta("a/b", None), false, NameRule::PathSegment);
    assert_eq!(rendered(&got), vec!["metadata.name: Invalid value: \"a/b\": may not contain '/'"]);
    let got = validate_object_meta(&meta("..", None), false, NameRule::PathSegment);
    assert_eq!(rendered(&got), vec!["metadata.name: Invalid value: \"..\": may not be '..'"]);

    let mut m = meta("web-abcde", None);
    m.generate_name = Some("web-".into());
    assert!(validate_object_meta(&m, false, NameRule::DnsSubdomain).is_empty(), "a trailing dash is fine in a prefix");
    m.generate_name = Some("Web-".into());
    let got = validate_object_meta(&m, false, NameRule::DnsSubdomain);
    assert_eq!(got.len(), 1);
    assert!(got[0].to_string().starts_with("metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123"));
}

#[test]
fn namespace_scope() {
    let got = validate_object_meta(&meta("x", None), true, NameRule::DnsSubdomain);
    assert_eq!(rendered(&got), vec!["metadata.namespace: Required value"]);
    let got = validate_object_meta(&meta("x", Some("default")), false, NameRule::DnsSubdomain);
    assert_eq!(rendered(&got), vec!["metadata.namespace: Forbidden: not allowed on this type"]);
    let got = validate_object_meta(&meta("x", Some("a.b")), true, NameRule::DnsSubdomain);
    assert_eq!(rendered(&got), vec!["metadata.namespace: Invalid value: \"a.b\": must not contain dots"]);
}

#[test]
fn labels_annotations_finalizers() {
    let mut m = meta("x", None);
    m.labels = Some(BTreeMap::from([("good".into(), "-bad".into()), ("bad key".into(), "v".into())]));
    m.annotations = Some(BTreeMap::from([("Example.COM/Key".into(), "ok".into())]));
    m.finalizers = Some(vec!["orphan".into(), "foregroundDeletion".into(), "a/b/c".into()]);
    m.generation = Some(-1);
    let got = rendered(&validate_object_meta(&m, false, NameRule::DnsSubdomain));
    assert_eq!(got[0], "metadata.generation: Invalid value: -1: must be greater than or equal to 0");
    assert!(got[1].starts_with("metadata.labels: Invalid value: \"bad key\": name part must consist of"), "{}", got[1]);
    assert!(got[2].starts_with("metadata.labels: Invalid value: \"-bad\": a valid label must be"), "{}", got[2]);
    assert!(
        got[3].starts_with("metadata.finalizers: Invalid value: \"a/b/c\": a qualified name must consist"),
        "{}",
        got[3]
    );
    assert_eq!(
        got[4],
        "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"a/b/c\"]: finalizer orphan and foregroundDeletion cannot be both set"
    );
    assert_eq!(got.len(), 5, "annotation keys are checked case-insensitively: {got:?}");

    let big = BTreeMap::from([("a".to_string(), "x".repeat(TOTAL_ANNOTATION_SIZE_LIMIT))]);
    let got = rendered(&validate_annotations(&big, &FieldPath::new("metadata").child("annotations")));
    assert_eq!(got, vec!["metadata.annotations: Too long: may not be more than 262144 bytes"]);
}

#[test]
fn owner_references() {
    let path = FieldPath::new("metadata").child("ownerReferences");
    let ok = vec![owner("ReplicaSet", "rs", Some(true)), owner("Deployment", "d", None)];
    assert!(validate_owner_references(&ok, &path).is_empty());

    let empty = OwnerReference::default();
    assert_eq!(
        rendered(&validate_owner_references(&[empty], &path)),
        vec![
            "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
            "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty",
            "metadata.ownerReferences.name: Invalid value: \"\": must not be empty",
            "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
        ]
    );
    let two = vec![owner("A", "a", Some(true)), owner("B", "b", Some(true))];
    let got = rendered(&validate_owner_references(&two, &path));
    assert_eq!(
        got,
        vec![
            "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"apps/v1\",\"kind\":\"A\",\"name\":\"a\",\"uid\":\"u1\",\
             \"controller\":true},{\"apiVersion\":\"apps/v1\",\"kind\":\"B\",\"name\":\"b\",\"uid\":\"u1\",\"controller\":true}]: \
             Only one reference can have Controller set to true. Found \"true\" in references for A/a and B/b"
        ]
    );
    let event = OwnerReference { api_version: "v1".into(), ..owner("Event", "e", None) };
    let got = rendered(&validate_owner_references(&[event], &path));
    assert_eq!(
        got,
        vec![
            "metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u1\"}: \
             /v1, Kind=Event is disallowed from being an owner"
        ]
    );
    let bad_version = OwnerReference { api_version: "apps/".into(), ..owner("A", "a", None) };
    assert_eq!(validate_owner_references(&[bad_version], &path).len(), 1);
}

#[test]
fn updates() {
    let mut old = meta("x", Some("ns"));
    old.uid = Some("u".into());
    old.generation = Some(2);
    old.resource_version = Some("5".into());
    let mut new = old.clone();
    assert!(validate_object_meta_update(&new, &old).is_empty());

    new.name = Some("y".into());
    new.generation = Some(1);
    new.resource_version = None;
    new.deletion_grace_period_seconds = Some(30);
    let got = rendered(&validate_object_meta_update(&new, &old));
    assert_eq!(
        got,
        vec![
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
            "metadata.generation: Invalid value: 1: must not be decremented",
            "metadata.name: Invalid value: \"y\": field is immutable",
            "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
        ]
    );

    let mut deleting = old.clone();
    deleting.deletion_timestamp =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(k8s_openapi::jiff::Timestamp::UNIX_EPOCH));
    deleting.finalizers = Some(vec!["a".into()]);
    let mut new = deleting.clone();
    new.finalizers = Some(vec!["a".into(), "c".into(), "b".into()]);
    let got = rendered(&validate_object_meta_update(&new, &deleting));
    assert_eq!(
        got,
        vec![
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new \
             finalizers []string{\"b\", \"c\"}"
        ]
    );
    let mut new = deleting.clone();
    new.deletion_timestamp = None;
    let got = rendered(&validate_object_meta_update(&new, &deleting));
    assert_eq!(got, vec!["metadata.deletionTimestamp: Invalid value: null: field is immutable"]);
}

#[test]
fn generated_names() {
    assert_eq!(generate_name("web-", 0), "web-bbbbb");
    assert_ne!(generate_name("web-", 1), generate_name("web-", 2));
    let long = generate_name(&"a".repeat(80), 12345);
    assert_eq!(long.len(), 63);
    assert!(NameRule::DnsSubdomain.check(&long, false).is_empty());
    assert!(generate_name(&format!("{}é", "a".repeat(57)), 7).starts_with(&"a".repeat(57)));
}

#[test]
fn structured_label_selectors() {
    let path = FieldPath::new("spec").child("selector");
    let expr = |key: &str, op: &str, values: Option<Vec<&str>>| LabelSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.map(|v| v.into_iter().map(String::from).collect()),
    };
    let sel = LabelSelector {
        match_labels: Some(BTreeMap::from([("app".into(), "web".into())])),
        match_expressions: Some(vec![
            expr("a", "In", Some(vec![])),
            expr("b", "Exists", Some(vec!["x"])),
            expr("c", "Gt", None),
            expr("bad key", "DoesNotExist", None),
        ]),
    };
    let got = rendered(&validate_label_selector(&sel, &path));
    assert_eq!(
        got[0],
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
    );
    assert_eq!(
        got[1],
        "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
    );
    assert_eq!(
        got[2],
        "spec.selector.matchExpressions[2].operator: Invalid value: \"Gt\": not a valid selector operator"
    );
    assert!(
        got[3].starts_with("spec.selector.matchExpressions[3].key: Invalid value: \"bad key\": name part"),
        "{}",
        got[3]
    );
    assert_eq!(got.len(), 4);
}

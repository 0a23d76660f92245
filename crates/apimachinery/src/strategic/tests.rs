//! Cases ported from k8s.io/apimachinery's strategicpatch `patch_test.go` (the server-side
//! application of a two-way patch to an original), plus the built-in kinds' table.

use serde_json::{Value, json};

use super::keys::{FieldMeta, Strategy, TypeSchema};
use super::*;

/// upstream's `MergeItem` test type.
static MERGE_ITEM: TypeSchema = TypeSchema {
    name: "mergeItem",
    fields: &[
        FieldMeta { name: "mergeItemPtr", strategy: Strategy::Merge, merge_key: Some("name"), ty: Some(&MERGE_ITEM) },
        FieldMeta { name: "mergingIntList", strategy: Strategy::Merge, merge_key: None, ty: None },
        FieldMeta { name: "mergingList", strategy: Strategy::Merge, merge_key: Some("name"), ty: Some(&MERGE_ITEM) },
        FieldMeta { name: "replacingItem", strategy: Strategy::Replace, merge_key: None, ty: None },
        FieldMeta {
            name: "retainKeysMap",
            strategy: Strategy::RetainKeys,
            merge_key: None,
            ty: Some(&RETAIN_KEYS_ITEM),
        },
        FieldMeta {
            name: "retainKeysMergingList",
            strategy: Strategy::MergeRetainKeys,
            merge_key: Some("name"),
            ty: Some(&MERGE_ITEM),
        },
    ],
};

/// upstream's `RetainKeysMergeItem` test type.
static RETAIN_KEYS_ITEM: TypeSchema = TypeSchema {
    name: "retainKeysMergeItem",
    fields: &[
        FieldMeta { name: "mergingIntList", strategy: Strategy::Merge, merge_key: None, ty: None },
        FieldMeta { name: "mergingList", strategy: Strategy::Merge, merge_key: Some("name"), ty: Some(&MERGE_ITEM) },
    ],
};

fn apply(original: Value, patch: Value) -> Result<Value, ApiError> {
    apply_strategic_merge_patch(&original, patch.to_string().as_bytes(), Some(&MERGE_ITEM))
}

#[track_caller]
fn check(original: Value, patch: Value, expected: Value) {
    assert_eq!(apply(original, patch.clone()).unwrap(), expected, "patch {patch}");
}

#[track_caller]
fn check_err(original: Value, patch: Value, code: u16, text: &str) {
    let err = apply(original, patch.clone()).unwrap_err();
    assert_eq!(err.code, code, "{patch}: {err:?}");
    let causes = err.details.as_ref().map(|d| d.causes.iter().map(|c| c.message.clone()).collect::<Vec<_>>());
    let all = format!("{} {causes:?}", err.message);
    assert!(all.contains(text), "{patch}: {all:?} lacks {text:?}");
}

#[test]
fn primitive_merge_lists_union_without_duplicates() {
    check(json!({"mergingIntList": [1, 2]}), json!({"mergingIntList": [2, 3]}), json!({"mergingIntList": [1, 2, 3]}));
    // Lists without a strategy are replaced.
    check(
        json!({"nonMergingIntList": [1, 2]}),
        json!({"nonMergingIntList": [2, 3]}),
        json!({"nonMergingIntList": [2, 3]}),
    );
}

#[test]
fn merge_keys_merge_items_and_keep_others() {
    check(
        json!({"mergingList": [{"name": "1", "value": "a"}, {"name": "2", "value": "b"}]}),
        json!({"mergingList": [{"name": "2", "other": "x"}, {"name": "3"}]}),
        json!({"mergingList": [{"name": "1", "value": "a"}, {"name": "2", "value": "b", "other": "x"}, {"name": "3"}]}),
    );
    // Items of a list without a strategy are not matched up: the patch's list wins.
    check(
        json!({"nonMergingList": [{"name": "1", "value": "a"}]}),
        json!({"nonMergingList": [{"name": "1", "other": "x"}]}),
        json!({"nonMergingList": [{"name": "1", "other": "x"}]}),
    );
}

#[test]
fn nested_merge_lists_merge_at_every_level() {
    // Without `$setElementOrder`, items new to the list come before the ones the server had (as
    // the kubectl patch documentation shows for an added container).
    check(
        json!({"mergingList": [{"name": "1", "mergingList": [{"name": "a", "value": "1"}], "mergingIntList": [1]}]}),
        json!({"mergingList": [{"name": "1", "mergingList": [{"name": "b"}], "mergingIntList": [2]}]}),
        json!({"mergingList": [{"name": "1", "mergingList": [{"name": "b"}, {"name": "a", "value": "1"}],
            "mergingIntList": [2, 1]}]}),
    );
}

#[test]
fn patch_delete_directive_in_maps_and_list_items() {
    // A deleted map is left empty, as upstream.
    check(
        json!({"simpleMap": {"key1": "1", "key2": "1"}}),
        json!({"simpleMap": {"$patch": "delete"}}),
        json!({"simpleMap": {}}),
    );
    // Every item with the key goes.
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "1"}, {"name": "2", "value": "a"}, {"name": "3"}, {"name": "3"}]}),
        json!({"mergingList": [{"name": "1", "$patch": "delete"}, {"name": "3", "$patch": "delete"}]}),
        json!({"mergingList": [{"name": "2", "value": "a"}]}),
    );
}

#[test]
fn patch_replace_directive_in_maps_and_lists() {
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "2"}]}),
        json!({"mergingList": [{"$patch": "replace"}]}),
        json!({"mergingList": []}),
    );
    check(json!({"mergingList": []}), json!({"mergingList": []}), json!({"mergingList": []}));
    check(json!({"name": "1", "value": "1"}), json!({"$patch": "replace"}), json!({}));
    check(json!({"name": "1", "value": "1"}), json!({"other": "a", "$patch": "replace"}), json!({"other": "a"}));
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "2"}]}),
        json!({"mergingList": [{"name": "3"}, {"$patch": "replace"}]}),
        json!({"mergingList": [{"name": "3"}]}),
    );
    // A replace strategy takes the patch's object whole.
    check(
        json!({"replacingItem": {"a": 1, "b": 2}}),
        json!({"replacingItem": {"c": 3}}),
        json!({"replacingItem": {"c": 3}}),
    );
}

#[test]
fn null_deletes_keys_and_unmatched_nulls_are_dropped() {
    check(
        json!({"name": "1", "value": "2", "simpleMap": {"a": "1", "b": "2"}}),
        json!({"value": null, "other": null, "simpleMap": {"a": null}}),
        json!({"name": "1", "simpleMap": {"b": "2"}}),
    );
}

#[test]
fn retain_keys_without_directive_merges() {
    check(
        json!({"retainKeysMap": {"name": "foo"}}),
        json!({"retainKeysMap": {"value": "bar"}}),
        json!({"retainKeysMap": {"name": "foo", "value": "bar"}}),
    );
    check(
        json!({"retainKeysMap": {"name": "foo", "value": "a"}}),
        json!({"retainKeysMap": {"value": "b"}}),
        json!({"retainKeysMap": {"name": "foo", "value": "b"}}),
    );
    check(
        json!({"retainKeysMap": {"name": "foo", "value": "a"}}),
        json!({"retainKeysMap": {"value": null}}),
        json!({"retainKeysMap": {"name": "foo"}}),
    );
    check(
        json!({"retainKeysMap": {"name": "foo", "value": "a"}}),
        json!({"retainKeysMap": {}}),
        json!({"retainKeysMap": {"name": "foo", "value": "a"}}),
    );
    check(
        json!({"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a"}]}),
        json!({"retainKeysMergingList": [{"name": "foo", "value": "b"}]}),
        json!({"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "b"}]}),
    );
}

#[test]
fn retain_keys_directive_clears_unlisted_fields() {
    check(
        json!({"retainKeysMap": {"name": "foo", "value": "a", "other": "x"}}),
        json!({"retainKeysMap": {"$retainKeys": ["name", "value"], "value": "b"}}),
        json!({"retainKeysMap": {"name": "foo", "value": "b"}}),
    );
    // In list items too (kubectl sends it for pod volumes).
    check(
        json!({"retainKeysMergingList": [{"name": "v", "value": "a", "other": "x"}]}),
        json!({"retainKeysMergingList": [{"name": "v", "$retainKeys": ["name", "other"], "other": "y"}]}),
        json!({"retainKeysMergingList": [{"name": "v", "other": "y"}]}),
    );
    // A patch field outside the list, or a list that is not a list, is malformed.
    check_err(
        json!({"retainKeysMap": {"name": "foo"}}),
        json!({"retainKeysMap": {"$retainKeys": ["name"], "value": "b"}}),
        400,
        "invalid patch format of retainKeys",
    );
    check_err(
        json!({"retainKeysMap": {}}),
        json!({"retainKeysMap": {"$retainKeys": "name"}}),
        400,
        "invalid patch format of retainKeys",
    );
}

#[test]
fn delete_from_primitive_list() {
    check(
        json!({"mergingIntList": [1, 2, 3, 2]}),
        json!({"$deleteFromPrimitiveList/mergingIntList": [2]}),
        json!({"mergingIntList": [1, 3]}),
    );
    // Together with additions and an order, as kubectl sends them.
    check(
        json!({"mergingIntList": [1, 2, 3]}),
        json!({"$setElementOrder/mergingIntList": [4, 1, 3], "$deleteFromPrimitiveList/mergingIntList": [2],
            "mergingIntList": [4]}),
        json!({"mergingIntList": [4, 1, 3]}),
    );
    check_err(json!({}), json!({"$deleteFromPrimitiveList": [1]}), 400, "invalid patch format of primitive list");
}

#[test]
fn delete_from_an_absent_primitive_list_adds_nothing() {
    check(json!({"name": "1"}), json!({"$deleteFromPrimitiveList/mergingIntList": [2]}), json!({"name": "1"}));
    // Nor from a field of another type: it stays as it was.
    check(
        json!({"mergingIntList": "scalar"}),
        json!({"$deleteFromPrimitiveList/mergingIntList": [2]}),
        json!({"mergingIntList": "scalar"}),
    );
    // An unlisted field (no merge strategy) behaves the same.
    check(json!({}), json!({"$deleteFromPrimitiveList/finalizers": ["a"]}), json!({}));
    // In a nested object too.
    check(
        json!({"mergeItemPtr": [{"name": "a"}]}),
        json!({"mergeItemPtr": [{"name": "a", "$deleteFromPrimitiveList/mergingIntList": [1]}]}),
        json!({"mergeItemPtr": [{"name": "a"}]}),
    );
}

#[test]
fn patch_directives_at_the_root() {
    // `$patch: delete` empties the whole object, as upstream; the API server then refuses the
    // nameless result.
    check(json!({"name": "1", "mergingIntList": [1]}), json!({"$patch": "delete"}), json!({}));
    check(json!({"name": "1"}), json!({"$patch": "replace", "value": "v"}), json!({"value": "v"}));
    check_err(json!({"name": "1"}), json!({"$patch": "merge"}), 400, "");
}

#[test]
fn patch_order_wins_over_live_order() {
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "2", "value": "b"}, {"name": "3"}]}),
        json!({"mergingList": [{"name": "3", "value": "c"}, {"name": "1", "value": "a"}, {"name": "2", "other": "x"}]}),
        json!({"mergingList": [{"name": "3", "value": "c"}, {"name": "1", "value": "a"},
            {"name": "2", "value": "b", "other": "x"}]}),
    );
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "2", "value": "b"}, {"name": "3"}]}),
        json!({"mergingList": [{"name": "3", "value": "c"}, {"name": "1", "value": "a"}]}),
        json!({"mergingList": [{"name": "2", "value": "b"}, {"name": "3", "value": "c"}, {"name": "1", "value": "a"}]}),
    );
    check(
        json!({"mergingIntList": [1, 2, 3]}),
        json!({"mergingIntList": [3, 1, 2]}),
        json!({"mergingIntList": [3, 1, 2]}),
    );
    check(
        json!({"mergingIntList": [1, 2, 3]}),
        json!({"mergingIntList": [3, 1]}),
        json!({"mergingIntList": [2, 3, 1]}),
    );
}

#[test]
fn set_element_order_orders_the_merged_list() {
    check(
        json!({"mergingList": [{"name": "1"}, {"name": "3"}]}),
        json!({"$setElementOrder/mergingList": [{"name": "3"}, {"name": "2"}, {"name": "1"}],
            "mergingList": [{"name": "3", "value": "3"}, {"name": "1", "value": "1"}]}),
        json!({"mergingList": [{"name": "3", "value": "3"}, {"name": "1", "value": "1"}]}),
    );
    check(
        json!({"mergingIntList": [1, 3]}),
        json!({"$setElementOrder/mergingIntList": [3, 2, 1]}),
        json!({"mergingIntList": [3, 1]}),
    );
    // Reordering without content changes, and a new item placed where the order says.
    check(
        json!({"mergingList": [{"name": "a", "value": "1"}, {"name": "b"}, {"name": "c"}]}),
        json!({"$setElementOrder/mergingList": [{"name": "c"}, {"name": "new"}, {"name": "a"}, {"name": "b"}],
            "mergingList": [{"name": "new"}]}),
        json!({"mergingList": [{"name": "c"}, {"name": "new"}, {"name": "a", "value": "1"}, {"name": "b"}]}),
    );
}

#[test]
fn set_element_order_must_agree_with_the_patch() {
    check_err(
        json!({"mergingList": [{"name": "1"}, {"name": "3"}, {"name": "2"}]}),
        json!({"$setElementOrder/mergingList": [{"name": "1"}, {"name": "2"}, {"name": "3"}],
            "mergingList": [{"name": "3", "value": "3"}, {"name": "1", "value": "1"}]}),
        400,
        "doesn't match",
    );
    check_err(
        json!({"mergingIntList": [1, 3, 2]}),
        json!({"$setElementOrder/mergingIntList": [1, 2, 3], "mergingIntList": [3, 1]}),
        400,
        "doesn't match",
    );
    check_err(json!({}), json!({"$setElementOrder/mergingList": "x"}), 400, "expected a []interface {}");
}

#[test]
fn missing_merge_key_and_bad_directives_are_client_errors() {
    check_err(
        json!({"mergingList": [{"name": "1", "value": "a"}]}),
        json!({"mergingList": [{"value": "b"}]}),
        400,
        "map: map[value:b] does not contain declared merge key: name",
    );
    check_err(
        json!({"mergingList": [{"name": "1"}]}),
        json!({"mergingList": [{"$patch": "delete"}]}),
        400,
        "does not contain declared merge key",
    );
    check_err(json!({"name": "1"}), json!({"$patch": "bogus"}), 400, "unknown patch type: bogus in map");
    check_err(
        json!({"mergingList": [{"name": "1"}]}),
        json!({"mergingList": [{"name": "1", "$patch": "bogus"}]}),
        400,
        "unknown patch type: bogus",
    );
    // kube-apiserver has never implemented `$patch: merge`.
    check_err(json!({"name": "1"}), json!({"$patch": "merge"}), 400, "unknown patch type: merge");
    check_err(
        json!({"mergingList": [{"name": "1"}]}),
        json!({"mergingList": [{"$patch": "merge"}]}),
        400,
        "merging lists cannot yet be specified in the patch",
    );
    check_err(
        json!({"mergingList": [{"name": "1"}]}),
        json!({"mergingList": ["x"]}),
        400,
        "list element types are not identical",
    );
    check_err(
        json!({"mergingIntList": [[1]]}),
        json!({"mergingIntList": [[2]]}),
        422,
        "lists of lists are not supported",
    );
    check_err(
        json!({"mergingIntList": [1]}),
        json!({"mergingIntList": [[2]]}),
        400,
        "list element types are not identical",
    );
}

#[test]
fn bodies_that_are_not_objects() {
    let original = json!({"name": "1"});
    let err = apply_strategic_merge_patch(&original, b"[1]", Some(&MERGE_ITEM)).unwrap_err();
    assert_eq!(
        (err.code, err.message.as_str()),
        (400, "json: cannot unmarshal array into Go value of type map[string]interface {}")
    );
    let err = apply_strategic_merge_patch(&original, b"{\"name\":", None).unwrap_err();
    assert_eq!(err.code, 400);
    assert_eq!(apply_strategic_merge_patch(&original, b"null", None).unwrap(), original);
}

#[test]
fn values_of_another_type_are_taken_verbatim() {
    check(
        json!({"mergingList": [{"name": "1"}]}),
        json!({"mergingList": {"name": "x"}}),
        json!({"mergingList": {"name": "x"}}),
    );
    check(
        json!({"simpleMap": "s"}),
        json!({"simpleMap": {"a": null, "$patch": "delete"}}),
        json!({"simpleMap": {"a": null, "$patch": "delete"}}),
    );
}

fn deployment() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "finalizers": ["a"]},
        "spec": {"template": {"spec": {
            "containers": [
                {"name": "web", "image": "nginx", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
                 "ports": [{"containerPort": 80}]},
                {"name": "side", "image": "busybox"}],
            "volumes": [{"name": "data", "emptyDir": {}}],
            "tolerations": [{"key": "k", "operator": "Exists"}]}}}})
}

fn apply_to_deployment(patch: Value) -> Value {
    let schema = schema_for("apps", "Deployment");
    apply_strategic_merge_patch(&deployment(), patch.to_string().as_bytes(), schema).unwrap()
}

#[test]
fn builtin_lists_merge_by_their_upstream_keys() {
    let out = apply_to_deployment(json!({"metadata": {"finalizers": ["b"]}, "spec": {"template": {"spec": {
        "containers": [{"name": "web", "env": [{"name": "B", "value": "3"}], "ports": [{"containerPort": 443}]}],
        "tolerations": [{"key": "other", "operator": "Exists"}]}}}}));
    assert_eq!(out["metadata"]["finalizers"], json!(["b", "a"]));
    let spec = &out["spec"]["template"]["spec"];
    assert_eq!(spec["containers"][0]["image"], "nginx");
    assert_eq!(spec["containers"][0]["env"], json!([{"name": "A", "value": "1"}, {"name": "B", "value": "3"}]));
    assert_eq!(spec["containers"][0]["ports"], json!([{"containerPort": 443}, {"containerPort": 80}]));
    assert_eq!(spec["containers"][1]["name"], "side");
    // Tolerations have no patch strategy upstream: replaced.
    assert_eq!(spec["tolerations"], json!([{"key": "other", "operator": "Exists"}]));
}

#[test]
fn builtin_patch_as_kubectl_apply_sends_it() {
    // Remove container "side", env "A" and the volume; keep the order kubectl asks for.
    let out = apply_to_deployment(json!({"spec": {"template": {"spec": {
        "$setElementOrder/containers": [{"name": "web"}],
        "$setElementOrder/volumes": [],
        "containers": [{"name": "web", "$setElementOrder/env": [{"name": "B"}], "env": [{"name": "A", "$patch": "delete"}]},
                       {"name": "side", "$patch": "delete"}],
        "volumes": [{"name": "data", "$patch": "delete"}]}}}}));
    let spec = &out["spec"]["template"]["spec"];
    assert_eq!(
        spec["containers"],
        json!([{"name": "web", "image": "nginx", "env": [{"name": "B", "value": "2"}],
        "ports": [{"containerPort": 80}]}])
    );
    assert_eq!(spec["volumes"], json!([]));
}

#[test]
fn table_holds_upstream_keys() {
    let key = |g: &str, k: &str, p: &[&str]| lookup(g, k, p).map(|f| (f.strategy, f.merge_key));
    assert_eq!(key("", "Pod", &["spec", "containers"]), Some((Strategy::Merge, Some("name"))));
    assert_eq!(key("", "Pod", &["spec", "containers", "ports"]), Some((Strategy::Merge, Some("containerPort"))));
    assert_eq!(
        key("", "Pod", &["spec", "ephemeralContainers", "volumeMounts"]),
        Some((Strategy::Merge, Some("mountPath")))
    );
    assert_eq!(key("", "Pod", &["spec", "volumes"]), Some((Strategy::MergeRetainKeys, Some("name"))));
    assert_eq!(key("", "Service", &["spec", "ports"]), Some((Strategy::Merge, Some("port"))));
    assert_eq!(key("", "ServiceAccount", &["secrets"]), Some((Strategy::Merge, Some("name"))));
    assert_eq!(key("", "Node", &["spec", "podCIDRs"]), Some((Strategy::Merge, None)));
    assert_eq!(key("apps", "Deployment", &["spec", "strategy"]), Some((Strategy::RetainKeys, None)));
    assert_eq!(
        key("batch", "CronJob", &["spec", "jobTemplate", "spec", "template", "spec", "initContainers"]),
        Some((Strategy::Merge, Some("name")))
    );
    assert_eq!(key("apps", "StatefulSet", &["metadata", "ownerReferences"]), Some((Strategy::Merge, Some("uid"))));
    // Atomic upstream, so absent here.
    assert_eq!(key("", "Pod", &["spec", "tolerations"]), None);
    assert_eq!(key("", "Node", &["spec", "taints"]), None);
    assert_eq!(key("", "Endpoints", &["subsets"]), None);
    assert!(schema_for("policy.karmada.io", "PropagationPolicy").is_none());
}

#[test]
fn messages_print_values_as_go_does() {
    use super::errors::go_value;
    assert_eq!(
        go_value(&json!({"b": [1, 1.5, 100.0, "s", null, true], "a": {}})),
        "map[a:map[] b:[1 1.5 100 s <nil> true]]"
    );
    assert_eq!(go_value(&json!(1e21)), "1e+21");
    assert_eq!(go_value(&json!(0.00001)), "1e-05");
}

use karmadactl_karmada_api::cluster::{ClusterSpec, ClusterSyncMode};

use super::*;
use crate::cmd::taint::edit::{cordon, cordon_taint, reorganize, uncordon};
use crate::cmd::taint::spec::Removal;

fn t(key: &str, value: Option<&str>, effect: &str) -> Taint {
    Taint { key: key.into(), value: value.map(Into::into), effect: effect.into(), time_added: None }
}

fn cluster(rv: &str, taints: Option<Vec<Taint>>) -> Cluster {
    let mut c = Cluster::new(
        "member1",
        ClusterSpec {
            id: None,
            sync_mode: ClusterSyncMode::Push,
            api_endpoint: Some("https://127.0.0.1:1".into()),
            secret_ref: None,
            impersonator_secret_ref: None,
            insecure_skip_tls_verification: None,
            proxy_url: None,
            proxy_header: None,
            provider: None,
            region: None,
            zone: None,
            zones: None,
            taints,
            resource_models: None,
        },
    );
    c.metadata.resource_version = Some(rv.into());
    c
}

fn ops(patch: &Value) -> Vec<(String, String)> {
    patch
        .as_array()
        .unwrap()
        .iter()
        .map(|op| (op["op"].as_str().unwrap().to_string(), op["path"].as_str().unwrap().to_string()))
        .collect()
}

/// Applies the patch the way the API server does and returns the resulting taints.
fn applied(obj: &Cluster, patch: &Value) -> Result<Value, json_patch::PatchError> {
    let mut doc = serde_json::to_value(obj).unwrap();
    let patch: json_patch::Patch = serde_json::from_value(patch.clone()).unwrap();
    json_patch::patch(&mut doc, &patch)?;
    Ok(doc["spec"]["taints"].clone())
}

#[test]
fn cordon_patch_tests_the_resource_version_and_only_adds_the_cordon_taint() {
    let other = t("dedicated", Some("gpu"), "NoSchedule");
    let obj = cluster("42", Some(vec![other.clone()]));
    let edit = cordon(taints_of(&obj)).unwrap();
    let patch = json_patch("42", taints_of(&obj), &edit);
    assert_eq!(patch[0], json!({"op": "test", "path": "/metadata/resourceVersion", "value": "42"}));
    assert_eq!(ops(&patch)[1..], [("add".to_string(), "/spec/taints/-".to_string())]);
    assert_eq!(patch[1]["value"], json!({"key": "cluster.karmada.io/unschedulable", "effect": "NoSchedule"}));
    assert_eq!(applied(&obj, &patch).unwrap(), json!([other, cordon_taint()]));

    // Written against a Cluster someone changed meanwhile (another taint, a new
    // resourceVersion), the same patch is refused instead of dropping that taint.
    let changed = cluster("43", Some(vec![other.clone(), t("late", None, "NoExecute")]));
    assert!(applied(&changed, &patch).is_err());
}

#[test]
fn cordon_of_a_cluster_without_taints_adds_the_list() {
    let obj = cluster("7", None);
    let patch = json_patch("7", taints_of(&obj), &cordon(taints_of(&obj)).unwrap());
    assert_eq!(
        ops(&patch),
        [("test".into(), "/metadata/resourceVersion".into()), ("add".into(), "/spec/taints".into())]
    );
    assert_eq!(applied(&obj, &patch).unwrap(), json!([cordon_taint()]));
}

#[test]
fn uncordon_patch_removes_only_the_cordon_taint() {
    let (a, b) = (t("a", None, "NoSchedule"), t("b", Some("x"), "NoExecute"));
    let obj = cluster("9", Some(vec![a.clone(), cordon_taint(), b.clone()]));
    let patch = json_patch("9", taints_of(&obj), &uncordon(taints_of(&obj)).unwrap());
    assert_eq!(
        ops(&patch),
        [("test".into(), "/metadata/resourceVersion".into()), ("remove".into(), "/spec/taints/1".into())]
    );
    assert_eq!(applied(&obj, &patch).unwrap(), json!([a, b]));

    // The last taint going drops the field, as upstream's `"taints": null` does.
    let alone = cluster("10", Some(vec![cordon_taint()]));
    let patch = json_patch("10", taints_of(&alone), &uncordon(taints_of(&alone)).unwrap());
    assert_eq!(ops(&patch)[1..], [("remove".to_string(), "/spec/taints".to_string())]);
    assert_eq!(applied(&alone, &patch).unwrap(), Value::Null);
}

#[test]
fn taint_patch_touches_only_the_taints_named() {
    let old = vec![t("a", Some("1"), "NoSchedule"), t("b", None, "NoExecute"), t("c", None, "NoSchedule")];
    let obj = cluster("5", Some(old.clone()));
    // Overwrite a, remove c, add d; b is not mentioned anywhere in the patch.
    let adds = [t("a", Some("2"), "NoSchedule"), t("d", None, "PreferNoSchedule")];
    let removes = [Removal { key: "c".into(), effect: None }];
    let (edit, _) = reorganize("member1", &old, true, &adds, &removes).unwrap();
    let patch = json_patch("5", &old, &edit);
    assert_eq!(
        ops(&patch),
        [
            ("test".into(), "/metadata/resourceVersion".into()),
            ("remove".into(), "/spec/taints/2".into()),
            ("remove".into(), "/spec/taints/0".into()),
            ("add".into(), "/spec/taints/0".into()),
            ("add".into(), "/spec/taints/1".into()),
        ]
    );
    assert!(patch.as_array().unwrap().iter().all(|op| op["value"] != json!(old[1])), "b is never written");
    let expected = edit.apply(&old);
    assert_eq!(expected, vec![adds[0].clone(), adds[1].clone(), old[1].clone()]);
    assert_eq!(applied(&obj, &patch).unwrap(), json!(expected));
}

//! Decoding checked against k8s-pb's prost encoder: every expected value is the JSON Kubernetes
//! would have received for the same object.

use std::collections::BTreeMap;

use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::authentication::v1 as authn;
use k8s_pb::api::authorization::v1 as authz;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::api::resource::Quantity;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
use proptest::prelude::*;
use prost::Message;
use serde_json::json;

use super::*;

/// Wraps an encoded object in the envelope client-go sends.
fn envelope(api_version: &str, kind: &str, obj: &impl Message) -> Vec<u8> {
    let unknown = Unknown {
        type_meta: Some(TypeMeta { api_version: Some(api_version.into()), kind: Some(kind.into()) }),
        raw: Some(obj.encode_to_vec()),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    [MAGIC.as_slice(), &unknown.encode_to_vec()].concat()
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn map<V: Clone>(pairs: &[(&str, V)]) -> BTreeMap<String, V> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// Metadata as Go writes it: non-pointer strings and the zero creation time are always present.
fn meta(name: &str, namespace: &str) -> Option<meta::ObjectMeta> {
    Some(meta::ObjectMeta {
        name: s(name),
        namespace: s(namespace),
        generate_name: s(""),
        resource_version: s(""),
        uid: s(""),
        creation_timestamp: Some(meta::Time::default()),
        ..Default::default()
    })
}

#[test]
fn configmap_with_data_and_binary_data() {
    let cm = core::ConfigMap {
        metadata: meta("c", "p"),
        data: map(&[("a", "b".to_string()), ("empty", String::new())]),
        binary_data: map(&[("bin", vec![0u8, 1, 2])]),
        immutable: None,
    };
    assert_eq!(
        decode(&envelope("v1", "ConfigMap", &cm)).unwrap(),
        json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": "p", "creationTimestamp": null},
            "data": {"a": "b", "empty": ""}, "binaryData": {"bin": "AAEC"}})
    );
}

#[test]
fn secret_bytes_are_base64() {
    let secret = core::Secret {
        metadata: meta("s", ""),
        data: map(&[("k", vec![0u8, 0xff]), ("t", b"hello".to_vec())]),
        string_data: map(&[("plain", "text".to_string())]),
        r#type: s("Opaque"),
        immutable: Some(false),
    };
    assert_eq!(
        decode(&envelope("v1", "Secret", &secret)).unwrap(),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "creationTimestamp": null},
            "data": {"k": "AP8=", "t": "aGVsbG8="}, "stringData": {"plain": "text"}, "type": "Opaque",
            "immutable": false})
    );
}

#[test]
fn deployment_with_template_resources_and_int_or_string() {
    let labels = map(&[("app", "d".to_string())]);
    let container = core::Container {
        name: s("nginx"),
        image: s("nginx:1.25"),
        resources: Some(core::ResourceRequirements {
            limits: map(&[("cpu", Quantity { string: s("500m") })]),
            requests: map(&[("memory", Quantity { string: s("64Mi") })]),
            claims: vec![],
        }),
        ports: vec![core::ContainerPort { container_port: Some(80), ..Default::default() }],
        ..Default::default()
    };
    let deploy = apps::Deployment {
        metadata: meta("d", "p"),
        spec: Some(apps::DeploymentSpec {
            replicas: Some(2),
            selector: Some(meta::LabelSelector { match_labels: labels.clone(), match_expressions: vec![] }),
            template: Some(core::PodTemplateSpec {
                metadata: Some(meta::ObjectMeta { labels: labels.clone(), ..Default::default() }),
                spec: Some(core::PodSpec { containers: vec![container], ..Default::default() }),
            }),
            strategy: Some(apps::DeploymentStrategy {
                r#type: s("RollingUpdate"),
                rolling_update: Some(apps::RollingUpdateDeployment {
                    max_surge: Some(IntOrString { r#type: Some(1), int_val: Some(0), str_val: s("25%") }),
                    max_unavailable: Some(IntOrString { r#type: Some(0), int_val: Some(1), str_val: s("") }),
                }),
            }),
            ..Default::default()
        }),
        status: Some(apps::DeploymentStatus::default()),
    };
    assert_eq!(
        decode(&envelope("apps/v1", "Deployment", &deploy)).unwrap(),
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d", "namespace": "p", "creationTimestamp": null},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": {"app": "d"}},
                "template": {
                    "metadata": {"labels": {"app": "d"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
                        "ports": [{"containerPort": 80}],
                        "resources": {"limits": {"cpu": "500m"}, "requests": {"memory": "64Mi"}}}]}
                },
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}}
            },
            "status": {}})
    );
}

#[test]
fn namespace() {
    let ns = core::Namespace {
        metadata: meta("p", ""),
        spec: Some(core::NamespaceSpec::default()),
        status: Some(core::NamespaceStatus::default()),
    };
    assert_eq!(
        decode(&envelope("v1", "Namespace", &ns)).unwrap(),
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "p", "creationTimestamp": null},
            "spec": {}, "status": {}})
    );
}

#[test]
fn self_subject_access_review() {
    let review = authz::SelfSubjectAccessReview {
        metadata: meta("", ""),
        spec: Some(authz::SelfSubjectAccessReviewSpec {
            resource_attributes: Some(authz::ResourceAttributes {
                namespace: s("default"),
                verb: s("create"),
                group: s("apps"),
                resource: s("deployments"),
                version: s(""),
                subresource: s(""),
                name: s(""),
                ..Default::default()
            }),
            non_resource_attributes: None,
        }),
        status: Some(authz::SubjectAccessReviewStatus { allowed: Some(false), ..Default::default() }),
    };
    assert_eq!(
        decode(&envelope("authorization.k8s.io/v1", "SelfSubjectAccessReview", &review)).unwrap(),
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
            "metadata": {"creationTimestamp": null},
            "spec": {"resourceAttributes": {"namespace": "default", "verb": "create", "group": "apps",
                "resource": "deployments"}},
            "status": {"allowed": false}})
    );
}

#[test]
fn token_request_with_int64_and_time() {
    let req = authn::TokenRequest {
        metadata: meta("s", "p"),
        spec: Some(authn::TokenRequestSpec {
            audiences: vec!["https://kubernetes.default.svc".into(), "api".into()],
            expiration_seconds: Some(4_000_000_000),
            bound_object_ref: None,
        }),
        status: Some(authn::TokenRequestStatus {
            token: s("t"),
            expiration_timestamp: Some(meta::Time { seconds: Some(1_700_000_000), nanos: Some(5) }),
        }),
    };
    assert_eq!(
        decode(&envelope("authentication.k8s.io/v1", "TokenRequest", &req)).unwrap(),
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
            "metadata": {"name": "s", "namespace": "p", "creationTimestamp": null},
            "spec": {"audiences": ["https://kubernetes.default.svc", "api"], "expirationSeconds": 4_000_000_000i64},
            "status": {"token": "t", "expirationTimestamp": "2023-11-14T22:13:20Z"}})
    );
}

#[test]
fn embedded_go_structs_are_inlined() {
    let pod = core::Pod {
        metadata: meta("p", "default"),
        spec: Some(core::PodSpec {
            volumes: vec![core::Volume {
                name: s("cfg"),
                volume_source: Some(core::VolumeSource {
                    config_map: Some(core::ConfigMapVolumeSource {
                        local_object_reference: Some(core::LocalObjectReference { name: s("c") }),
                        default_mode: Some(0o644),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
            }],
            containers: vec![core::Container {
                name: s("c"),
                liveness_probe: Some(core::Probe {
                    handler: Some(core::ProbeHandler {
                        exec: Some(core::ExecAction { command: vec!["true".into()] }),
                        ..Default::default()
                    }),
                    period_seconds: Some(5),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            ..Default::default()
        }),
        status: None,
    };
    assert_eq!(
        decode(&envelope("v1", "Pod", &pod)).unwrap()["spec"],
        json!({"volumes": [{"name": "cfg", "configMap": {"name": "c", "defaultMode": 420}}],
            "containers": [{"name": "c", "livenessProbe": {"exec": {"command": ["true"]}, "periodSeconds": 5}}]})
    );
}

#[test]
fn event_micro_time_and_delete_options_in_any_group() {
    let ev = core::Event {
        metadata: meta("e", "default"),
        event_time: Some(meta::MicroTime { seconds: Some(1_700_000_000), nanos: Some(123_456_789) }),
        count: Some(-3),
        ..Default::default()
    };
    let out = decode(&envelope("v1", "Event", &ev)).unwrap();
    assert_eq!(out["eventTime"], json!("2023-11-14T22:13:20.123456Z"));
    assert_eq!(out["count"], json!(-3));

    let opts = meta::DeleteOptions {
        grace_period_seconds: Some(0),
        propagation_policy: s("Foreground"),
        ..Default::default()
    };
    assert_eq!(
        decode(&envelope("apps/v1", "DeleteOptions", &opts)).unwrap(),
        json!({"apiVersion": "apps/v1", "kind": "DeleteOptions", "gracePeriodSeconds": 0,
            "propagationPolicy": "Foreground"})
    );
}

#[test]
fn extra_values_and_managed_fields() {
    let review = authz::SubjectAccessReview {
        metadata: Some(meta::ObjectMeta {
            name: s("r"),
            managed_fields: vec![meta::ManagedFieldsEntry {
                manager: s("kubectl"),
                operation: s("Update"),
                api_version: s("authorization.k8s.io/v1"),
                time: Some(meta::Time { seconds: Some(0), nanos: None }),
                fields_type: s("FieldsV1"),
                fields_v1: Some(meta::FieldsV1 { raw: Some(br#"{"f:spec":{}}"#.to_vec()) }),
                subresource: s(""),
            }],
            ..Default::default()
        }),
        spec: Some(authz::SubjectAccessReviewSpec {
            user: s("bob"),
            groups: vec!["devs".into()],
            extra: map(&[("scopes", authz::ExtraValue { items: vec!["a".into(), "b".into()] })]),
            ..Default::default()
        }),
        status: None,
    };
    let out = decode(&envelope("authorization.k8s.io/v1", "SubjectAccessReview", &review)).unwrap();
    assert_eq!(out["spec"], json!({"user": "bob", "groups": ["devs"], "extra": {"scopes": ["a", "b"]}}));
    assert_eq!(
        out["metadata"]["managedFields"],
        json!([{"manager": "kubectl", "operation": "Update", "apiVersion": "authorization.k8s.io/v1",
            "time": "1970-01-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}])
    );
}

#[test]
fn special_types_on_their_own() {
    use k8s_pb::apimachinery::pkg::runtime::RawExtension;
    let schema = Schema::get().unwrap();
    let one = |name: &str, bytes: &[u8]| decode::message(schema, name, bytes, 0).unwrap();
    let hour = meta::Duration { duration: Some(3_600_000_000_000) }.encode_to_vec();
    assert_eq!(one("apimachinery.pkg.apis.meta.v1.Duration", &hour), json!("1h0m0s"));
    assert_eq!(one("apimachinery.pkg.api.resource.Quantity", &[]), json!("0"));
    assert_eq!(one("apimachinery.pkg.util.intstr.IntOrString", &[]), json!(0));
    assert_eq!(one("apimachinery.pkg.apis.meta.v1.Time", &[]), json!(null));
    let raw = RawExtension { raw: Some(br#"{"a": [1, true]}"#.to_vec()) }.encode_to_vec();
    assert_eq!(one("apimachinery.pkg.runtime.RawExtension", &raw), json!({"a": [1, true]}));
    // A RawExtension may hold another protobuf object in its own envelope.
    let cm = core::ConfigMap { data: map(&[("k", "v".to_string())]), ..Default::default() };
    let nested = RawExtension { raw: Some(envelope("v1", "ConfigMap", &cm)) }.encode_to_vec();
    assert_eq!(
        one("apimachinery.pkg.runtime.RawExtension", &nested),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}})
    );
    let bad = RawExtension { raw: Some(b"{".to_vec()) }.encode_to_vec();
    assert!(matches!(
        decode::message(schema, "apimachinery.pkg.runtime.RawExtension", &bad, 0),
        Err(ProtobufError::InvalidValue(_))
    ));
    assert_eq!(
        decode::message(schema, "apimachinery.pkg.runtime.RawExtension", &nested, decode::MAX_DEPTH + 1),
        Err(ProtobufError::TooDeep(decode::MAX_DEPTH))
    );
}

#[test]
fn unknown_fields_are_skipped() {
    let mut raw = core::ConfigMap { metadata: meta("c", ""), ..Default::default() }.encode_to_vec();
    raw.extend([0xf8, 0x06, 0x01]); // field 111, varint 1
    raw.extend([0x82, 0x07, 0x02, b'h', b'i']); // field 112, bytes
    let unknown = Unknown {
        type_meta: Some(TypeMeta { api_version: s("v1"), kind: s("ConfigMap") }),
        raw: Some(raw),
        ..Default::default()
    };
    let body = [MAGIC.as_slice(), &unknown.encode_to_vec()].concat();
    assert_eq!(decode(&body).unwrap()["metadata"]["name"], json!("c"));
}

#[test]
fn errors_are_typed() {
    assert_eq!(decode(b"{\"kind\": \"ConfigMap\"}"), Err(ProtobufError::MissingMagic));
    let cm = core::ConfigMap::default();
    assert_eq!(
        decode(&envelope("example.com/v1", "Widget", &cm)),
        Err(ProtobufError::UnknownKind { api_version: "example.com/v1".into(), kind: "Widget".into() })
    );
    let mut body = envelope("v1", "ConfigMap", &core::ConfigMap { metadata: meta("c", ""), ..Default::default() });
    body.truncate(body.len() - 1);
    assert!(decode(&body).is_err());
    // ConfigMap field 4 (immutable) sent as a string.
    let bad = Unknown {
        type_meta: Some(TypeMeta { api_version: s("v1"), kind: s("ConfigMap") }),
        raw: Some(vec![0x22, 1, b'x']),
        ..Default::default()
    };
    let err = decode(&[MAGIC.as_slice(), &bad.encode_to_vec()].concat()).unwrap_err();
    assert_eq!(err.to_string(), "api.core.v1.ConfigMap field 4 has wire type length-delimited, expected varint");
    let gz = Unknown { content_encoding: s("gzip"), ..Default::default() };
    assert_eq!(
        decode(&[MAGIC.as_slice(), &gz.encode_to_vec()].concat()),
        Err(ProtobufError::ContentEncoding("gzip".into()))
    );
    assert!(is_protobuf("application/vnd.kubernetes.protobuf; charset=utf-8"));
    assert!(!is_protobuf("application/json"));
}

proptest! {
    #[test]
    fn random_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode(&tail);
        let _ = decode(&[MAGIC.as_slice(), &tail].concat());
    }

    #[test]
    fn random_objects_never_panic(kind in prop::sample::select(vec!["ConfigMap", "Pod", "Namespace", "Event"]),
                                  raw in proptest::collection::vec(any::<u8>(), 0..512)) {
        let unknown = Unknown {
            type_meta: Some(TypeMeta { api_version: s("v1"), kind: s(kind) }),
            raw: Some(raw),
            ..Default::default()
        };
        let _ = decode(&[MAGIC.as_slice(), &unknown.encode_to_vec()].concat());
    }

    #[test]
    fn mutated_deployments_never_panic(flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let deploy = apps::Deployment {
            metadata: meta("d", "p"),
            spec: Some(apps::DeploymentSpec { replicas: Some(3), ..Default::default() }),
            status: None,
        };
        let mut body = envelope("apps/v1", "Deployment", &deploy);
        for (i, b) in flips {
            let at = i.index(body.len());
            body[at] = b;
        }
        let _ = decode(&body);
    }
}

//! Rendering tests of `init` into a host cluster: flags in, objects out. Snapshots of the host
//! manifests (certificate material masked) for the default flags and a few combinations; the
//! PKI's names and validity; and a check that every rendered object is exactly representable
//! by its Kubernetes type (no unknown or misspelt field survives).

use std::net::IpAddr;

use clap::Parser;
use karmadactl_pki::{KeyAlgorithm, inspect_certificate};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::InitArgs;
use super::host::settings;
use crate::cmd::init::host::{CrdSet, HostPki, Settings, host_objects, karmada_objects};

#[derive(Parser)]
struct Init {
    #[command(flatten)]
    args: InitArgs,
}

/// Settings for `init <flags>`, with a fixed API server address (the host is not asked) and
/// fast ECDSA keys (the layout is what is tested, not RSA).
fn settings_for(flags: &[&str]) -> Settings {
    let init = Init::try_parse_from(std::iter::once("init").chain(flags.iter().copied())).expect("flags parse");
    let mut s = settings(&init.args).expect("settings resolve");
    s.key_algorithm = KeyAlgorithm::EcdsaP256;
    if s.apiserver_ips.is_empty() {
        s.apiserver_ips = vec!["192.0.2.10".parse().unwrap()];
    }
    s
}

/// Certificate and key material differs on every run; mask it, keeping which keys exist.
fn masked(mut obj: Value) -> Value {
    // pointer_mut, not IndexMut: indexing a missing key would insert a null and change the
    // snapshot's shape.
    if let Some(data) = obj.get_mut("data").and_then(Value::as_object_mut) {
        for (key, v) in data.iter_mut() {
            *v = json!(format!("<{key}>"));
        }
    }
    for pointer in ["/spec/caBundle", "/spec/conversion/webhook/clientConfig/caBundle"] {
        if let Some(v) = obj.pointer_mut(pointer) {
            *v = json!("<CA>");
        }
    }
    if let Some(hooks) = obj.get_mut("webhooks").and_then(Value::as_array_mut) {
        for hook in hooks {
            if let Some(v) = hook.pointer_mut("/clientConfig/caBundle") {
                *v = json!("<CA>");
            }
        }
    }
    obj
}

fn yaml(objects: &[Value]) -> String {
    objects
        .iter()
        .map(|o| {
            format!("---\n{}", crate::output::to_format(crate::output::OutputFormat::Yaml, &masked(o.clone())).unwrap())
        })
        .collect()
}

fn host_yaml(flags: &[&str]) -> String {
    let s = settings_for(flags);
    let pki = HostPki::generate(&s).unwrap();
    yaml(&host_objects::render(&s, &pki).unwrap())
}

#[test]
fn default_host_manifests() {
    insta::assert_snapshot!("host_default", host_yaml(&[]));
}

#[test]
fn pvc_ha_private_registry_extra_args() {
    insta::assert_snapshot!(
        "host_pvc_ha_private_registry",
        host_yaml(&[
            "--etcd-storage-mode=PVC",
            "--storage-classes-name=fast",
            "--etcd-pvc-size=10Gi",
            "--etcd-replicas=3",
            "--karmada-apiserver-replicas=3",
            "--private-image-registry=registry.example.com/karmada",
            "--image-pull-policy=Always",
            "--image-pull-secrets=pull-a,pull-b",
            "--karmada-apiserver-extra-args=--v=4,--audit-log-path=-",
            "--karmada-controller-manager-extra-args=--controllers=*,-hpaScaleTargetMarker",
            "-n",
            "karmada-ha",
            "--host-cluster-domain=corp.local",
            "--port=31443",
        ])
    );
}

#[test]
fn external_etcd_and_node_selector() {
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("etcd-ca.crt");
    std::fs::write(&ca, "-----BEGIN CERTIFICATE-----\nZXRjZA==\n-----END CERTIFICATE-----\n").unwrap();
    let (cert, key) = (dir.path().join("c.crt"), dir.path().join("c.key"));
    std::fs::write(&cert, "client-cert").unwrap();
    std::fs::write(&key, "client-key").unwrap();
    let flags = [
        "--external-etcd-servers=https://etcd-a:2379,https://etcd-b:2379".to_string(),
        "--external-etcd-key-prefix=/karmada".into(),
        format!("--external-etcd-ca-cert-path={}", ca.display()),
        format!("--external-etcd-client-cert-path={}", cert.display()),
        format!("--external-etcd-client-key-path={}", key.display()),
        "--kube-image-mirror-country=cn".into(),
        "--kube-image-tag=v1.33.1".into(),
        "--karmada-scheduler-image=my.registry/scheduler:dev".into(),
    ];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let out = host_yaml(&flags);
    assert!(!out.contains("kind: StatefulSet"), "no etcd with an external one");
    insta::assert_snapshot!("host_external_etcd", out);
}

#[test]
fn hostpath_node_selector_labels() {
    let s = settings_for(&[
        "--etcd-node-selector-labels=karmada.io/etcd=true,kubernetes.io/os=linux",
        "--etcd-data=/data/etcd",
    ]);
    let pki = HostPki::generate(&s).unwrap();
    let objects = host_objects::render(&s, &pki).unwrap();
    let sts = objects.iter().find(|o| o["kind"] == "StatefulSet").unwrap();
    let pod = &sts["spec"]["template"]["spec"];
    assert_eq!(pod["nodeSelector"], json!({"karmada.io/etcd": "true", "kubernetes.io/os": "linux"}));
    let data = pod["volumes"].as_array().unwrap().iter().find(|v| v["name"] == "etcd-data").unwrap();
    assert_eq!(data["hostPath"], json!({"path": "/data/etcd", "type": "DirectoryOrCreate"}));
}

#[test]
fn karmada_side_objects() {
    let s = settings_for(&[]);
    let pki = HostPki::generate(&s).unwrap();
    let objects = karmada_objects::render(&s, pki.cert("ca"), &CrdSet::builtin()).unwrap();
    // CRD schemas are tested elsewhere (tests/it/karmada_crds.rs); here only which CRDs and
    // their conversion webhooks.
    let summary: Vec<Value> = objects
        .into_iter()
        .map(|o| {
            if o["kind"] == "CustomResourceDefinition" {
                json!({"kind": o["kind"], "metadata": {"name": o["metadata"]["name"]},
                       "spec": {"conversion": o["spec"]["conversion"]}})
            } else if o["metadata"]["name"] == "cluster-info" {
                let kc = o["data"]["kubeconfig"].as_str().unwrap();
                assert!(kc.contains("server: https://192.0.2.10:32443"), "{kc}");
                assert!(kc.contains("  name: \"\""), "{kc}");
                json!({"kind": o["kind"], "metadata": o["metadata"]})
            } else {
                o
            }
        })
        .collect();
    insta::assert_snapshot!("karmada_side", yaml(&summary));
}

#[test]
fn pki_names_and_validity() {
    let s = settings_for(&[
        "--cert-external-ip=10.0.0.7",
        "--cert-external-dns=karmada.example.com",
        "--cert-validity-period=48h",
    ]);
    let pki = HostPki::generate(&s).unwrap();
    assert_eq!(pki.pairs.keys().copied().collect::<Vec<_>>().len(), 8);
    let ca = inspect_certificate(pki.cert("ca")).unwrap();
    assert!(ca.is_ca);
    assert_eq!(ca.subject.common_name, "karmada");
    assert_eq!(ca.dns_names, vec!["karmada"]);
    let ten_years = jiff::SignedDuration::from_hours(10 * 365 * 24);
    assert_eq!(ca.not_before.duration_until(ca.not_after), ten_years);

    let karmada = inspect_certificate(pki.cert("karmada")).unwrap();
    assert_eq!(karmada.subject.common_name, "system:admin");
    assert_eq!(karmada.subject.organizations, vec!["system:masters"]);
    assert_eq!(karmada.not_before, ca.not_before, "leaf NotBefore is the CA's");
    let validity = karmada.not_before.duration_until(karmada.not_after);
    assert!(validity <= jiff::SignedDuration::from_hours(48) + jiff::SignedDuration::from_mins(5));
    for dns in [
        "karmada.example.com",
        "karmada-apiserver.karmada-system.svc.cluster.local",
        "*.karmada-system.svc",
        "kubernetes.default.svc",
    ] {
        assert!(karmada.dns_names.iter().any(|d| d == dns), "{dns} missing from {:?}", karmada.dns_names);
    }
    let mut sorted = karmada.dns_names.clone();
    sorted.sort();
    assert_eq!(karmada.dns_names, sorted, "DNS SANs are sorted");
    let ips: Vec<IpAddr> = ["10.0.0.7", "127.0.0.1", "192.0.2.10"].iter().map(|i| i.parse().unwrap()).collect();
    assert_eq!(karmada.ip_addresses, ips);

    let apiserver = inspect_certificate(pki.cert("apiserver")).unwrap();
    assert_eq!(apiserver.subject.common_name, "karmada-apiserver");
    assert_eq!(apiserver.subject.organizations, vec![""]);
    assert_eq!(apiserver.dns_names, karmada.dns_names);

    let etcd = inspect_certificate(pki.cert("etcd-server")).unwrap();
    assert_eq!(etcd.issuer.common_name, "etcd-ca");
    assert_eq!(etcd.dns_names, vec!["etcd-0.etcd.karmada-system.svc.cluster.local", "localhost"]);
    assert_eq!(inspect_certificate(pki.cert("front-proxy-client")).unwrap().issuer.common_name, "front-proxy-ca");
    assert_eq!(inspect_certificate(pki.cert("etcd-client")).unwrap().subject.common_name, "karmada-etcd-client");
}

#[test]
fn pki_is_reused_only_when_complete_and_covering() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings_for(&[]);
    s.pki_dir = dir.path().to_path_buf();
    let first = HostPki::generate(&s).unwrap();
    first.write(&s, dir.path()).unwrap();
    let again = HostPki::load_or_generate(&s, dir.path()).unwrap();
    assert!(again.reused);
    assert_eq!(again.cert("ca"), first.cert("ca"));
    s.cert_external_dns = vec!["new.example.com".into()];
    let changed = HostPki::load_or_generate(&s, dir.path()).unwrap();
    assert!(!changed.reused, "a new SAN needs new certificates");
    std::fs::remove_file(dir.path().join("etcd-client.key")).unwrap();
    s.cert_external_dns.clear();
    assert!(!HostPki::load_or_generate(&s, dir.path()).unwrap().reused, "an incomplete set is not reused");
}

/// Deserialises `obj` into `T` and back; any field `T` does not know is lost, so the JSON
/// differs. Returns the first differing path.
fn round_trip<T: DeserializeOwned + Serialize>(obj: &Value) -> Result<(), String> {
    let typed: T = serde_path_to_error::deserialize(obj.clone()).map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
    let back = serde_json::to_value(&typed).unwrap();
    first_difference("", obj, &back).map_or(Ok(()), Err)
}

fn first_difference(path: &str, want: &Value, got: &Value) -> Option<String> {
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = format!("{path}.{k}");
                match b.get(k) {
                    None => return Some(format!("{p} was dropped (unknown field)")),
                    Some(w) => {
                        if let Some(d) = first_difference(&p, v, w) {
                            return Some(d);
                        }
                    }
                }
            }
            b.keys().find(|k| !a.contains_key(*k)).map(|k| format!("{path}.{k} appeared"))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| first_difference(&format!("{path}[{i}]"), x, y))
        }
        _ if want == got => None,
        _ => Some(format!("{path}: {want} became {got}")),
    }
}

#[test]
fn every_object_is_exactly_its_kubernetes_type() {
    use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
    use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
    use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret, Service};
    use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService;

    let combos: [&[&str]; 2] =
        [&[], &["--etcd-storage-mode=PVC", "--storage-classes-name=s", "--etcd-replicas=3", "--image-pull-secrets=a"]];
    let mut checked = std::collections::BTreeSet::new();
    for flags in combos {
        let s = settings_for(flags);
        let pki = HostPki::generate(&s).unwrap();
        let mut objects = host_objects::render(&s, &pki).unwrap();
        objects.extend(karmada_objects::render(&s, pki.cert("ca"), &CrdSet::builtin()).unwrap());
        for obj in &objects {
            let kind = obj["kind"].as_str().unwrap();
            let result = match kind {
                "Namespace" => round_trip::<Namespace>(obj),
                "Secret" => round_trip::<Secret>(obj),
                "Service" => round_trip::<Service>(obj),
                "ConfigMap" => round_trip::<ConfigMap>(obj),
                "Deployment" => round_trip::<Deployment>(obj),
                "StatefulSet" => round_trip::<StatefulSet>(obj),
                "CustomResourceDefinition" => round_trip::<CustomResourceDefinition>(obj),
                "MutatingWebhookConfiguration" => round_trip::<MutatingWebhookConfiguration>(obj),
                "ValidatingWebhookConfiguration" => round_trip::<ValidatingWebhookConfiguration>(obj),
                "APIService" => round_trip::<APIService>(obj),
                "ClusterRole" => round_trip::<ClusterRole>(obj),
                "ClusterRoleBinding" => round_trip::<ClusterRoleBinding>(obj),
                "Role" => round_trip::<Role>(obj),
                "RoleBinding" => round_trip::<RoleBinding>(obj),
                other => Err(format!("no type mapped for kind {other}")),
            };
            if let Err(e) = result {
                panic!("{} is not exactly a {kind}: {e}", crate::cmd::init::host::plan::object_line(obj));
            }
            checked.insert(kind.to_string());
        }
    }
    assert_eq!(checked.len(), 14, "every kind was checked: {checked:?}");
}

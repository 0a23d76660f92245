use super::*;

const FULL: &str = r#"
apiVersion: config.karmada.io/v1alpha1
kind: KarmadaInitConfig
metadata:
  name: karmada-init
spec:
  hostCluster:
    kubeconfig: /host/kubeconfig
    context: host-ctx
    domain: example.local
  images:
    imagePullPolicy: Always
    imagePullSecrets: [s1, s2]
    kubeImageMirrorCountry: cn
    kubeImageRegistry: kube.example
    kubeImageTag: v1.30.0
    privateRegistry:
      registry: private.example
  certificates:
    caCertFile: /ca.crt
    caKeyFile: /ca.key
    externalDNS: [a.example, b.example]
    externalIP: [10.0.0.1, "::1"]
    validityPeriod: 48h
  etcd:
    local:
      repository: etcd.example/etcd
      tag: "3.6"
      replicas: 3
      dataPath: /data/etcd
      pvcSize: 9Gi
      nodeSelectorLabels:
        disk: ssd
      storageMode: PVC
      storageClassesName: fast
      extraArgs:
        - name: snapshot-count
          value: "5000"
  components:
    karmadaAPIServer:
      repository: reg/kube-apiserver
      tag: v9
      replicas: 2
      advertiseAddress: 192.0.2.7
      networking:
        namespace: karmada-x
        port: 31000
      extraArgs:
        - {name: v, value: "4"}
    karmadaAggregatedAPIServer: {repository: reg/agg, tag: t1, replicas: 4}
    kubeControllerManager: {repository: reg/kcm, tag: t2}
    karmadaControllerManager: {repository: reg/kcm2, tag: t3, replicas: 5}
    karmadaScheduler: {repository: reg/sched, tag: t4}
    karmadaWebhook: {repository: reg/hook, tag: t5, replicas: 6}
  karmadaDataPath: /data/karmada
  karmadaPKIPath: /data/pki
  karmadaCRDs: /crds.tar.gz
  waitComponentReadyTimeout: 30
"#;

#[test]
fn every_section_is_mapped() {
    let c = parse(FULL).unwrap();
    assert_eq!(c.kubeconfig.as_deref(), Some("/host/kubeconfig"));
    assert_eq!(c.context.as_deref(), Some("host-ctx"));
    assert_eq!(c.host_cluster_domain.as_deref(), Some("example.local"));
    assert_eq!(c.image_pull_policy.as_deref(), Some("Always"));
    assert_eq!(c.image_pull_secrets, ["s1", "s2"]);
    assert_eq!(c.kube_image_mirror_country.as_deref(), Some("cn"));
    assert_eq!(c.kube_image_registry.as_deref(), Some("kube.example"));
    assert_eq!(c.kube_image_tag.as_deref(), Some("v1.30.0"));
    assert_eq!(c.private_image_registry.as_deref(), Some("private.example"));
    assert_eq!(c.ca_cert_file.as_deref(), Some("/ca.crt"));
    assert_eq!(c.ca_key_file.as_deref(), Some("/ca.key"));
    assert_eq!(c.cert_external_dns, ["a.example", "b.example"]);
    assert_eq!(c.cert_external_ip, ["10.0.0.1", "::1"]);
    assert_eq!(c.cert_validity_period.as_deref(), Some("48h"));
    let etcd = &c.components["etcd"];
    assert_eq!(etcd.image.as_deref(), Some("etcd.example/etcd:3.6"));
    assert_eq!(etcd.replicas, Some(3));
    assert_eq!(etcd.extra_args, [("snapshot-count".to_string(), "5000".to_string())]);
    assert_eq!(c.etcd_data.as_deref(), Some("/data/etcd"));
    assert_eq!(c.etcd_pvc_size.as_deref(), Some("9Gi"));
    assert_eq!(c.etcd_node_selector_labels, BTreeMap::from([("disk".to_string(), "ssd".to_string())]));
    assert_eq!(c.etcd_storage_mode.as_deref(), Some("PVC"));
    assert_eq!(c.storage_classes_name.as_deref(), Some("fast"));
    let api = &c.components["karmada-apiserver"];
    assert_eq!(api.image.as_deref(), Some("reg/kube-apiserver:v9"));
    assert_eq!(api.replicas, Some(2));
    assert_eq!(api.extra_args, [("v".to_string(), "4".to_string())]);
    assert_eq!(c.karmada_apiserver_advertise_address.as_deref(), Some("192.0.2.7"));
    assert_eq!(c.namespace.as_deref(), Some("karmada-x"));
    assert_eq!(c.port, Some(31000));
    let image = |p: &str| c.components[p].image.clone().unwrap();
    assert_eq!(image("karmada-aggregated-apiserver"), "reg/agg:t1");
    assert_eq!(c.components["karmada-aggregated-apiserver"].replicas, Some(4));
    assert_eq!(image("karmada-kube-controller-manager"), "reg/kcm:t2");
    assert_eq!(image("karmada-controller-manager"), "reg/kcm2:t3");
    assert_eq!(image("karmada-scheduler"), "reg/sched:t4");
    assert_eq!(image("karmada-webhook"), "reg/hook:t5");
    assert_eq!(c.components["karmada-webhook"].replicas, Some(6));
    assert_eq!(c.karmada_data.as_deref(), Some("/data/karmada"));
    assert_eq!(c.karmada_pki.as_deref(), Some("/data/pki"));
    assert_eq!(c.crds.as_deref(), Some("/crds.tar.gz"));
    assert_eq!(c.wait_component_ready_timeout, Some(30));
    assert!(c.unused.is_empty(), "{:?}", c.unused);
}

#[test]
fn external_etcd_is_mapped() {
    let c = parse(
        "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\nspec:\n  etcd:\n    external:\n      endpoints: [https://e1:2379, https://e2:2379]\n      caFile: /ca\n      certFile: /c\n      keyFile: /k\n      keyPrefix: /pre\n",
    )
    .unwrap();
    assert_eq!(c.external_etcd_servers, ["https://e1:2379", "https://e2:2379"]);
    assert_eq!(c.external_etcd_ca_cert_path.as_deref(), Some("/ca"));
    assert_eq!(c.external_etcd_client_cert_path.as_deref(), Some("/c"));
    assert_eq!(c.external_etcd_client_key_path.as_deref(), Some("/k"));
    assert_eq!(c.external_etcd_key_prefix.as_deref(), Some("/pre"));
}

#[test]
fn names_match_case_insensitively_as_go_does() {
    // Upstream's e2e template spells these two differently from the Go field tags.
    let c = parse(
        "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\nspec:\n  karmadaCrds: /c.tgz\n  karmadaPkiPath: /pki\n  COMPONENTS:\n    karmadaApiServer:\n      Networking: {PORT: 30001}\n",
    )
    .unwrap();
    assert_eq!(c.crds.as_deref(), Some("/c.tgz"));
    assert_eq!(c.karmada_pki.as_deref(), Some("/pki"));
    assert_eq!(c.port, Some(30001));
}

#[test]
fn empty_and_zero_values_mean_unset_and_an_image_needs_both_parts() {
    let c = parse(
        "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\nspec:\n  karmadaDataPath: \"\"\n  waitComponentReadyTimeout: 0\n  components:\n    karmadaScheduler: {repository: reg/sched, replicas: 0}\n",
    )
    .unwrap();
    assert_eq!(c.karmada_data, None);
    assert_eq!(c.wait_component_ready_timeout, None);
    assert_eq!(c.components["karmada-scheduler"], ComponentConfig::default());
}

#[test]
fn unused_upstream_fields_are_listed() {
    let c = parse(
        "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\nspec:\n  hostCluster: {apiEndpoint: https://x}\n  components:\n    karmadaWebhook: {resources: {}, tolerations: []}\n",
    )
    .unwrap();
    assert_eq!(
        c.unused,
        [
            "spec.hostCluster.apiEndpoint",
            "spec.components.karmadaWebhook.resources",
            "spec.components.karmadaWebhook.tolerations"
        ]
    );
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

const HEAD: &str = "apiVersion: config.karmada.io/v1alpha1\nkind: KarmadaInitConfig\n";

#[test]
fn unknown_fields_are_named() {
    let e = err(&format!("{HEAD}spec:\n  images:\n    imagePulPolicy: Always\n"));
    assert!(e.starts_with("spec.images.imagePulPolicy: unknown field"), "{e}");
    let e = err(&format!("{HEAD}spek: {{}}\n"));
    assert!(e.starts_with("spek: unknown field"), "{e}");
}

#[test]
fn wrong_kind_and_version_are_refused() {
    let e = err("apiVersion: config.karmada.io/v1alpha1\nkind: InitConfig\n");
    assert_eq!(e, "no KarmadaInitConfig kind was found in the YAML file");
    let e = err("- a\n- b\n");
    assert_eq!(e, "no KarmadaInitConfig kind was found in the YAML file");
    let e = err("apiVersion: config.karmada.io/v1beta9\nkind: KarmadaInitConfig\n");
    assert!(e.contains("\"config.karmada.io/v1beta9\" is not supported"), "{e}");
}

#[test]
fn bad_values_are_refused_with_their_path() {
    let cases = [
        ("spec:\n  etcd:\n    local: {storageMode: Disk}\n", "spec.etcd.local.storageMode: \"Disk\" is not one of"),
        ("spec:\n  certificates: {validityPeriod: forever}\n", "spec.certificates.validityPeriod: invalid duration"),
        (
            "spec:\n  certificates: {externalIP: [not-an-ip]}\n",
            "spec.certificates.externalIP: \"not-an-ip\" is not a valid IP",
        ),
        ("spec:\n  images: {imagePullPolicy: Sometimes}\n", "spec.images.imagePullPolicy: \"Sometimes\""),
        ("spec:\n  waitComponentReadyTimeout: soon\n", "spec.waitComponentReadyTimeout: expected an integer"),
        ("spec:\n  karmadaDataPath: [a]\n", "spec.karmadaDataPath: expected a string"),
        (
            "spec:\n  components:\n    karmadaWebhook: {extraArgs: [{name: \"--v\", value: \"1\"}]}\n",
            "spec.components.karmadaWebhook.extraArgs[0].name",
        ),
    ];
    for (body, want) in cases {
        let e = err(&format!("{HEAD}{body}"));
        assert!(e.starts_with(want), "{body}: {e}");
    }
    assert!(err("a: [unclosed\n").starts_with("the file is not one YAML document"));
}

//! The objects `addons enable` creates, rendered from upstream's manifests
//! (`manifests/addons/`): per addon, what goes into the host cluster's namespace and what goes
//! into the Karmada API server. Everything carries this tool's installation label, which is what
//! `addons disable` checks before deleting.

use base64::Engine as _;
use karmadactl_karmada_api::wellknown::LABEL_INSTALLED_BY;
use serde_json::{Value, json};

use super::catalog::{Addon, estimator_name, estimator_secret};
use crate::cmd::init::host::template::{self, TemplateError};

const DESCHEDULER: &str = include_str!("../../../manifests/addons/deployment-karmada-descheduler.yaml");
const ESTIMATOR: &str = include_str!("../../../manifests/addons/deployment-karmada-scheduler-estimator.yaml");
const ESTIMATOR_SERVICE: &str = include_str!("../../../manifests/addons/service-karmada-scheduler-estimator.yaml");
const METRICS_ADAPTER: &str = include_str!("../../../manifests/addons/deployment-karmada-metrics-adapter.yaml");
const SEARCH: &str = include_str!("../../../manifests/addons/deployment-karmada-search.yaml");
const AGGREGATED_SERVICE: &str = include_str!("../../../manifests/addons/service-aggregated.yaml");
const EXTERNAL_NAME_SERVICE: &str = include_str!("../../../manifests/addons/service-externalname.yaml");
const API_SERVICE: &str = include_str!("../../../manifests/addons/apiservice.yaml");

/// Value of [`LABEL_INSTALLED_BY`] on everything `addons enable` creates.
pub const INSTALLED_BY_ADDONS: &str = "karmadactl-addons";

/// Where the components read the kubeconfig `init` wrote into their `<name>-config` secret.
const KARMADA_CONFIG: &str = "/etc/karmada/config/karmada.config";

/// One addon's image, size and priority class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    pub image: String,
    pub replicas: i32,
    pub priority_class: String,
}

/// Everything rendering needs, looked up before anything is created.
#[derive(Debug, Clone)]
pub struct Render {
    pub namespace: String,
    pub cluster_domain: String,
    /// `-C`: the member cluster of the scheduler estimator.
    pub cluster: Option<String>,
    /// PEM of the Karmada CA (`ca.crt` of the host's `karmada-cert` secret), for the APIServices.
    pub ca_pem: Vec<u8>,
    /// karmada-search's `--etcd-servers` and `--etcd-prefix`.
    pub etcd_servers: String,
    pub etcd_prefix: Option<String>,
    /// The member cluster's kubeconfig for the estimator.
    pub member_kubeconfig: String,
}

/// Adds the installation label.
fn labelled(mut obj: Value) -> Value {
    let labels = &mut obj["metadata"]["labels"];
    if !labels.is_object() {
        *labels = json!({});
    }
    labels[LABEL_INSTALLED_BY] = json!(INSTALLED_BY_ADDONS);
    obj
}

/// The objects `addon` creates in the host cluster, in the order upstream creates them.
pub fn host_objects(addon: Addon, workload: &Workload, r: &Render) -> Result<Vec<Value>, TemplateError> {
    let ns = r.namespace.as_str();
    let base = |name: &str| {
        vec![
            ("namespace", json!(ns)),
            ("replicas", json!(workload.replicas)),
            ("priority_class", json!(workload.priority_class)),
            ("image", json!(workload.image)),
            ("name", json!(name)),
        ]
    };
    let mut out = Vec::new();
    match addon {
        Addon::Descheduler => {
            let mut values = base(addon.name());
            values.push(("command", json!(descheduler_command(ns))));
            out.push(template::render("deployment-karmada-descheduler.yaml", DESCHEDULER, &values)?);
        }
        Addon::SchedulerEstimator => {
            let cluster = r.cluster.as_deref().unwrap_or_default();
            let name = estimator_name(cluster);
            let secret = estimator_secret(cluster);
            let b64 = base64::engine::general_purpose::STANDARD;
            out.push(json!({
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": secret, "namespace": ns},
                "type": "Opaque",
                "data": {&secret: b64.encode(&r.member_kubeconfig)},
            }));
            let service_values = [("name", json!(name)), ("namespace", json!(ns)), ("cluster", json!(cluster))];
            out.push(template::render("service-karmada-scheduler-estimator.yaml", ESTIMATOR_SERVICE, &service_values)?);
            let mut values = base(&name);
            values.extend([
                ("cluster", json!(cluster)),
                ("kubeconfig_secret", json!(secret)),
                ("kubeconfig_path", json!(format!("/etc/{secret}"))),
                ("command", json!(estimator_command(cluster))),
            ]);
            out.push(template::render("deployment-karmada-scheduler-estimator.yaml", ESTIMATOR, &values)?);
        }
        Addon::MetricsAdapter | Addon::Search => {
            let service_values = [("name", json!(addon.name())), ("namespace", json!(ns))];
            out.push(template::render("service-aggregated.yaml", AGGREGATED_SERVICE, &service_values)?);
            let mut values = base(addon.name());
            if addon == Addon::Search {
                values.push(("command", json!(search_command(&r.etcd_servers, r.etcd_prefix.as_deref()))));
                out.push(template::render("deployment-karmada-search.yaml", SEARCH, &values)?);
            } else {
                values.push(("command", json!(metrics_adapter_command())));
                out.push(template::render("deployment-karmada-metrics-adapter.yaml", METRICS_ADAPTER, &values)?);
            }
        }
    }
    Ok(out.into_iter().map(labelled).collect())
}

/// The objects `addon` creates in the Karmada API server: a Service of type ExternalName that
/// points at the host Service, and the APIServices served through it.
pub fn karmada_objects(addon: Addon, r: &Render) -> Result<Vec<Value>, TemplateError> {
    if addon.api_services().is_empty() {
        return Ok(Vec::new());
    }
    let ns = r.namespace.as_str();
    let external = format!("{}.{ns}.svc.{}", addon.name(), r.cluster_domain);
    let values = [("name", json!(addon.name())), ("namespace", json!(ns)), ("external_name", json!(external))];
    let mut out = vec![template::render("service-externalname.yaml", EXTERNAL_NAME_SERVICE, &values)?];
    let (group_priority, version_priority) = if addon == Addon::Search { (2000, 10) } else { (100, 200) };
    let ca_bundle = base64::engine::general_purpose::STANDARD.encode(&r.ca_pem);
    for api_service in addon.api_services() {
        let (version, group) = api_service.split_once('.').expect("APIService names are <version>.<group>");
        let values = [
            ("name", json!(api_service)),
            ("service", json!(addon.name())),
            ("namespace", json!(ns)),
            ("group", json!(group)),
            ("version", json!(version)),
            ("ca_bundle", json!(ca_bundle)),
            ("group_priority_minimum", json!(group_priority)),
            ("version_priority", json!(version_priority)),
        ];
        let mut obj = template::render("apiservice.yaml", API_SERVICE, &values)?;
        if addon == Addon::Search {
            obj["metadata"]["labels"] = json!({"app": "karmada-search", "apiserver": "true"});
        }
        out.push(obj);
    }
    Ok(out.into_iter().map(labelled).collect())
}

fn descheduler_command(namespace: &str) -> Vec<String> {
    vec![
        "/bin/karmada-descheduler".into(),
        format!("--kubeconfig={KARMADA_CONFIG}"),
        "--metrics-bind-address=$(POD_IP):8080".into(),
        "--health-probe-bind-address=$(POD_IP):10358".into(),
        format!("--leader-elect-resource-namespace={namespace}"),
        "--scheduler-estimator-ca-file=/etc/karmada/pki/ca.crt".into(),
        "--scheduler-estimator-cert-file=/etc/karmada/pki/karmada.crt".into(),
        "--scheduler-estimator-key-file=/etc/karmada/pki/karmada.key".into(),
        "--v=2".into(),
    ]
}

fn estimator_command(cluster: &str) -> Vec<String> {
    vec![
        "/bin/karmada-scheduler-estimator".into(),
        format!("--kubeconfig=/etc/{}", estimator_secret(cluster)),
        format!("--cluster-name={cluster}"),
        "--grpc-auth-cert-file=/etc/karmada/pki/karmada.crt".into(),
        "--grpc-auth-key-file=/etc/karmada/pki/karmada.key".into(),
        "--grpc-client-ca-file=/etc/karmada/pki/ca.crt".into(),
        "--metrics-bind-address=$(POD_IP):8080".into(),
        "--health-probe-bind-address=$(POD_IP):10351".into(),
    ]
}

fn metrics_adapter_command() -> Vec<String> {
    vec![
        "/bin/karmada-metrics-adapter".into(),
        "--metrics-bind-address=$(POD_IP):8080".into(),
        format!("--kubeconfig={KARMADA_CONFIG}"),
        format!("--authentication-kubeconfig={KARMADA_CONFIG}"),
        format!("--authorization-kubeconfig={KARMADA_CONFIG}"),
        "--client-ca-file=/etc/karmada/pki/ca.crt".into(),
        "--tls-cert-file=/etc/karmada/pki/karmada.crt".into(),
        "--tls-private-key-file=/etc/karmada/pki/karmada.key".into(),
        "--audit-log-path=-".into(),
        "--audit-log-maxage=0".into(),
        "--audit-log-maxbackup=0".into(),
        "--tls-min-version=VersionTLS13".into(),
        "--bind-address=$(POD_IP)".into(),
    ]
}

fn search_command(etcd_servers: &str, etcd_prefix: Option<&str>) -> Vec<String> {
    let mut command = vec![
        "/bin/karmada-search".into(),
        format!("--kubeconfig={KARMADA_CONFIG}"),
        format!("--authentication-kubeconfig={KARMADA_CONFIG}"),
        format!("--authorization-kubeconfig={KARMADA_CONFIG}"),
        format!("--etcd-servers={etcd_servers}"),
        "--etcd-cafile=/etc/karmada/pki/etcd-ca.crt".into(),
        "--etcd-certfile=/etc/karmada/pki/etcd-client.crt".into(),
        "--etcd-keyfile=/etc/karmada/pki/etcd-client.key".into(),
        "--tls-cert-file=/etc/karmada/pki/karmada.crt".into(),
        "--tls-private-key-file=/etc/karmada/pki/karmada.key".into(),
        "--tls-min-version=VersionTLS13".into(),
        "--audit-log-path=-".into(),
        "--audit-log-maxage=0".into(),
        "--audit-log-maxbackup=0".into(),
    ];
    if let Some(prefix) = etcd_prefix.filter(|p| !p.is_empty()) {
        command.push(format!("--etcd-prefix={prefix}"));
    }
    command.push("--bind-address=$(POD_IP)".into());
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render() -> Render {
        Render {
            namespace: "karmada-system".into(),
            cluster_domain: "cluster.local".into(),
            cluster: Some("member1".into()),
            ca_pem: b"-----BEGIN CERTIFICATE-----\n".to_vec(),
            etcd_servers: "https://etcd-0.etcd.karmada-system.svc.cluster.local:2379".into(),
            etcd_prefix: None,
            member_kubeconfig: "apiVersion: v1\nkind: Config\n".into(),
        }
    }

    fn workload() -> Workload {
        Workload { image: "docker.io/karmada/x:v1".into(), replicas: 2, priority_class: "system-node-critical".into() }
    }

    #[test]
    fn every_addon_renders_with_the_installation_label() {
        for addon in Addon::ALL {
            let host = host_objects(addon, &workload(), &render()).unwrap();
            let karmada = karmada_objects(addon, &render()).unwrap();
            assert!(!host.is_empty());
            for obj in host.iter().chain(&karmada) {
                assert_eq!(obj["metadata"]["labels"][LABEL_INSTALLED_BY], INSTALLED_BY_ADDONS, "{obj}");
            }
            let deployment = host.last().unwrap();
            assert_eq!(deployment["kind"], "Deployment");
            assert_eq!(deployment["spec"]["replicas"], 2);
            assert_eq!(deployment["spec"]["template"]["spec"]["containers"][0]["image"], "docker.io/karmada/x:v1");
            assert_eq!(karmada.len(), if addon.api_services().is_empty() { 0 } else { 1 + addon.api_services().len() });
        }
    }

    #[test]
    fn the_estimator_is_named_after_its_cluster() {
        let objs = host_objects(Addon::SchedulerEstimator, &workload(), &render()).unwrap();
        let kinds: Vec<&str> = objs.iter().map(|o| o["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["Secret", "Service", "Deployment"]);
        assert_eq!(objs[0]["metadata"]["name"], "member1-kubeconfig");
        assert!(objs[0]["data"]["member1-kubeconfig"].is_string());
        let d = &objs[2];
        assert_eq!(d["metadata"]["name"], "karmada-scheduler-estimator-member1");
        assert_eq!(d["metadata"]["labels"]["cluster"], "member1");
        let pod = &d["spec"]["template"]["spec"];
        assert_eq!(pod["containers"][0]["volumeMounts"][1]["mountPath"], "/etc/member1-kubeconfig");
        assert_eq!(pod["containers"][0]["command"][1], "--kubeconfig=/etc/member1-kubeconfig");
        assert_eq!(pod["volumes"][1]["secret"]["secretName"], "member1-kubeconfig");
    }

    #[test]
    fn search_takes_the_etcd_prefix_only_when_there_is_one() {
        let mut r = render();
        let command = |r: &Render| {
            let objs = host_objects(Addon::Search, &workload(), r).unwrap();
            objs[1]["spec"]["template"]["spec"]["containers"][0]["command"].clone()
        };
        assert!(!command(&r).to_string().contains("--etcd-prefix"));
        r.etcd_prefix = Some("/karmada".into());
        let with = command(&r);
        let list = with.as_array().unwrap();
        assert_eq!(list[list.len() - 2], "--etcd-prefix=/karmada");
        assert_eq!(list[list.len() - 1], "--bind-address=$(POD_IP)");
    }

    #[test]
    fn api_services_carry_the_ca_and_upstreams_priorities() {
        let objs = karmada_objects(Addon::MetricsAdapter, &render()).unwrap();
        assert_eq!(objs[0]["spec"]["externalName"], "karmada-metrics-adapter.karmada-system.svc.cluster.local");
        let names: Vec<&str> = objs[1..].iter().map(|o| o["metadata"]["name"].as_str().unwrap()).collect();
        assert_eq!(names, Addon::MetricsAdapter.api_services());
        assert_eq!(objs[2]["spec"]["group"], "custom.metrics.k8s.io");
        assert_eq!(objs[3]["spec"]["version"], "v1beta2");
        assert_eq!(objs[1]["spec"]["groupPriorityMinimum"], 100);
        assert_eq!(objs[1]["spec"]["caBundle"], "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==");
        let search = karmada_objects(Addon::Search, &render()).unwrap();
        assert_eq!(search[1]["spec"]["groupPriorityMinimum"], 2000);
        assert_eq!(search[1]["metadata"]["labels"]["app"], "karmada-search");
    }
}

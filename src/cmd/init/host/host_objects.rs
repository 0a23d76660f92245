//! The objects init creates in the host cluster's namespace (upstream §3.5 steps 5–11):
//! the namespace, the certificate and kubeconfig secrets, etcd, and the component workloads
//! with their services. Every object carries upstream's `karmada.io/bootstrapping` label and
//! this tool's installation label, which is what deinit deletes by.

use base64::Engine as _;
use karmadactl_karmada_api::wellknown::{LABEL_BOOTSTRAPPING, LABEL_INSTALLED_BY, LABEL_KARMADA_SYSTEM};
use serde_json::{Value, json};

use super::commands::command;
use super::pki::{HostPki, NAMES};
use super::settings::{Etcd, Part, Settings, StorageMode};
use super::template::{self, TemplateError};

const DEPLOYMENT: &str = include_str!("../../../../manifests/hostinit/deployment.yaml");
const ETCD_STATEFULSET: &str = include_str!("../../../../manifests/hostinit/statefulset-etcd.yaml");
const ETCD_SERVICE: &str = include_str!("../../../../manifests/hostinit/service-etcd.yaml");
const APISERVER_SERVICE: &str = include_str!("../../../../manifests/hostinit/service-karmada-apiserver.yaml");
const AGGREGATED_SERVICE: &str =
    include_str!("../../../../manifests/hostinit/service-karmada-aggregated-apiserver.yaml");
const KCM_SERVICE: &str = include_str!("../../../../manifests/hostinit/service-kube-controller-manager.yaml");
const WEBHOOK_SERVICE: &str = include_str!("../../../../manifests/hostinit/service-karmada-webhook.yaml");

/// Value of [`LABEL_INSTALLED_BY`] on everything init creates in the host cluster.
pub const INSTALLED_BY_INIT: &str = "karmadactl-init";

/// The components whose kubeconfig secret `<name>-config` init writes (upstream writes them
/// for the add-ons too, so installing those later finds them).
pub const CONFIG_SECRETS: [&str; 8] = [
    "karmada-aggregated-apiserver",
    "karmada-controller-manager",
    "kube-controller-manager",
    "karmada-scheduler",
    "karmada-descheduler",
    "karmada-metrics-adapter",
    "karmada-search",
    "karmada-webhook",
];

/// Every host object, in the order init applies them.
pub fn render(settings: &Settings, pki: &HostPki) -> Result<Vec<Value>, TemplateError> {
    let mut out = vec![namespace(settings)];
    out.extend(secrets(settings, pki));
    for part in Part::ALL {
        if part == Part::Etcd && !settings.local_etcd() {
            continue;
        }
        if let Some(service) = service(settings, part)? {
            out.push(service);
        }
        out.push(workload(settings, part)?);
    }
    Ok(out)
}

fn labelled(mut obj: Value, bootstrapping: &str) -> Value {
    let labels = &mut obj["metadata"]["labels"];
    if !labels.is_object() {
        *labels = json!({});
    }
    labels[LABEL_BOOTSTRAPPING] = json!(bootstrapping);
    labels[LABEL_INSTALLED_BY] = json!(INSTALLED_BY_INIT);
    obj
}

fn namespace(settings: &Settings) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": settings.namespace, "labels": {
            LABEL_KARMADA_SYSTEM: "true",
            LABEL_INSTALLED_BY: INSTALLED_BY_INIT,
        }},
    })
}

fn secret(settings: &Settings, name: &str, data: Vec<(String, &str)>) -> Value {
    let b64 = base64::engine::general_purpose::STANDARD;
    let data: serde_json::Map<String, Value> = data.into_iter().map(|(k, v)| (k, json!(b64.encode(v)))).collect();
    labelled(
        json!({
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": name, "namespace": settings.namespace},
            "type": "Opaque",
            "data": data,
        }),
        "secret-defaults",
    )
}

/// The kubeconfig the components use to reach the new API server from inside the host.
pub fn component_kubeconfig(settings: &Settings, pki: &HostPki) -> String {
    let kc = crate::kubeconfig::KubeconfigBuilder::new(
        karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT,
        karmadactl_karmada_api::wellknown::KARMADA_ADMIN_USER,
        settings.in_cluster_server(),
    )
    .context(karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT)
    .certificate_authority(pki.cert("ca"))
    .client_certificate(pki.cert("karmada"), pki.key("karmada"))
    .build();
    crate::kubeconfig::to_yaml(&kc).unwrap_or_default()
}

fn secrets(settings: &Settings, pki: &HostPki) -> Vec<Value> {
    let kubeconfig = component_kubeconfig(settings, pki);
    let mut out: Vec<Value> = CONFIG_SECRETS
        .iter()
        .map(|c| secret(settings, &format!("{c}-config"), vec![("karmada.config".into(), kubeconfig.as_str())]))
        .collect();
    if settings.local_etcd() {
        let mut data = Vec::new();
        for name in ["etcd-ca", "etcd-server"] {
            data.push((format!("{name}.crt"), pki.cert(name)));
            data.push((format!("{name}.key"), pki.key(name)));
        }
        out.push(secret(settings, "etcd-cert", data));
    }
    let mut data = Vec::new();
    for name in NAMES {
        if !pki.cert(name).is_empty() {
            data.push((format!("{name}.crt"), pki.cert(name)));
        }
        if !pki.key(name).is_empty() {
            data.push((format!("{name}.key"), pki.key(name)));
        }
    }
    out.push(secret(settings, "karmada-cert", data));
    out.push(secret(
        settings,
        "karmada-webhook-cert",
        vec![("tls.crt".into(), pki.cert("karmada")), ("tls.key".into(), pki.key("karmada"))],
    ));
    out
}

fn service(settings: &Settings, part: Part) -> Result<Option<Value>, TemplateError> {
    let (name, text) = match part {
        Part::Etcd => ("service-etcd.yaml", ETCD_SERVICE),
        Part::ApiServer => ("service-karmada-apiserver.yaml", APISERVER_SERVICE),
        Part::AggregatedApiServer => ("service-karmada-aggregated-apiserver.yaml", AGGREGATED_SERVICE),
        Part::KubeControllerManager => ("service-kube-controller-manager.yaml", KCM_SERVICE),
        Part::Webhook => ("service-karmada-webhook.yaml", WEBHOOK_SERVICE),
        Part::Scheduler | Part::ControllerManager => return Ok(None),
    };
    let values = [("namespace", json!(settings.namespace)), ("node_port", json!(settings.node_port))];
    let rendered = template::render(name, text, &values)?;
    Ok(Some(labelled(rendered, "service-defaults")))
}

fn workload(settings: &Settings, part: Part) -> Result<Value, TemplateError> {
    let ps = settings.part(part);
    let pull_policy = if part.is_karmada_image() { settings.image_pull_policy.as_str() } else { "IfNotPresent" };
    let values = [
        ("name", json!(part.name())),
        ("namespace", json!(settings.namespace)),
        ("replicas", json!(ps.replicas)),
        ("priority_class", json!(ps.priority_class)),
        ("image", json!(ps.image)),
        ("pull_policy", json!(pull_policy)),
    ];
    let mut obj = if part == Part::Etcd {
        template::render("statefulset-etcd.yaml", ETCD_STATEFULSET, &values)?
    } else {
        template::render("deployment.yaml", DEPLOYMENT, &values)?
    };
    let pod = &mut obj["spec"]["template"];
    if part == Part::AggregatedApiServer {
        pod["metadata"]["labels"]["apiserver"] = json!("true");
        obj["spec"]["selector"]["matchLabels"]["apiserver"] = json!("true");
    }
    let pod = &mut obj["spec"]["template"]["spec"];
    if !settings.image_pull_secrets.is_empty() {
        pod["imagePullSecrets"] = settings.image_pull_secrets.iter().map(|n| json!({"name": n})).collect();
    }
    pod["containers"][0]["command"] = json!(command(settings, part));
    specifics(part, pod);
    if part == Part::Etcd {
        etcd_storage(settings, &mut obj);
    }
    Ok(labelled(obj, "app-defaults"))
}

fn https_probe(path: &str, port: i32) -> Value {
    json!({"httpGet": {"path": path, "port": port, "scheme": "HTTPS"},
           "initialDelaySeconds": 10, "periodSeconds": 10, "timeoutSeconds": 15, "failureThreshold": 3})
}

fn http_probe(path: &str, port: i32) -> Value {
    json!({"httpGet": {"path": path, "port": port, "scheme": "HTTP"},
           "initialDelaySeconds": 15, "periodSeconds": 15, "timeoutSeconds": 5, "failureThreshold": 3})
}

fn pod_ip_env() -> Value {
    json!([{"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}])
}

fn secret_volume(name: &str, secret: &str) -> Value {
    json!({"name": name, "secret": {"secretName": secret}})
}

/// Ports, probes, mounts and volumes that differ between components.
fn specifics(part: Part, pod: &mut Value) {
    let config_volume = || secret_volume("karmada-config", &format!("{}-config", part.name()));
    let config_mount = json!({"name": "karmada-config", "mountPath": "/etc/karmada/config", "readOnly": true});
    let cert_mount = json!({"name": "karmada-cert", "mountPath": "/etc/karmada/pki", "readOnly": true});
    let c = &mut pod["containers"][0];
    match part {
        Part::Etcd => {} // its template has everything: probes, ports, mounts.
        Part::ApiServer => {
            c["ports"] = json!([{"name": "server", "containerPort": 5443, "protocol": "TCP"}]);
            c["livenessProbe"] = https_probe("/livez", 5443);
            c["readinessProbe"] = https_probe("/readyz", 5443);
            c["volumeMounts"] = json!([cert_mount]);
            pod["volumes"] = json!([secret_volume("karmada-cert", "karmada-cert")]);
            pod["tolerations"] = json!([{"effect": "NoExecute", "operator": "Exists"}]);
        }
        Part::AggregatedApiServer => {
            c["env"] = pod_ip_env();
            c["ports"] = json!([{"containerPort": 443, "protocol": "TCP"}]);
            c["readinessProbe"] = https_probe("/readyz", 443);
            c["livenessProbe"] = https_probe("/healthz", 443);
            c["resources"] = json!({"requests": {"cpu": "100m"}});
            c["volumeMounts"] = json!([config_mount, cert_mount]);
            pod["volumes"] = json!([config_volume(), secret_volume("karmada-cert", "karmada-cert")]);
        }
        Part::KubeControllerManager => {
            c["ports"] = json!([{"name": "metrics", "containerPort": 10257, "protocol": "TCP"}]);
            c["livenessProbe"] = https_probe("/healthz", 10257);
            c["volumeMounts"] = json!([config_mount, cert_mount]);
            pod["volumes"] = json!([config_volume(), secret_volume("karmada-cert", "karmada-cert")]);
        }
        Part::Scheduler => {
            c["env"] = pod_ip_env();
            c["ports"] = json!([{"name": "metrics", "containerPort": 8080, "protocol": "TCP"}]);
            c["livenessProbe"] = http_probe("/healthz", 10351);
            c["volumeMounts"] = json!([config_mount, cert_mount]);
            pod["volumes"] = json!([config_volume(), secret_volume("karmada-cert", "karmada-cert")]);
        }
        Part::ControllerManager => {
            c["env"] = pod_ip_env();
            c["ports"] = json!([
                {"name": "health", "containerPort": 10357, "protocol": "TCP"},
                {"name": "metrics", "containerPort": 8080, "protocol": "TCP"},
            ]);
            c["livenessProbe"] = http_probe("/healthz", 10357);
            c["volumeMounts"] = json!([config_mount]);
            pod["volumes"] = json!([config_volume()]);
        }
        Part::Webhook => {
            c["env"] = pod_ip_env();
            c["ports"] = json!([
                {"name": "webhook", "containerPort": 8443, "protocol": "TCP"},
                {"name": "metrics", "containerPort": 8080, "protocol": "TCP"},
            ]);
            c["readinessProbe"] = https_probe("/readyz", 8443);
            c["volumeMounts"] = json!([config_mount,
                {"name": "cert", "mountPath": "/var/serving-cert", "readOnly": true}]);
            pod["volumes"] = json!([config_volume(), secret_volume("cert", "karmada-webhook-cert")]);
        }
    }
}

/// The etcd data volume: a host directory on the chosen node, a claim per replica, or scratch.
fn etcd_storage(settings: &Settings, sts: &mut Value) {
    let Etcd::Local { storage } = &settings.etcd else { return };
    let volumes = sts["spec"]["template"]["spec"]["volumes"].as_array_mut().expect("the template has volumes");
    match storage {
        StorageMode::EmptyDir => volumes.push(json!({"name": "etcd-data", "emptyDir": {}})),
        StorageMode::HostPath { path, node_selector } => {
            volumes.push(json!({"name": "etcd-data", "hostPath": {"path": path, "type": "DirectoryOrCreate"}}));
            sts["spec"]["template"]["spec"]["nodeSelector"] = json!(node_selector);
        }
        StorageMode::Pvc { storage_class, size } => {
            sts["spec"]["volumeClaimTemplates"] = json!([{
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "metadata": {"name": "etcd-data", "labels": {
                    LABEL_BOOTSTRAPPING: "pvc-defaults",
                    LABEL_INSTALLED_BY: INSTALLED_BY_INIT,
                }},
                "spec": {
                    "accessModes": ["ReadWriteOnce"],
                    "volumeMode": "Filesystem",
                    "storageClassName": storage_class,
                    "resources": {"requests": {"storage": size}},
                },
            }]);
        }
    }
}

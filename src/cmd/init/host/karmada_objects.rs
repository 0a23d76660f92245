//! What init creates inside the new Karmada API server (upstream §3.5 step 10 and §3.10):
//! the namespace, the CRDs with their conversion webhooks, the admission webhook
//! configurations, the aggregated API for clusters, and the RBAC and `cluster-info` objects
//! pull-mode registration relies on.

use base64::Engine as _;
use karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM;
use serde_json::{Value, json};

use super::crds::CrdSet;
use super::settings::Settings;
use super::template::{self, TemplateError};
use karmadactl_karmada_api::bootstrap_rbac;

const WEBHOOKS: &str = include_str!("../../../../manifests/hostinit/webhook-configuration.yaml");

/// Every object, in the order init applies them.
pub fn render(settings: &Settings, ca_pem: &str, crds: &CrdSet) -> Result<Vec<Value>, TemplateError> {
    let ns = &settings.namespace;
    let ca_b64 = base64::engine::general_purpose::STANDARD.encode(ca_pem);
    let mut out = vec![json!({
        "apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": ns, "labels": {LABEL_KARMADA_SYSTEM: "true"}},
    })];
    out.extend(crds.render(ns, &ca_b64));
    out.extend(webhook_configurations(ns, &ca_b64)?);
    out.push(json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "karmada-aggregated-apiserver", "namespace": ns},
        "spec": {"type": "ExternalName", "externalName": format!("karmada-aggregated-apiserver.{ns}.svc")},
    }));
    out.push(json!({
        "apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
        "metadata": {"name": "v1alpha1.cluster.karmada.io",
                     "labels": {"app": "karmada-aggregated-apiserver", "apiserver": "true"}},
        "spec": {
            "caBundle": ca_b64, "group": "cluster.karmada.io", "version": "v1alpha1",
            "groupPriorityMinimum": 2000, "versionPriority": 10,
            "service": {"name": "karmada-aggregated-apiserver", "namespace": ns},
        },
    }));
    out.extend(bootstrap_rbac::cluster_roles());
    // The plane's own anonymous-discovery binding is not part of upstream's install.
    out.extend(
        bootstrap_rbac::cluster_role_bindings(karmadactl_pki::token::DEFAULT_GROUP)
            .into_iter()
            .filter(|b| b["metadata"]["name"] != json!("system:karmada:anonymous-discovery")),
    );
    out.push(cluster_info(settings, &ca_b64));
    let (role, binding) = bootstrap_rbac::cluster_info_reader();
    out.push(role);
    out.push(binding);
    Ok(out)
}

/// Upstream's webhook manifest with this install's namespace in every URL.
fn webhook_configurations(ns: &str, ca_b64: &str) -> Result<Vec<Value>, TemplateError> {
    let mut docs = Vec::new();
    for text in WEBHOOKS.split("\n---\n") {
        let mut doc = template::render("webhook-configuration.yaml", text, &[("ca_bundle", json!(ca_b64))])?;
        for hook in doc["webhooks"].as_array_mut().into_iter().flatten() {
            let url = hook["clientConfig"]["url"].as_str().unwrap_or_default();
            let path = url.rsplit_once(":443").map(|(_, p)| p.to_string()).unwrap_or_default();
            hook["clientConfig"]["url"] = json!(format!("https://karmada-webhook.{ns}.svc:443{path}"));
        }
        docs.push(doc);
    }
    Ok(docs)
}

/// `kube-public/cluster-info`: the admin kubeconfig's server and CA under a cluster with an
/// empty name, as cluster-bootstrap writes it.
fn cluster_info(settings: &Settings, ca_b64: &str) -> Value {
    let kubeconfig = format!(
        "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: {ca_b64}\n    server: {}\n  name: \"\"\ncontexts: null\ncurrent-context: \"\"\nkind: Config\npreferences: {{}}\nusers: null\n",
        settings.external_server()
    );
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "cluster-info", "namespace": "kube-public"},
        "data": {"kubeconfig": kubeconfig},
    })
}

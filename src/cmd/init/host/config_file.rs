//! The `init --config` file (upstream's `KarmadaInitConfig`, `config.karmada.io/v1alpha1`),
//! read into the flag values it stands for.
//!
//! Field names are matched case-insensitively, as Go's JSON decoding does (upstream's own e2e
//! template writes `karmadaCrds` and `karmadaPkiPath`). Unlike upstream, an unknown field is an
//! error naming it: a misspelt field silently ignored would install something other than what
//! the file says. Empty and zero values mean "not set", as in Go.

use std::collections::BTreeMap;

use serde_json::Value;

pub const API_VERSION: &str = "config.karmada.io/v1alpha1";
pub const KIND: &str = "KarmadaInitConfig";

/// Why a file was refused; the message names the field path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// One component's section of `spec.components` (or `spec.etcd.local`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComponentConfig {
    /// `repository:tag`, only when both are set.
    pub image: Option<String>,
    pub replicas: Option<i32>,
    /// `--name=value` for each `extraArgs` entry, in file order.
    pub extra_args: Vec<(String, String)>,
}

/// The file's values, each the flag it stands for; `None`/empty means the file does not set it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InitConfig {
    pub kubeconfig: Option<String>,
    pub context: Option<String>,
    pub host_cluster_domain: Option<String>,
    pub image_pull_policy: Option<String>,
    pub image_pull_secrets: Vec<String>,
    pub kube_image_mirror_country: Option<String>,
    pub kube_image_registry: Option<String>,
    pub kube_image_tag: Option<String>,
    pub private_image_registry: Option<String>,
    pub ca_cert_file: Option<String>,
    pub ca_key_file: Option<String>,
    pub cert_external_dns: Vec<String>,
    pub cert_external_ip: Vec<String>,
    pub cert_validity_period: Option<String>,
    pub etcd_data: Option<String>,
    pub etcd_pvc_size: Option<String>,
    pub etcd_node_selector_labels: BTreeMap<String, String>,
    pub etcd_storage_mode: Option<String>,
    pub storage_classes_name: Option<String>,
    pub external_etcd_servers: Vec<String>,
    pub external_etcd_ca_cert_path: Option<String>,
    pub external_etcd_client_cert_path: Option<String>,
    pub external_etcd_client_key_path: Option<String>,
    pub external_etcd_key_prefix: Option<String>,
    /// Keyed by the component's flag prefix (`etcd`, `karmada-apiserver`, …).
    pub components: BTreeMap<&'static str, ComponentConfig>,
    pub karmada_apiserver_advertise_address: Option<String>,
    pub namespace: Option<String>,
    pub port: Option<i32>,
    pub karmada_data: Option<String>,
    pub karmada_pki: Option<String>,
    pub crds: Option<String>,
    pub wait_component_ready_timeout: Option<i32>,
    /// Fields upstream's schema defines but init does not use (e.g. `resources`), by path.
    pub unused: Vec<String>,
}

/// `spec.components` keys and the flag prefix each stands for.
const COMPONENTS: &[(&str, &str)] = &[
    ("karmadaAPIServer", "karmada-apiserver"),
    ("karmadaAggregatedAPIServer", "karmada-aggregated-apiserver"),
    ("kubeControllerManager", "karmada-kube-controller-manager"),
    ("karmadaControllerManager", "karmada-controller-manager"),
    ("karmadaScheduler", "karmada-scheduler"),
    ("karmadaWebhook", "karmada-webhook"),
];

/// Fields of every component upstream defines and ignores.
const IGNORED_COMPONENT_FIELDS: &[&str] = &["resources", "nodeSelector", "tolerations", "affinity"];

/// Reads the text of a KarmadaInitConfig file.
pub fn parse(text: &str) -> Result<InitConfig, ConfigError> {
    let doc: Value =
        serde_saphyr::from_str(text).map_err(|e| ConfigError(format!("the file is not one YAML document: {e}")))?;
    if !doc.is_object() {
        return Err(ConfigError(format!("no {KIND} kind was found in the YAML file")));
    }
    let top = fields(&doc, "", &["apiVersion", "kind", "metadata", "spec"])?;
    if top.get("kind").and_then(|k| k.as_str()) != Some(KIND) {
        return Err(ConfigError(format!("no {KIND} kind was found in the YAML file")));
    }
    let api_version = top.get("apiVersion").and_then(|v| v.as_str()).unwrap_or_default();
    if api_version != API_VERSION {
        return Err(ConfigError(format!("apiVersion {api_version:?} is not supported for {KIND}; use {API_VERSION}")));
    }
    let mut out = InitConfig::default();
    let Some(spec) = top.get("spec") else { return Ok(out) };
    let spec = fields(
        spec,
        "spec",
        &[
            "hostCluster",
            "images",
            "certificates",
            "etcd",
            "components",
            "karmadaDataPath",
            "karmadaPKIPath",
            "karmadaCRDs",
            "waitComponentReadyTimeout",
        ],
    )?;
    if let Some(v) = spec.get("hostCluster") {
        let f = fields(v, "spec.hostCluster", &["apiEndpoint", "kubeconfig", "context", "domain", "secretRef"])?;
        out.kubeconfig = string(&f, "spec.hostCluster", "kubeconfig")?;
        out.context = string(&f, "spec.hostCluster", "context")?;
        out.host_cluster_domain = string(&f, "spec.hostCluster", "domain")?;
        note_unused(&f, "spec.hostCluster", &["apiEndpoint", "secretRef"], &mut out.unused);
    }
    if let Some(v) = spec.get("images") {
        let p = "spec.images";
        let f = fields(
            v,
            p,
            &[
                "imagePullPolicy",
                "imagePullSecrets",
                "kubeImageMirrorCountry",
                "kubeImageRegistry",
                "kubeImageTag",
                "privateRegistry",
            ],
        )?;
        out.image_pull_policy = string(&f, p, "imagePullPolicy")?;
        if let Some(policy) = &out.image_pull_policy
            && !["Always", "Never", "IfNotPresent"].contains(&policy.as_str())
        {
            return Err(ConfigError(format!(
                "{p}.imagePullPolicy: {policy:?} is not one of Always, Never, IfNotPresent"
            )));
        }
        out.image_pull_secrets = strings(&f, p, "imagePullSecrets")?;
        out.kube_image_mirror_country = string(&f, p, "kubeImageMirrorCountry")?;
        out.kube_image_registry = string(&f, p, "kubeImageRegistry")?;
        out.kube_image_tag = string(&f, p, "kubeImageTag")?;
        if let Some(reg) = f.get("privateRegistry") {
            let rf = fields(reg, "spec.images.privateRegistry", &["registry"])?;
            out.private_image_registry = string(&rf, "spec.images.privateRegistry", "registry")?;
        }
    }
    if let Some(v) = spec.get("certificates") {
        let p = "spec.certificates";
        let f = fields(v, p, &["caCertFile", "caKeyFile", "externalDNS", "externalIP", "validityPeriod"])?;
        out.ca_cert_file = string(&f, p, "caCertFile")?;
        out.ca_key_file = string(&f, p, "caKeyFile")?;
        out.cert_external_dns = strings(&f, p, "externalDNS")?;
        out.cert_external_ip = strings(&f, p, "externalIP")?;
        for ip in &out.cert_external_ip {
            if ip.parse::<std::net::IpAddr>().is_err() {
                return Err(ConfigError(format!("{p}.externalIP: {ip:?} is not a valid IP address")));
            }
        }
        out.cert_validity_period = string(&f, p, "validityPeriod")?;
        if let Some(d) = &out.cert_validity_period
            && let Err(e) = d.parse::<karmadactl_apimachinery::duration::GoDuration>()
        {
            return Err(ConfigError(format!("{p}.validityPeriod: invalid duration {d:?}: {e}")));
        }
    }
    if let Some(v) = spec.get("etcd") {
        let f = fields(v, "spec.etcd", &["local", "external"])?;
        if let Some(local) = f.get("local") {
            read_local_etcd(local, &mut out)?;
        }
        if let Some(external) = f.get("external") {
            let p = "spec.etcd.external";
            let f = fields(external, p, &["endpoints", "caFile", "certFile", "keyFile", "keyPrefix"])?;
            out.external_etcd_servers = strings(&f, p, "endpoints")?;
            out.external_etcd_ca_cert_path = string(&f, p, "caFile")?;
            out.external_etcd_client_cert_path = string(&f, p, "certFile")?;
            out.external_etcd_client_key_path = string(&f, p, "keyFile")?;
            out.external_etcd_key_prefix = string(&f, p, "keyPrefix")?;
        }
    }
    if let Some(v) = spec.get("components") {
        let names: Vec<&str> = COMPONENTS.iter().map(|(k, _)| *k).collect();
        let f = fields(v, "spec.components", &names)?;
        for (key, prefix) in COMPONENTS {
            let Some(section) = f.get(key) else { continue };
            let p = format!("spec.components.{key}");
            let mut known = vec!["repository", "tag", "replicas", "extraArgs"];
            known.extend(IGNORED_COMPONENT_FIELDS);
            if *key == "karmadaAPIServer" {
                known.extend(["advertiseAddress", "networking", "serviceAnnotations"]);
            }
            let cf = fields(section, &p, &known)?;
            out.components.insert(prefix, component(&cf, &p)?);
            note_unused(&cf, &p, IGNORED_COMPONENT_FIELDS, &mut out.unused);
            if *key == "karmadaAPIServer" {
                out.karmada_apiserver_advertise_address = string(&cf, &p, "advertiseAddress")?;
                if let Some(addr) = &out.karmada_apiserver_advertise_address
                    && addr.parse::<std::net::IpAddr>().is_err()
                {
                    return Err(ConfigError(format!("{p}.advertiseAddress: {addr:?} is not a valid IP address")));
                }
                if let Some(net) = cf.get("networking") {
                    let np = format!("{p}.networking");
                    let nf = fields(net, &np, &["namespace", "port"])?;
                    out.namespace = string(&nf, &np, "namespace")?;
                    out.port = int(&nf, &np, "port")?;
                }
                note_unused(&cf, &p, &["serviceAnnotations"], &mut out.unused);
            }
        }
    }
    out.karmada_data = string(&spec, "spec", "karmadaDataPath")?;
    out.karmada_pki = string(&spec, "spec", "karmadaPKIPath")?;
    out.crds = string(&spec, "spec", "karmadaCRDs")?;
    out.wait_component_ready_timeout = int(&spec, "spec", "waitComponentReadyTimeout")?;
    if let Some(t) = out.wait_component_ready_timeout
        && t < 0
    {
        return Err(ConfigError(format!("spec.waitComponentReadyTimeout: {t} must be greater than or equal to 0")));
    }
    Ok(out)
}

fn read_local_etcd(v: &Value, out: &mut InitConfig) -> Result<(), ConfigError> {
    let p = "spec.etcd.local";
    let mut known = vec![
        "repository",
        "tag",
        "replicas",
        "extraArgs",
        "dataPath",
        "pvcSize",
        "nodeSelectorLabels",
        "storageMode",
        "storageClassesName",
    ];
    known.extend(IGNORED_COMPONENT_FIELDS);
    let f = fields(v, p, &known)?;
    out.components.insert("etcd", component(&f, p)?);
    note_unused(&f, p, IGNORED_COMPONENT_FIELDS, &mut out.unused);
    out.etcd_data = string(&f, p, "dataPath")?;
    out.etcd_pvc_size = string(&f, p, "pvcSize")?;
    if let Some(labels) = f.get("nodeSelectorLabels") {
        let Some(map) = labels.as_object() else {
            return Err(ConfigError(format!("{p}.nodeSelectorLabels: expected a map of label names to values")));
        };
        for (k, v) in map {
            let Some(v) = v.as_str() else {
                return Err(ConfigError(format!("{p}.nodeSelectorLabels.{k}: expected a string")));
            };
            out.etcd_node_selector_labels.insert(k.clone(), v.to_string());
        }
    }
    out.etcd_storage_mode = string(&f, p, "storageMode")?;
    if let Some(mode) = &out.etcd_storage_mode
        && !["emptyDir", "hostPath", "PVC"].contains(&mode.as_str())
    {
        return Err(ConfigError(format!("{p}.storageMode: {mode:?} is not one of emptyDir, hostPath, PVC")));
    }
    out.storage_classes_name = string(&f, p, "storageClassesName")?;
    Ok(())
}

fn component(f: &BTreeMap<&'static str, &Value>, p: &str) -> Result<ComponentConfig, ConfigError> {
    let repository = string(f, p, "repository")?;
    let tag = string(f, p, "tag")?;
    let mut extra_args = Vec::new();
    if let Some(list) = f.get("extraArgs") {
        let Some(items) = list.as_array() else {
            return Err(ConfigError(format!("{p}.extraArgs: expected a list of {{name, value}}")));
        };
        for (i, item) in items.iter().enumerate() {
            let ip = format!("{p}.extraArgs[{i}]");
            let af = fields(item, &ip, &["name", "value"])?;
            let name = string(&af, &ip, "name")?.unwrap_or_default();
            if !well_formed_name(&name) {
                return Err(ConfigError(format!(
                    "{ip}.name: {name:?} must start with a letter and hold only letters, digits, '-' and '_'"
                )));
            }
            extra_args.push((name, string(&af, &ip, "value")?.unwrap_or_default()));
        }
    }
    Ok(ComponentConfig {
        image: repository.zip(tag).map(|(r, t)| format!("{r}:{t}")),
        replicas: int(f, p, "replicas")?,
        extra_args,
    })
}

/// The key part of upstream's extra-args pattern, `[a-zA-Z][a-zA-Z0-9_-]*`.
fn well_formed_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The fields of a mapping, each matched case-insensitively to one of `known` (returned under
/// its canonical name); null values count as absent.
fn fields<'a>(
    v: &'a Value,
    path: &str,
    known: &[&'static str],
) -> Result<BTreeMap<&'static str, &'a Value>, ConfigError> {
    let Some(map) = v.as_object() else {
        return Err(ConfigError(format!("{}: expected a map", display(path))));
    };
    let mut out = BTreeMap::new();
    for (key, value) in map {
        let field = join(path, key);
        let Some(name) = known.iter().find(|k| k.eq_ignore_ascii_case(key)) else {
            return Err(ConfigError(format!("{field}: unknown field; {} accepts {}", display(path), known.join(", "))));
        };
        if value.is_null() {
            continue;
        }
        if out.insert(*name, value).is_some() {
            return Err(ConfigError(format!("{field}: {name} is given more than once (names ignore case)")));
        }
    }
    Ok(out)
}

fn display(path: &str) -> &str {
    if path.is_empty() { "the top level" } else { path }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn note_unused(f: &BTreeMap<&'static str, &Value>, path: &str, names: &[&str], unused: &mut Vec<String>) {
    unused.extend(names.iter().filter(|n| f.contains_key(*n)).map(|n| join(path, n)));
}

/// A string field; empty means unset.
fn string(f: &BTreeMap<&'static str, &Value>, path: &str, name: &str) -> Result<Option<String>, ConfigError> {
    match f.get(name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(other) => Err(ConfigError(format!("{}: expected a string, got {other}", join(path, name)))),
    }
}

/// An integer field; zero means unset.
fn int(f: &BTreeMap<&'static str, &Value>, path: &str, name: &str) -> Result<Option<i32>, ConfigError> {
    match f.get(name) {
        None => Ok(None),
        Some(v) => v
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(|n| Some(n).filter(|n| *n != 0))
            .ok_or_else(|| ConfigError(format!("{}: expected an integer, got {v}", join(path, name)))),
    }
}

/// A list of strings; empty items are dropped.
fn strings(f: &BTreeMap<&'static str, &Value>, path: &str, name: &str) -> Result<Vec<String>, ConfigError> {
    let Some(v) = f.get(name) else { return Ok(Vec::new()) };
    let items = v.as_array().ok_or_else(|| ConfigError(format!("{}: expected a list", join(path, name))))?;
    items
        .iter()
        .map(|i| {
            i.as_str()
                .map(str::to_string)
                .ok_or_else(|| ConfigError(format!("{}: expected a list of strings, got {i}", join(path, name))))
        })
        .filter(|r| !matches!(r, Ok(s) if s.is_empty()))
        .collect()
}

#[cfg(test)]
#[path = "config_file_tests.rs"]
mod tests;

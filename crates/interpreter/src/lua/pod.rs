//! What the `kube` library reads from a pod template, as upstream's helpers do: the requests
//! of one replica (`GenerateReplicaRequirements`: containers summed, the largest init
//! container where larger, overhead added, limits standing in for missing requests) and the
//! objects a pod needs (`GetDependenciesFromPodTemplate`: config maps, secrets, the service
//! account, claims).

use std::collections::{BTreeMap, BTreeSet};

use karmadactl_apimachinery::is_qualified_name;
use karmadactl_apimachinery::quantity::Quantity;
use serde_json::{Map, Value, json};

/// A request as a quantity: Kubernetes accepts a number where a quantity is expected.
fn quantity(value: &Value) -> Result<Quantity, String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => return Err(format!("quantities must be strings or numbers, got {other}")),
    };
    Quantity::parse(&text).map_err(|e| e.to_string())
}

/// How a resource is counted: CPU in milli-units, the rest in whole units rounded up.
fn units(name: &str, q: &Quantity) -> i128 {
    let per = if name == "cpu" { 1_000_000 } else { 1_000_000_000 };
    let n = q.nanos();
    n.div_euclid(per) + i128::from(n.rem_euclid(per) != 0)
}

/// Upstream's `IsScalarResourceName`: extended (domain-prefixed outside kubernetes.io, a
/// qualified name once prefixed with `requests.`), hugepages, prefixed native and attachable
/// volume resources; other names (like `storage`) are not counted.
fn is_scalar(name: &str) -> bool {
    let prefixed_native = name.contains("kubernetes.io/");
    let extended = name.contains('/')
        && !prefixed_native
        && !name.starts_with("requests.")
        && is_qualified_name(&format!("requests.{name}")).is_empty();
    extended || prefixed_native || name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")
}

fn counted(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "pods" | "ephemeral-storage") || is_scalar(name)
}

/// A container's requests, limits standing in for requests it does not give.
fn requests(container: &Value) -> Result<BTreeMap<String, i128>, String> {
    let resources = &container["resources"];
    let mut out = BTreeMap::new();
    for source in ["limits", "requests"] {
        for (name, value) in resources[source].as_object().into_iter().flatten() {
            if counted(name) {
                out.insert(name.clone(), units(name, &quantity(value)?));
            }
        }
    }
    Ok(out)
}

/// The requirements of one replica of `template` (a PodTemplateSpec), as the JSON upstream
/// hands back to the script, or `None` when it asks for nothing.
pub(super) fn requirements(template: &Value) -> Result<Option<Value>, String> {
    let spec = &template["spec"];
    let mut total: BTreeMap<String, i128> = BTreeMap::new();
    for c in spec["containers"].as_array().into_iter().flatten() {
        for (name, n) in requests(c)? {
            *total.entry(name).or_default() += n;
        }
    }
    for c in spec["initContainers"].as_array().into_iter().flatten() {
        for (name, n) in requests(c)? {
            let entry = total.entry(name).or_default();
            *entry = (*entry).max(n);
        }
    }
    for (name, value) in spec["overhead"].as_object().into_iter().flatten() {
        if counted(name) {
            *total.entry(name.clone()).or_default() += units(name, &quantity(value)?);
        }
    }
    let resources: Map<String, Value> =
        total.into_iter().filter(|(_, n)| *n > 0).map(|(name, n)| (name.clone(), json!(printed(&name, n)))).collect();

    let mut claim = Map::new();
    if let Some(selector) = spec.get("nodeSelector").filter(|v| v.is_object()) {
        claim.insert("nodeSelector".into(), selector.clone());
    }
    let hard_affinity = spec.pointer("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution");
    if let Some(affinity) = hard_affinity.filter(|a| a.is_object()) {
        claim.insert("hardNodeAffinity".into(), affinity.clone());
    }
    if let Some(tolerations) = spec.get("tolerations").filter(|v| v.as_array().is_some_and(|a| !a.is_empty())) {
        claim.insert("tolerations".into(), tolerations.clone());
    }
    if claim.is_empty() && resources.is_empty() {
        return Ok(None);
    }
    let mut out = Map::new();
    if !claim.is_empty() {
        out.insert("nodeClaim".into(), Value::Object(claim));
    }
    if !resources.is_empty() {
        out.insert("resourceRequest".into(), Value::Object(resources));
    }
    Ok(Some(Value::Object(out)))
}

/// A total as Kubernetes prints it: CPU from milli-units, memory, ephemeral storage and huge
/// pages in the binary format, the rest in the decimal one.
fn printed(name: &str, n: i128) -> String {
    if name == "cpu" {
        return Quantity::parse(&format!("{n}m")).map(|q| q.to_string()).unwrap_or_else(|_| format!("{n}m"));
    }
    let binary = matches!(name, "memory" | "ephemeral-storage") || name.starts_with("hugepages-");
    if binary && n >= 1024 {
        let mut value = n;
        for suffix in ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] {
            if value % 1024 != 0 || suffix == "Ei" {
                return format!("{value}{suffix}");
            }
            value /= 1024;
        }
    }
    Quantity::parse(&n.to_string()).map(|q| q.to_string()).unwrap_or_else(|_| n.to_string())
}

/// The objects a pod made from `template` in `namespace` needs, as the JSON list upstream
/// hands back to the script (`null` when there are none).
pub(super) fn dependencies(template: &Value, namespace: &str) -> Value {
    let spec = &template["spec"];
    let mut config_maps = BTreeSet::new();
    let mut secrets = BTreeSet::new();
    let mut claims = BTreeSet::new();
    let add = |set: &mut BTreeSet<String>, v: &Value| {
        if let Some(name) = v.as_str().filter(|n| !n.is_empty()) {
            set.insert(name.to_string());
        }
    };
    for s in spec["imagePullSecrets"].as_array().into_iter().flatten() {
        add(&mut secrets, &s["name"]);
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for c in spec[list].as_array().into_iter().flatten() {
            for from in c["envFrom"].as_array().into_iter().flatten() {
                add(&mut config_maps, &from["configMapRef"]["name"]);
                add(&mut secrets, &from["secretRef"]["name"]);
            }
            for env in c["env"].as_array().into_iter().flatten() {
                add(&mut config_maps, &env["valueFrom"]["configMapKeyRef"]["name"]);
                add(&mut secrets, &env["valueFrom"]["secretKeyRef"]["name"]);
            }
        }
    }
    for volume in spec["volumes"].as_array().into_iter().flatten() {
        add(&mut claims, &volume["persistentVolumeClaim"]["claimName"]);
        add(&mut config_maps, &volume["configMap"]["name"]);
        add(&mut secrets, &volume["secret"]["secretName"]);
        add(&mut secrets, &volume["azureFile"]["secretName"]);
        add(&mut secrets, &volume["csi"]["nodePublishSecretRef"]["name"]);
        for kind in ["cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"] {
            add(&mut secrets, &volume[kind]["secretRef"]["name"]);
        }
        for source in volume["projected"]["sources"].as_array().into_iter().flatten() {
            add(&mut config_maps, &source["configMap"]["name"]);
            add(&mut secrets, &source["secret"]["name"]);
        }
    }
    let mut accounts = BTreeSet::new();
    if let Some(sa) = spec["serviceAccountName"].as_str().filter(|s| !s.is_empty() && *s != "default") {
        accounts.insert(sa.to_string());
    }
    let mut refs = Vec::new();
    for (kind, names) in [
        ("ConfigMap", config_maps),
        ("Secret", secrets),
        ("ServiceAccount", accounts),
        ("PersistentVolumeClaim", claims),
    ] {
        for name in names {
            let mut r = json!({"apiVersion": "v1", "kind": kind, "name": name});
            if !namespace.is_empty() {
                r["namespace"] = json!(namespace);
            }
            refs.push(r);
        }
    }
    if refs.is_empty() { Value::Null } else { Value::Array(refs) }
}

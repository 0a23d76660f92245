//! kubectl's Node describer: roles, labels, taints, lease, conditions, addresses, capacity,
//! system info, the pods running there with their share of the node, the totals allocated,
//! then events.

use karmadactl_apimachinery::quantity::Quantity;
use serde_json::Value;

use super::events::Events;
use super::go_format::{self, age, quantity_of, rfc1123z};
use super::prefix_writer::PrefixWriter;
use super::targets::Failure;
use super::{Settings, list, meta};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

pub async fn describe(settings: &Settings<'_>, node: &Value, events: Option<&Events>) -> Result<String, Failure> {
    let name = text(&node["metadata"]["name"]);
    let selector = format!("spec.nodeName={name},status.phase!=Succeeded,status.phase!=Failed");
    // A user who may read the node but not its pods sees `not authorized`, as kubectl shows.
    let pods = match list::items(settings.client, "/api/v1/pods", &[("fieldSelector", &selector)], settings.chunk_size)
        .await
    {
        Ok(pods) => Some(pods),
        Err(Failure::Server(s)) if s.code == 403 => None,
        Err(e) => return Err(e),
    };
    let lease = lease(settings, name).await;
    let (spec, status) = (&node["spec"], &node["status"]);
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{name}\n"));
    let roles = roles(&node["metadata"]["labels"]);
    w.write(0, &format!("Roles:\t{}\n", if roles.is_empty() { "<none>".into() } else { roles.join(",") }));
    meta::labels(&mut w, "Labels", &meta::string_map(node["metadata"].get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(node["metadata"].get("annotations")));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z(&node["metadata"]["creationTimestamp"])));
    taints(&mut w, &spec["taints"]);
    w.write(0, &format!("Unschedulable:\t{}\n", spec["unschedulable"].as_bool().unwrap_or(false)));
    match lease {
        Ok(lease) => {
            w.write(0, "Lease:\n");
            let spec = &lease["spec"];
            w.write(1, &format!("HolderIdentity:\t{}\n", spec["holderIdentity"].as_str().unwrap_or("<unset>")));
            for (label, field) in [("AcquireTime", "acquireTime"), ("RenewTime", "renewTime")] {
                let shown = if spec[field].is_string() { rfc1123z(&spec[field]) } else { "<unset>".into() };
                w.write(1, &format!("{label}:\t{shown}\n"));
            }
        }
        Err(e) => w.write(0, &format!("Lease:\tFailed to get lease: {}\n", e.text())),
    }
    let conditions = status["conditions"].as_array().map(Vec::as_slice).unwrap_or_default();
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    text(&c["type"]),
                    text(&c["status"]),
                    rfc1123z(&c["lastHeartbeatTime"]),
                    rfc1123z(&c["lastTransitionTime"]),
                    text(&c["reason"]),
                    text(&c["message"])
                ),
            );
        }
    }
    w.write(0, "Addresses:\n");
    for a in status["addresses"].as_array().into_iter().flatten() {
        w.write(1, &format!("{}:\t{}\n", text(&a["type"]), text(&a["address"])));
    }
    for (title, field) in [("Capacity", "capacity"), ("Allocatable", "allocatable")] {
        let list = meta::string_map(status.get(field));
        if list.is_empty() {
            continue;
        }
        w.write(0, &format!("{title}:\n"));
        for (resource, q) in list {
            w.write(0, &format!("  {resource}:\t{}\n", go_format::quantity(&q)));
        }
    }
    let info = &status["nodeInfo"];
    w.write(0, "System Info:\n");
    for (label, field) in [
        ("Machine ID", "machineID"),
        ("System UUID", "systemUUID"),
        ("Boot ID", "bootID"),
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
        ("Kube-Proxy Version", "kubeProxyVersion"),
    ] {
        w.write(0, &format!("  {label}:\t{}\n", text(&info[field])));
    }
    if let Some(cidr) = spec["podCIDR"].as_str().filter(|c| !c.is_empty()) {
        w.write(0, &format!("PodCIDR:\t{cidr}\n"));
    }
    let cidrs: Vec<&str> = spec["podCIDRs"].as_array().into_iter().flatten().map(text).collect();
    if !cidrs.is_empty() {
        w.write(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
    }
    if let Some(id) = spec["providerID"].as_str().filter(|c| !c.is_empty()) {
        w.write(0, &format!("ProviderID:\t{id}\n"));
    }
    match pods {
        Some(pods) => allocation(&mut w, &pods, status),
        None => w.write(0, "Pods:\tnot authorized\n"),
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    Ok(w.finish())
}

async fn lease(settings: &Settings<'_>, name: &str) -> Result<Value, Failure> {
    let path = format!("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{name}");
    let request = http::Request::get(path).body(Vec::new()).map_err(|e| Failure::Other(e.to_string()))?;
    settings.client.request(request).await.map_err(Failure::from_kube)
}

/// `findNodeRoles`: `node-role.kubernetes.io/ROLE` keys and the `kubernetes.io/role` value,
/// sorted and without repeats.
fn roles(labels: &Value) -> Vec<String> {
    let mut roles: Vec<String> = meta::string_map(Some(labels))
        .into_iter()
        .filter_map(|(k, v)| match k.strip_prefix("node-role.kubernetes.io/") {
            Some(role) if !role.is_empty() => Some(role.to_string()),
            Some(_) => None,
            None if k == "kubernetes.io/role" && !v.is_empty() => Some(v),
            None => None,
        })
        .collect();
    roles.sort();
    roles.dedup();
    roles
}

/// `printNodeTaintsMultiline`, sorted by effect then key.
fn taints(w: &mut PrefixWriter, list: &Value) {
    w.write(0, "Taints:\t");
    let mut list: Vec<&Value> = list.as_array().into_iter().flatten().collect();
    if list.is_empty() {
        w.line("<none>");
        return;
    }
    list.sort_by_key(|t| format!("{},{}", text(&t["effect"]), text(&t["key"])));
    for (i, t) in list.iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let mut shown = text(&t["key"]).to_string();
        if let Some(v) = t["value"].as_str().filter(|v| !v.is_empty()) {
            shown.push_str(&format!("={v}"));
        }
        if let Some(e) = t["effect"].as_str().filter(|e| !e.is_empty()) {
            shown.push_str(&format!(":{e}"));
        }
        w.write(0, &format!("{shown}\n"));
    }
}

/// A pod's requests or limits (`field`) by resource, as `resourcehelper.PodRequestsAndLimits`
/// adds them: the containers' sum, raised to any larger init container's, plus the overhead.
fn pod_total(pod: &Value, field: &str) -> Vec<(String, Quantity)> {
    let spec = &pod["spec"];
    let of = |resources: &Value| -> Vec<(String, Quantity)> {
        meta::string_map(resources.get(field)).into_iter().map(|(k, v)| (k, quantity_of(&Value::String(v)))).collect()
    };
    let mut total: Vec<(String, Quantity)> = Vec::new();
    let add = |total: &mut Vec<(String, Quantity)>, (name, q): (String, Quantity)| match total
        .iter_mut()
        .find(|(n, _)| *n == name)
    {
        Some((_, sum)) => *sum = sum.plus(q),
        None => total.push((name, q)),
    };
    for c in spec["containers"].as_array().into_iter().flatten() {
        for entry in of(&c["resources"]) {
            add(&mut total, entry);
        }
    }
    for c in spec["initContainers"].as_array().into_iter().flatten() {
        for (name, q) in of(&c["resources"]) {
            match total.iter_mut().find(|(n, _)| *n == name) {
                Some((_, sum)) if q.nanos() > sum.nanos() => *sum = q,
                Some(_) => {}
                None => total.push((name, q)),
            }
        }
    }
    for (name, q) in meta::string_map(spec.get("overhead")) {
        add(&mut total, (name, quantity_of(&Value::String(q))));
    }
    total
}

fn get(list: &[(String, Quantity)], name: &str) -> Quantity {
    list.iter().find(|(n, _)| n == name).map(|(_, q)| *q).unwrap_or_default()
}

/// `Value()`: whole units, rounded up.
fn whole(q: Quantity) -> i128 {
    let n = q.nanos();
    n.div_euclid(1_000_000_000) + i128::from(n.rem_euclid(1_000_000_000) != 0)
}

/// `Quantity.MilliValue()`: thousandths, rounded up.
fn milli(q: Quantity) -> i128 {
    let n = q.nanos();
    n.div_euclid(1_000_000) + i128::from(n.rem_euclid(1_000_000) != 0)
}

/// `int64(float64(part) / float64(whole) * 100)`; 0 when there is nothing to divide by.
fn percent(part: i128, of: i128) -> i64 {
    if of == 0 {
        return 0;
    }
    (part as f64 / of as f64 * 100.0) as i64
}

/// `describeNodeResource`.
fn allocation(w: &mut PrefixWriter, pods: &[Value], status: &Value) {
    let allocatable_map = if status["allocatable"].as_object().is_some_and(|m| !m.is_empty()) {
        &status["allocatable"]
    } else {
        &status["capacity"]
    };
    let allocatable: Vec<(String, Quantity)> =
        meta::string_map(Some(allocatable_map)).into_iter().map(|(k, v)| (k, quantity_of(&Value::String(v)))).collect();
    let (cpu, memory, storage) = (
        milli(get(&allocatable, "cpu")),
        whole(get(&allocatable, "memory")),
        whole(get(&allocatable, "ephemeral-storage")),
    );
    w.write(0, &format!("Non-terminated Pods:\t({} in total)\n", pods.len()));
    w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
    w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
    let mut requests: Vec<(String, Quantity)> = Vec::new();
    let mut limits: Vec<(String, Quantity)> = Vec::new();
    for pod in pods {
        let (req, lim) = (pod_total(pod, "requests"), pod_total(pod, "limits"));
        let cell = |q: Quantity, share: i64| format!("{q} ({share}%)");
        let (cr, cl, mr, ml) = (get(&req, "cpu"), get(&lim, "cpu"), get(&req, "memory"), get(&lim, "memory"));
        w.write(
            1,
            &format!(
                "{}\t{}\t\t{}\t{}\t{}\t{}\t{}\n",
                text(&pod["metadata"]["namespace"]),
                text(&pod["metadata"]["name"]),
                cell(cr, percent(milli(cr), cpu)),
                cell(cl, percent(milli(cl), cpu)),
                cell(mr, percent(whole(mr), memory)),
                cell(ml, percent(whole(ml), memory)),
                age(&pod["metadata"]["creationTimestamp"])
            ),
        );
        for (sums, pod_sums) in [(&mut requests, req), (&mut limits, lim)] {
            for (name, q) in pod_sums {
                match sums.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, sum)) => *sum = sum.plus(q),
                    None => sums.push((name, q)),
                }
            }
        }
    }
    w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
    w.write(1, "Resource\tRequests\tLimits\n");
    w.write(1, "--------\t--------\t------\n");
    for (name, scale, of) in
        [("cpu", milli as fn(Quantity) -> i128, cpu), ("memory", whole, memory), ("ephemeral-storage", whole, storage)]
    {
        let (r, l) = (get(&requests, name), get(&limits, name));
        w.write(1, &format!("{name}\t{r} ({}%)\t{l} ({}%)\n", percent(scale(r), of), percent(scale(l), of)));
    }
    let standard = |n: &str| matches!(n, "cpu" | "memory" | "ephemeral-storage" | "pods");
    for (name, size) in allocatable.iter().filter(|(n, _)| n.starts_with("hugepages-")) {
        let (r, l) = (get(&requests, name), get(&limits, name));
        let of = whole(*size);
        w.write(1, &format!("{name}\t{r} ({}%)\t{l} ({}%)\n", percent(whole(r), of), percent(whole(l), of)));
    }
    for (name, _) in allocatable.iter().filter(|(n, _)| !n.starts_with("hugepages-") && !standard(n)) {
        w.write(1, &format!("{name}\t{}\t{}\n", get(&requests, name), get(&limits, name)));
    }
}

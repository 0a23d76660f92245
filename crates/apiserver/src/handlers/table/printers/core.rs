//! Core-group printers other than pods: namespaces, config maps, secrets, service accounts,
//! services, endpoints, events and nodes.

use std::collections::BTreeSet;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{age, count, format_labels, int, items, name, since, text, timestamp};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const NAMESPACE: Printer = Printer {
    group: "",
    kind: "Namespace",
    columns: &[Column::name(), Column::string("Status", "The status of the namespace"), Column::age()],
    row: |obj, now| Row::cells(vec![name(obj), json!(text(obj, "/status/phase")), age(obj, now)]),
};

pub const CONFIG_MAP: Printer = Printer {
    group: "",
    kind: "ConfigMap",
    columns: &[Column::name(), Column::string("Data", d::CONFIG_MAP_DATA), Column::age()],
    row: |obj, now| Row::cells(vec![name(obj), json!(count(obj, "/data") + count(obj, "/binaryData")), age(obj, now)]),
};

pub const SECRET: Printer = Printer {
    group: "",
    kind: "Secret",
    columns: &[
        Column::name(),
        Column::string("Type", d::SECRET_TYPE),
        Column::string("Data", d::SECRET_DATA),
        Column::age(),
    ],
    row: |obj, now| Row::cells(vec![name(obj), json!(text(obj, "/type")), json!(count(obj, "/data")), age(obj, now)]),
};

pub const SERVICE_ACCOUNT: Printer = Printer {
    group: "",
    kind: "ServiceAccount",
    columns: &[Column::name(), Column::string("Secrets", d::SERVICE_ACCOUNT_SECRETS), Column::age()],
    row: |obj, now| Row::cells(vec![name(obj), json!(count(obj, "/secrets")), age(obj, now)]),
};

pub const SERVICE: Printer = Printer {
    group: "",
    kind: "Service",
    columns: &[
        Column::name(),
        Column::string("Type", d::SERVICE_SPEC_TYPE),
        Column::string("Cluster-IP", d::SERVICE_SPEC_CLUSTER_IP),
        Column::string("External-IP", d::SERVICE_SPEC_EXTERNAL_IPS),
        Column::string("Port(s)", d::SERVICE_SPEC_PORTS),
        Column::age(),
        Column::string("Selector", d::SERVICE_SPEC_SELECTOR).wide(),
    ],
    row: service_row,
};

fn service_row(obj: &Value, now: Timestamp) -> Row {
    // kube defaults the type to ClusterIP and the cluster IPs from the cluster IP.
    let svc_type = match text(obj, "/spec/type") {
        "" => "ClusterIP",
        t => t,
    };
    let cluster_ip = match (text(obj, "/spec/clusterIPs/0"), text(obj, "/spec/clusterIP")) {
        ("", "") => "<none>",
        ("", ip) | (ip, _) => ip,
    };
    let ports = match port_string(items(obj, "/spec/ports")) {
        p if p.is_empty() => "<none>".to_string(),
        p => p,
    };
    Row::cells(vec![
        name(obj),
        json!(svc_type),
        json!(cluster_ip),
        json!(external_ip(obj, svc_type)),
        json!(ports),
        age(obj, now),
        json!(format_labels(obj.pointer("/spec/selector"))),
    ])
}

/// `getServiceExternalIP` for the wide table (load-balancer addresses are not clipped).
fn external_ip(obj: &Value, svc_type: &str) -> String {
    let external: Vec<&str> = items(obj, "/spec/externalIPs").iter().filter_map(Value::as_str).collect();
    match svc_type {
        "ClusterIP" | "NodePort" if !external.is_empty() => external.join(","),
        "ClusterIP" | "NodePort" => "<none>".to_string(),
        "LoadBalancer" => {
            // A sorted set of the ingress IPs (or host names when there is no IP).
            let lb: BTreeSet<&str> = items(obj, "/status/loadBalancer/ingress")
                .iter()
                .map(|i| match text(i, "/ip") {
                    "" => text(i, "/hostname"),
                    ip => ip,
                })
                .filter(|s| !s.is_empty())
                .collect();
            let mut all: Vec<&str> = lb.into_iter().collect();
            all.extend(external);
            if all.is_empty() { "<pending>".to_string() } else { all.join(",") }
        }
        "ExternalName" => text(obj, "/spec/externalName").to_string(),
        _ => "<unknown>".to_string(),
    }
}

/// `makePortString`: `80/TCP`, `80:30080/TCP` with a node port, comma-separated.
fn port_string(ports: &[Value]) -> String {
    let piece = |p: &Value| {
        let protocol = match text(p, "/protocol") {
            "" => "TCP",
            proto => proto,
        };
        match int(p, "/nodePort") {
            n if n > 0 => format!("{}:{n}/{protocol}", int(p, "/port")),
            _ => format!("{}/{protocol}", int(p, "/port")),
        }
    };
    ports.iter().map(piece).collect::<Vec<_>>().join(",")
}

pub const ENDPOINTS: Printer = Printer {
    group: "",
    kind: "Endpoints",
    columns: &[Column::name(), Column::string("Endpoints", d::ENDPOINTS_SUBSETS), Column::age()],
    row: |obj, now| Row::cells(vec![name(obj), json!(format_endpoints(obj)), age(obj, now)]),
};

/// `formatEndpoints` for all ports: up to three `ip:port` (or bare IPs for subsets without
/// ports), then `+ N more...`.
fn format_endpoints(obj: &Value) -> String {
    const MAX: usize = 3;
    let subsets = items(obj, "/subsets");
    if subsets.is_empty() {
        return "<none>".to_string();
    }
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut total = 0;
    for ss in subsets {
        let addresses = items(ss, "/addresses");
        let ports = items(ss, "/ports");
        if ports.is_empty() {
            total += addresses.len();
            for a in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(text(a, "/ip").to_string());
            }
            continue;
        }
        for port in ports {
            total += addresses.len();
            for a in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(join_host_port(text(a, "/ip"), int(port, "/port")));
            }
        }
    }
    let joined = list.join(",");
    if more { format!("{joined} + {} more...", total - MAX) } else { joined }
}

/// `net.JoinHostPort`: IPv6 addresses go in brackets.
fn join_host_port(host: &str, port: i64) -> String {
    if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") }
}

pub const EVENT: Printer = Printer {
    group: "",
    kind: "Event",
    columns: &[
        Column::string("Last Seen", d::EVENT_LAST_TIMESTAMP),
        Column::string("Type", d::EVENT_TYPE),
        Column::string("Reason", d::EVENT_REASON),
        Column::string("Object", d::EVENT_INVOLVED_OBJECT),
        Column::string("Subobject", d::OBJECT_REFERENCE_FIELD_PATH).wide(),
        Column::string("Source", d::EVENT_SOURCE).wide(),
        Column::string("Message", d::EVENT_MESSAGE),
        Column::string("First Seen", d::EVENT_FIRST_TIMESTAMP).wide(),
        Column::string("Count", d::EVENT_COUNT).wide(),
        Column { priority: 1, ..Column::name() },
    ],
    row: event_row,
};

fn event_row(obj: &Value, now: Timestamp) -> Row {
    let first = match timestamp(obj, "/firstTimestamp") {
        Some(t) => since(Some(t), now),
        None => since(timestamp(obj, "/eventTime"), now),
    };
    let mut last = match timestamp(obj, "/lastTimestamp") {
        Some(t) => since(Some(t), now),
        None => first.clone(),
    };
    let mut count = int(obj, "/count");
    if obj.get("series").is_some_and(|s| !s.is_null()) {
        last = since(timestamp(obj, "/series/lastObservedTime"), now);
        count = int(obj, "/series/count");
    } else if count == 0 {
        // Singleton events of the events.k8s.io API have no count.
        count = 1;
    }
    let kind = text(obj, "/involvedObject/kind").to_lowercase();
    let target = match text(obj, "/involvedObject/name") {
        "" => kind,
        n => format!("{kind}/{n}"),
    };
    let component = first_non_empty(text(obj, "/source/component"), text(obj, "/reportingComponent"));
    let instance = first_non_empty(text(obj, "/source/host"), text(obj, "/reportingInstance"));
    let source = if instance.is_empty() { component.to_string() } else { format!("{component}, {instance}") };
    Row::cells(vec![
        json!(last),
        json!(text(obj, "/type")),
        json!(text(obj, "/reason")),
        json!(target),
        json!(text(obj, "/involvedObject/fieldPath")),
        json!(source),
        json!(text(obj, "/message").trim()),
        json!(first),
        json!(count),
        name(obj),
    ])
}

fn first_non_empty<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.is_empty() { b } else { a }
}

pub const NODE: Printer = Printer {
    group: "",
    kind: "Node",
    columns: &[
        Column::name(),
        Column::string("Status", "The status of the node"),
        Column::string("Roles", "The roles of the node"),
        Column::age(),
        Column::string("Version", d::NODE_INFO_KUBELET_VERSION),
        Column::string("Internal-IP", d::NODE_STATUS_ADDRESSES).wide(),
        Column::string("External-IP", d::NODE_STATUS_ADDRESSES).wide(),
        Column::string("OS-Image", d::NODE_INFO_OS_IMAGE).wide(),
        Column::string("Kernel-Version", d::NODE_INFO_KERNEL_VERSION).wide(),
        Column::string("Container-Runtime", d::NODE_INFO_CONTAINER_RUNTIME_VERSION).wide(),
    ],
    row: node_row,
};

fn node_row(obj: &Value, now: Timestamp) -> Row {
    // The last Ready condition wins, as in upstream's condition map.
    let ready = items(obj, "/status/conditions").iter().rev().find(|c| text(c, "/type") == "Ready");
    let mut status = vec![match ready {
        Some(c) if text(c, "/status") == "True" => "Ready",
        Some(_) => "NotReady",
        None => "Unknown",
    }];
    if obj.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
        status.push("SchedulingDisabled");
    }
    let roles = node_roles(obj);
    let address = |kind: &str| {
        items(obj, "/status/addresses")
            .iter()
            .find(|a| text(a, "/type") == kind)
            .map_or("<none>".to_string(), |a| text(a, "/address").to_string())
    };
    let info = |field: &str| match text(obj, &format!("/status/nodeInfo/{field}")) {
        "" => "<unknown>".to_string(),
        v => v.to_string(),
    };
    Row::cells(vec![
        name(obj),
        json!(status.join(",")),
        json!(if roles.is_empty() { "<none>".to_string() } else { roles }),
        age(obj, now),
        json!(text(obj, "/status/nodeInfo/kubeletVersion")),
        json!(address("InternalIP")),
        json!(address("ExternalIP")),
        json!(info("osImage")),
        json!(info("kernelVersion")),
        json!(info("containerRuntimeVersion")),
    ])
}

/// `findNodeRoles`: `node-role.kubernetes.io/<role>` labels and the `kubernetes.io/role` value,
/// sorted and comma-separated.
fn node_roles(obj: &Value) -> String {
    let mut roles = BTreeSet::new();
    if let Some(Value::Object(labels)) = obj.pointer("/metadata/labels") {
        for (k, v) in labels {
            if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
                if !role.is_empty() {
                    roles.insert(role.to_string());
                }
            } else if k == "kubernetes.io/role" && v.as_str().is_some_and(|v| !v.is_empty()) {
                roles.insert(v.as_str().unwrap_or_default().to_string());
            }
        }
    }
    roles.into_iter().collect::<Vec<_>>().join(",")
}

/// kube's `printResourceQuota`: `used/hard` per resource of `status.hard` in name order, the
/// `limits.*` ones in their own column.
pub const RESOURCE_QUOTA: Printer = Printer {
    group: "",
    kind: "ResourceQuota",
    columns: &[
        Column::name(),
        Column::age(),
        Column::string("Request", d::RESOURCE_QUOTA_REQUEST),
        Column::string("Limit", d::RESOURCE_QUOTA_LIMIT),
    ],
    row: resource_quota_row,
};

fn resource_quota_row(obj: &Value, now: Timestamp) -> Row {
    let (mut requests, mut limits) = (Vec::new(), Vec::new());
    if let Some(hard) = obj.pointer("/status/hard").and_then(Value::as_object) {
        let mut names: Vec<&String> = hard.keys().collect();
        names.sort();
        for name in names {
            let used = obj.pointer(&format!("/status/used/{}", name.replace('~', "~0").replace('/', "~1")));
            let cell = format!("{name}: {}/{}", quantity_text(used), quantity_text(hard.get(name)));
            if name.split('.').next() == Some("limits") && name.contains('.') {
                limits.push(cell);
            } else {
                requests.push(cell);
            }
        }
    }
    Row::cells(vec![name(obj), age(obj, now), json!(requests.join(", ")), json!(limits.join(", "))])
}

/// A stored quantity in canonical form; absent is `0`, as kube prints a zero Quantity.
fn quantity_text(value: Option<&Value>) -> String {
    let text = match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return "0".to_string(),
    };
    karmadactl_apimachinery::quantity::Quantity::parse(&text).map_or(text, |q| q.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Timestamp {
        "2024-05-01T12:00:00Z".parse().unwrap()
    }

    fn cells(p: &Printer, obj: Value) -> Vec<Value> {
        (p.row)(&obj, now()).cells
    }

    #[test]
    fn namespaces_config_maps_secrets_service_accounts() {
        let meta = json!({"name": "a", "creationTimestamp": "2024-05-01T11:59:55Z"});
        assert_eq!(
            cells(&NAMESPACE, json!({"metadata": meta, "status": {"phase": "Active"}})),
            [json!("a"), json!("Active"), json!("5s")]
        );
        let cm = json!({"metadata": meta, "data": {"a": "1", "b": "2"}, "binaryData": {"c": ""}});
        assert_eq!(cells(&CONFIG_MAP, cm), [json!("a"), json!(3), json!("5s")]);
        let secret = json!({"metadata": meta, "type": "Opaque", "data": {"k": "dg=="}});
        assert_eq!(cells(&SECRET, secret), [json!("a"), json!("Opaque"), json!(1), json!("5s")]);
        let sa = json!({"metadata": meta, "secrets": [{"name": "t"}]});
        assert_eq!(cells(&SERVICE_ACCOUNT, sa), [json!("a"), json!(1), json!("5s")]);
    }

    #[test]
    fn resource_quotas_show_used_over_hard_with_limits_apart() {
        let meta = json!({"name": "q", "creationTimestamp": "2024-05-01T11:59:55Z"});
        let quota = json!({"metadata": meta, "status": {
            "hard": {"pods": "10", "limits.cpu": "2", "requests.memory": "1024Mi", "cpu": "1"},
            "used": {"pods": "3", "limits.cpu": "500m"}}});
        assert_eq!(
            cells(&RESOURCE_QUOTA, quota),
            [
                json!("q"),
                json!("5s"),
                json!("cpu: 0/1, pods: 3/10, requests.memory: 0/1Gi"),
                json!("limits.cpu: 500m/2")
            ]
        );
        // Nothing reported yet: empty cells, as kubectl shows a quota before its controller ran.
        assert_eq!(cells(&RESOURCE_QUOTA, json!({"metadata": meta})), [json!("q"), json!("5s"), json!(""), json!("")]);
    }

    #[test]
    fn services() {
        let meta = json!({"name": "web", "creationTimestamp": "2024-05-01T11:00:00Z"});
        let svc = json!({"metadata": meta, "spec": {"clusterIP": "10.0.0.7", "selector": {"app": "web", "a": "b"},
            "ports": [{"port": 80}, {"port": 443, "protocol": "TCP", "nodePort": 30443}]}});
        assert_eq!(
            cells(&SERVICE, svc),
            [
                json!("web"),
                json!("ClusterIP"),
                json!("10.0.0.7"),
                json!("<none>"),
                json!("80/TCP,443:30443/TCP"),
                json!("60m"),
                json!("a=b,app=web"),
            ]
        );
        let lb = json!({"metadata": meta, "spec": {"type": "LoadBalancer", "clusterIPs": ["10.0.0.8"],
            "externalIPs": ["1.2.3.4"]}, "status": {"loadBalancer": {"ingress": [{"hostname": "lb.example"}, {"ip": "5.6.7.8"}]}}});
        let c = cells(&SERVICE, lb);
        assert_eq!(c[2], json!("10.0.0.8"));
        assert_eq!(c[3], json!("5.6.7.8,lb.example,1.2.3.4"));
        assert_eq!(c[4], json!("<none>"));
        assert_eq!(c[6], json!("<none>"));
        let pending = json!({"metadata": meta, "spec": {"type": "LoadBalancer"}});
        assert_eq!(cells(&SERVICE, pending)[3], json!("<pending>"));
        let ext = json!({"metadata": meta, "spec": {"type": "ExternalName", "externalName": "db.example"}});
        assert_eq!(cells(&SERVICE, ext)[3], json!("db.example"));
    }

    #[test]
    fn endpoints() {
        let meta = json!({"name": "web"});
        assert_eq!(cells(&ENDPOINTS, json!({"metadata": meta}))[1], json!("<none>"));
        let ep = json!({"metadata": meta, "subsets": [
            {"addresses": [{"ip": "10.0.0.1"}, {"ip": "fd00::1"}], "ports": [{"port": 80}, {"port": 81}]},
            {"addresses": [{"ip": "10.0.0.9"}]}
        ]});
        assert_eq!(cells(&ENDPOINTS, ep)[1], json!("10.0.0.1:80,[fd00::1]:80,10.0.0.1:81 + 2 more..."));
    }

    #[test]
    fn events() {
        let ev = json!({"metadata": {"name": "web.123"}, "type": "Warning", "reason": "BackOff",
            "involvedObject": {"kind": "Pod", "name": "web", "fieldPath": "spec.containers{app}"},
            "source": {"component": "kubelet", "host": "node-1"}, "message": " restarting \n",
            "firstTimestamp": "2024-05-01T11:00:00Z", "lastTimestamp": "2024-05-01T11:59:30Z", "count": 4});
        assert_eq!(
            cells(&EVENT, ev),
            [
                json!("30s"),
                json!("Warning"),
                json!("BackOff"),
                json!("pod/web"),
                json!("spec.containers{app}"),
                json!("kubelet, node-1"),
                json!("restarting"),
                json!("60m"),
                json!(4),
                json!("web.123"),
            ]
        );
        let new_api = json!({"metadata": {"name": "e"}, "involvedObject": {"kind": "Node"},
            "eventTime": "2024-05-01T11:59:50.000000Z", "reportingComponent": "ctrl"});
        let c = cells(&EVENT, new_api);
        assert_eq!(
            (c[0].clone(), c[3].clone(), c[5].clone(), c[8].clone()),
            (json!("10s"), json!("node"), json!("ctrl"), json!(1))
        );
    }

    #[test]
    fn nodes() {
        let node = json!({"metadata": {"name": "n1", "creationTimestamp": "2024-04-20T12:00:00Z",
            "labels": {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "edge"}},
            "spec": {"unschedulable": true},
            "status": {"conditions": [{"type": "Ready", "status": "False"}],
                "addresses": [{"type": "InternalIP", "address": "10.1.0.1"}],
                "nodeInfo": {"kubeletVersion": "v1.33.0", "osImage": "Debian"}}});
        assert_eq!(
            cells(&NODE, node),
            [
                json!("n1"),
                json!("NotReady,SchedulingDisabled"),
                json!("control-plane,edge"),
                json!("11d"),
                json!("v1.33.0"),
                json!("10.1.0.1"),
                json!("<none>"),
                json!("Debian"),
                json!("<unknown>"),
                json!("<unknown>"),
            ]
        );
        let bare = cells(&NODE, json!({"metadata": {"name": "n2"}}));
        assert_eq!((bare[1].clone(), bare[2].clone()), (json!("Unknown"), json!("<none>")));
    }
}

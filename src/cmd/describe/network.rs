//! kubectl's Service describer: selector, type, IPs, each port with its target and the ready
//! endpoints behind it (from the Service's EndpointSlices, three shown and a count of the
//! rest), traffic policies, then events.

use serde_json::Value;

use super::events::Events;
use super::prefix_writer::PrefixWriter;
use super::{Settings, list, meta};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array().into_iter().flatten().map(text).collect()
}

pub async fn service(settings: &Settings<'_>, svc: &Value, events: Option<&Events>) -> String {
    let metadata = &svc["metadata"];
    let (name, namespace) = (text(&metadata["name"]), text(&metadata["namespace"]));
    let selector = format!("kubernetes.io/service-name={name}");
    let path = format!("/apis/discovery.k8s.io/v1/namespaces/{namespace}/endpointslices");
    // A failed list shows as no endpoints, as kubectl shows it.
    let slices = list::items(settings.client, &path, &[("labelSelector", &selector)], 0).await.unwrap_or_default();
    let spec = &svc["spec"];
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{name}\n"));
    w.write(0, &format!("Namespace:\t{namespace}\n"));
    meta::labels(&mut w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(metadata.get("annotations")));
    let pairs = meta::string_map(spec.get("selector"));
    let selector = match pairs.is_empty() {
        true => "<none>".to_string(),
        false => pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","),
    };
    w.write(0, &format!("Selector:\t{selector}\n"));
    w.write(0, &format!("Type:\t{}\n", text(&spec["type"])));
    if let Some(policy) = spec["ipFamilyPolicy"].as_str() {
        w.write(0, &format!("IP Family Policy:\t{policy}\n"));
    }
    let or_none = |v: Vec<&str>| if v.is_empty() { "<none>".to_string() } else { v.join(",") };
    w.write(0, &format!("IP Families:\t{}\n", or_none(strings(&spec["ipFamilies"]))));
    w.write(0, &format!("IP:\t{}\n", text(&spec["clusterIP"])));
    w.write(0, &format!("IPs:\t{}\n", or_none(strings(&spec["clusterIPs"]))));
    let optional = [
        ("External IPs", strings(&spec["externalIPs"]).join(",")),
        ("Desired LoadBalancer IP", text(&spec["loadBalancerIP"]).to_string()),
        ("External Name", text(&spec["externalName"]).to_string()),
        ("LoadBalancer Ingress", ingress(&svc["status"]["loadBalancer"]["ingress"])),
    ];
    for (label, value) in optional.iter().filter(|(_, v)| !v.is_empty()) {
        w.write(0, &format!("{label}:\t{value}\n"));
    }
    for port in spec["ports"].as_array().into_iter().flatten() {
        let port_name = text(&port["name"]);
        let shown = if port_name.is_empty() { "<unset>" } else { port_name };
        let protocol = text(&port["protocol"]);
        w.write(0, &format!("Port:\t{shown}\t{}/{protocol}\n", port["port"].as_i64().unwrap_or_default()));
        // An unset target port is Go's zero IntOrString: the number 0.
        let target = match &port["targetPort"] {
            Value::String(s) => s.clone(),
            other => other.as_i64().unwrap_or_default().to_string(),
        };
        w.write(0, &format!("TargetPort:\t{target}/{protocol}\n"));
        if let Some(node_port) = port["nodePort"].as_i64().filter(|p| *p != 0) {
            w.write(0, &format!("NodePort:\t{shown}\t{node_port}/{protocol}\n"));
        }
        w.write(0, &format!("Endpoints:\t{}\n", endpoints(&slices, port_name)));
    }
    w.write(0, &format!("Session Affinity:\t{}\n", text(&spec["sessionAffinity"])));
    if let Some(p) = spec["externalTrafficPolicy"].as_str().filter(|p| !p.is_empty()) {
        w.write(0, &format!("External Traffic Policy:\t{p}\n"));
    }
    if let Some(p) = spec["internalTrafficPolicy"].as_str() {
        w.write(0, &format!("Internal Traffic Policy:\t{p}\n"));
    }
    if let Some(p) = spec["healthCheckNodePort"].as_i64().filter(|p| *p != 0) {
        w.write(0, &format!("HealthCheck NodePort:\t{p}\n"));
    }
    let ranges = strings(&spec["loadBalancerSourceRanges"]);
    if !ranges.is_empty() {
        w.write(0, &format!("LoadBalancer Source Ranges:\t{}\n", ranges.join(",")));
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

/// `buildIngressString`.
fn ingress(list: &Value) -> String {
    let shown: Vec<String> = list
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| match (text(&i["ip"]), i["ipMode"].as_str()) {
            ("", _) => text(&i["hostname"]).to_string(),
            (ip, Some(mode)) => format!("{ip} ({mode})"),
            (ip, None) => ip.to_string(),
        })
        .collect();
    shown.join(", ")
}

/// `formatEndpointSlices` for one port name: ready endpoints as `address:port`, three shown.
/// As kubectl, "more" is decided when a further endpoint is met once three are shown, ready or
/// not, so three ready endpoints and an unready one read `a,b,c + 0 more...`.
fn endpoints(slices: &[Value], port_name: &str) -> String {
    const MAX: usize = 3;
    if slices.is_empty() {
        return "<none>".into();
    }
    let mut shown: Vec<String> = Vec::new();
    let mut more = false;
    let mut count: usize = 0;
    let ready = |e: &Value| e["conditions"]["ready"].as_bool().unwrap_or(true);
    let address = |e: &Value| e["addresses"][0].as_str().unwrap_or_default().to_string();
    let mut visit = |e: &Value, shown_as: &dyn Fn(String) -> String| {
        more |= shown.len() == MAX;
        if !ready(e) {
            return;
        }
        if !more {
            shown.push(shown_as(address(e)));
        }
        count += 1;
    };
    for slice in slices {
        let ports = slice["ports"].as_array().cloned().unwrap_or_default();
        let endpoints = slice["endpoints"].as_array().cloned().unwrap_or_default();
        if ports.is_empty() {
            // Headless services may have no ports.
            for e in &endpoints {
                visit(e, &|a| a);
            }
            continue;
        }
        for port in ports.iter().filter(|p| text(&p["name"]) == port_name) {
            let number = port["port"].as_i64().unwrap_or_default();
            for e in &endpoints {
                visit(e, &|a| if a.contains(':') { format!("[{a}]:{number}") } else { format!("{a}:{number}") });
            }
        }
    }
    match more {
        true => format!("{} + {} more...", shown.join(","), count.saturating_sub(MAX)),
        false => shown.join(","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn slice(ports: Value, ready: &[Option<bool>]) -> Value {
        let endpoints: Vec<Value> = ready
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                Some(r) => json!({"addresses": [format!("10.0.0.{i}")], "conditions": {"ready": r}}),
                None => json!({"addresses": [format!("10.0.0.{i}")]}),
            })
            .collect();
        json!({"ports": ports, "endpoints": endpoints})
    }

    #[test]
    fn endpoints_of_the_named_port_three_shown_and_the_rest_counted() {
        assert_eq!(endpoints(&[], "http"), "<none>");
        let http = json!([{"name": "http", "port": 80}, {"name": "admin", "port": 90}]);
        let s = slice(http.clone(), &[Some(true), None, Some(false), Some(true), Some(true)]);
        assert_eq!(endpoints(std::slice::from_ref(&s), "http"), "10.0.0.0:80,10.0.0.1:80,10.0.0.3:80 + 1 more...");
        assert_eq!(endpoints(&[s], "other"), "");
        // Three ready and one unready after them: kubectl still says "+ 0 more".
        let s = slice(http, &[Some(true), Some(true), Some(true), Some(false)]);
        assert_eq!(endpoints(&[s], "admin"), "10.0.0.0:90,10.0.0.1:90,10.0.0.2:90 + 0 more...");
        let headless = slice(json!([]), &[Some(true), Some(false)]);
        assert_eq!(endpoints(&[headless], "x"), "10.0.0.0");
    }
}

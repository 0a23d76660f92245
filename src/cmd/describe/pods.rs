//! kubectl's Pod describer: where the pod runs, its status, IPs and controller, its
//! containers with their states, conditions, volumes, QoS class, node selectors, tolerations
//! and spread constraints, then events.

use serde_json::Value;

use super::events::Events;
use karmadactl_apimachinery::quantity::Quantity;

use super::go_format::{self, quantity_of, rfc1123z};
use super::prefix_writer::PrefixWriter;
use super::{containers, meta, pod_template, volumes};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

pub fn describe(pod: &Value, events: Option<&Events>) -> String {
    let (metadata, spec, status) = (&pod["metadata"], &pod["spec"], &pod["status"]);
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", text(&metadata["name"])));
    w.write(0, &format!("Namespace:\t{}\n", text(&metadata["namespace"])));
    if let Some(p) = spec["priority"].as_i64() {
        w.write(0, &format!("Priority:\t{p}\n"));
    }
    let optional = [
        ("Priority Class Name", &spec["priorityClassName"]),
        ("Runtime Class Name", &spec["runtimeClassName"]),
        ("Service Account", &spec["serviceAccountName"]),
    ];
    for (label, v) in optional {
        if let Some(v) = v.as_str().filter(|v| !v.is_empty()) {
            w.write(0, &format!("{label}:\t{v}\n"));
        }
    }
    match text(&spec["nodeName"]) {
        "" => w.write(0, "Node:\t<none>\n"),
        node => w.write(0, &format!("Node:\t{node}/{}\n", text(&status["hostIP"]))),
    }
    if status["startTime"].is_string() {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z(&status["startTime"])));
    }
    meta::labels(&mut w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(metadata.get("annotations")));
    let phase = text(&status["phase"]);
    if metadata["deletionTimestamp"].is_string() && phase != "Failed" && phase != "Succeeded" {
        w.write(0, &format!("Status:\tTerminating (lasts {})\n", go_format::age(&metadata["deletionTimestamp"])));
        let grace = metadata["deletionGracePeriodSeconds"].as_i64().unwrap_or_default();
        w.write(0, &format!("Termination Grace Period:\t{grace}s\n"));
    } else {
        w.write(0, &format!("Status:\t{phase}\n"));
    }
    for (label, field) in [("Reason", "reason"), ("Message", "message")] {
        if let Some(v) = status[field].as_str().filter(|v| !v.is_empty()) {
            w.write(0, &format!("{label}:\t{v}\n"));
        }
    }
    containers::seccomp(&mut w, &spec["securityContext"]["seccompProfile"], 0);
    w.write(0, &format!("IP:\t{}\n", text(&status["podIP"])));
    let ips = status["podIPs"].as_array().map(Vec::as_slice).unwrap_or_default();
    if ips.is_empty() {
        w.write(0, "IPs:\t<none>\n");
    } else {
        w.write(0, "IPs:\n");
        for ip in ips {
            w.write(1, &format!("IP:\t{}\n", text(&ip["ip"])));
        }
    }
    if let Some(owner) = go_format::controller(pod) {
        w.write(0, &format!("Controlled By:\t{owner}\n"));
    }
    if let Some(n) = status["nominatedNodeName"].as_str().filter(|n| !n.is_empty()) {
        w.write(0, &format!("NominatedNodeName:\t{n}\n"));
    }
    if spec["resources"].is_object() {
        w.write(0, "Resources:\n");
        containers::resources(&mut w, &spec["resources"], 1);
    }
    if spec["initContainers"].as_array().is_some_and(|c| !c.is_empty()) {
        containers::describe(
            &mut w,
            "Init Containers",
            &spec["initContainers"],
            Some(&status["initContainerStatuses"]),
            Some(pod),
            "",
        );
    }
    containers::describe(&mut w, "Containers", &spec["containers"], Some(&status["containerStatuses"]), Some(pod), "");
    if spec["ephemeralContainers"].as_array().is_some_and(|c| !c.is_empty()) {
        containers::describe(
            &mut w,
            "Ephemeral Containers",
            &spec["ephemeralContainers"],
            Some(&status["ephemeralContainerStatuses"]),
            Some(pod),
            "",
        );
    }
    let conditions = status["conditions"].as_array().map(Vec::as_slice).unwrap_or_default();
    let gates = spec["readinessGates"].as_array().map(Vec::as_slice).unwrap_or_default();
    if !gates.is_empty() {
        w.write(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let kind = text(&g["conditionType"]);
            let status = conditions.iter().find(|c| text(&c["type"]) == kind).map_or("<none>", |c| text(&c["status"]));
            w.write(1, &format!("{kind} \t{status} \n"));
        }
    }
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\n");
        for c in conditions {
            w.write(1, &format!("{} \t{} \n", text(&c["type"]), text(&c["status"])));
        }
    }
    volumes::describe(&mut w, &spec["volumes"], "");
    w.write(0, &format!("QoS Class:\t{}\n", qos_class(pod)));
    meta::labels(&mut w, "Node-Selectors", &meta::string_map(spec.get("nodeSelector")));
    pod_template::tolerations(&mut w, "Tolerations", &spec["tolerations"]);
    pod_template::topology_spread(&mut w, &spec["topologySpreadConstraints"], "");
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

/// `qos.GetPodQOS`: the class the server recorded, or the one the CPU and memory requests and
/// limits give (the pod-level ones when the pod has a `resources` field, else the containers').
fn qos_class(pod: &Value) -> &str {
    if let Some(class) = pod["status"]["qosClass"].as_str().filter(|c| !c.is_empty()) {
        return class;
    }
    let spec = &pod["spec"];
    let sets: Vec<&Value> = if spec["resources"].is_object() {
        vec![&spec["resources"]]
    } else {
        let containers = spec["containers"].as_array().into_iter().flatten();
        containers.chain(spec["initContainers"].as_array().into_iter().flatten()).map(|c| &c["resources"]).collect()
    };
    let (mut requests, mut limits) = ([Quantity::zero(); 2], [Quantity::zero(); 2]);
    let mut guaranteed = true;
    for resources in sets {
        for (i, name) in ["cpu", "memory"].into_iter().enumerate() {
            let (r, l) = (quantity_of(&resources["requests"][name]), quantity_of(&resources["limits"][name]));
            // Only amounts above zero count.
            if r.nanos() > 0 {
                requests[i] = requests[i].plus(r);
            }
            if l.nanos() > 0 {
                limits[i] = limits[i].plus(l);
            } else if resources["limits"].is_object() {
                guaranteed = false;
            }
        }
        if !resources["limits"].is_object() {
            guaranteed = false;
        }
    }
    let set = |q: &[Quantity; 2]| q.iter().filter(|q| q.nanos() > 0).count();
    if set(&requests) == 0 && set(&limits) == 0 {
        return "BestEffort";
    }
    let equal = (0..2).all(|i| requests[i].nanos() == 0 || requests[i].nanos() == limits[i].nanos());
    if guaranteed && equal && set(&requests) == set(&limits) { "Guaranteed" } else { "Burstable" }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::qos_class;

    fn pod(containers: serde_json::Value) -> serde_json::Value {
        json!({"spec": {"containers": containers}})
    }

    #[test]
    fn qos_follows_requests_and_limits() {
        assert_eq!(qos_class(&pod(json!([{"name": "a"}]))), "BestEffort");
        let equal = json!({"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1000m", "memory": "1Gi"}});
        assert_eq!(qos_class(&pod(json!([{"resources": equal}]))), "Guaranteed");
        let limits_only = json!({"limits": {"cpu": "1", "memory": "1Gi"}});
        assert_eq!(qos_class(&pod(json!([{"resources": limits_only}]))), "Burstable");
        let cpu_only = json!({"requests": {"cpu": "1"}, "limits": {"cpu": "1"}});
        assert_eq!(qos_class(&pod(json!([{"resources": cpu_only}]))), "Burstable");
        let recorded = json!({"spec": {}, "status": {"qosClass": "Guaranteed"}});
        assert_eq!(qos_class(&recorded), "Guaranteed");
    }
}

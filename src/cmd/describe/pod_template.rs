//! kubectl's `DescribePodTemplate` and the pod-spec lines it shares with the Pod describer:
//! tolerations, topology spread constraints and node selectors.

use serde_json::Value;

use super::prefix_writer::PrefixWriter;
use super::{containers, go_format, meta, volumes};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// The `Pod Template:` section of a workload.
pub fn describe(w: &mut PrefixWriter, template: &Value) {
    w.write(0, "Pod Template:\n");
    let metadata = &template["metadata"];
    let spec = &template["spec"];
    meta::labels(w, "  Labels", &meta::string_map(metadata.get("labels")));
    let annotations = meta::string_map(metadata.get("annotations"));
    if !annotations.is_empty() {
        meta::annotations(w, "  Annotations", &annotations);
    }
    if let Some(sa) = spec["serviceAccountName"].as_str().filter(|s| !s.is_empty()) {
        w.write(1, &format!("Service Account:\t{sa}\n"));
    }
    if spec["initContainers"].as_array().is_some_and(|c| !c.is_empty()) {
        containers::describe(w, "Init Containers", &spec["initContainers"], None, None, "  ");
    }
    containers::describe(w, "Containers", &spec["containers"], None, None, "  ");
    volumes::describe(w, &spec["volumes"], "  ");
    topology_spread(w, &spec["topologySpreadConstraints"], "  ");
    if let Some(class) = spec["priorityClassName"].as_str().filter(|s| !s.is_empty()) {
        w.write(1, &format!("Priority Class Name:\t{class}\n"));
    }
    meta::labels(w, "  Node-Selectors", &meta::string_map(spec.get("nodeSelector")));
    tolerations(w, "  Tolerations", &spec["tolerations"]);
}

/// `printTolerationsMultilineWithIndent`, sorted by key.
pub fn tolerations(w: &mut PrefixWriter, title: &str, list: &Value) {
    w.write(0, &format!("{title}:\t"));
    let mut list: Vec<&Value> = list.as_array().into_iter().flatten().collect();
    if list.is_empty() {
        w.line("<none>");
        return;
    }
    list.sort_by(|a, b| text(&a["key"]).cmp(text(&b["key"])));
    for (i, t) in list.iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let (key, value, effect) = (text(&t["key"]), text(&t["value"]), text(&t["effect"]));
        let mut shown = key.to_string();
        if !value.is_empty() {
            shown.push_str(&format!("={value}"));
        }
        if !effect.is_empty() {
            shown.push_str(&format!(":{effect}"));
        }
        // `operator: Exists` with no value tolerates everything matching the key (or everything).
        if text(&t["operator"]) == "Exists" && value.is_empty() {
            shown.push_str(if key.is_empty() && effect.is_empty() { "op=Exists" } else { " op=Exists" });
        }
        if let Some(seconds) = t["tolerationSeconds"].as_i64() {
            shown.push_str(&format!(" for {seconds}s"));
        }
        w.write(0, &format!("{shown}\n"));
    }
}

/// `describeTopologySpreadConstraints`, sorted by topology key.
pub fn topology_spread(w: &mut PrefixWriter, list: &Value, space: &str) {
    let mut list: Vec<&Value> = list.as_array().into_iter().flatten().collect();
    if list.is_empty() {
        return;
    }
    list.sort_by(|a, b| text(&a["topologyKey"]).cmp(text(&b["topologyKey"])));
    w.write(0, &format!("{space}Topology Spread Constraints:\t"));
    for (i, c) in list.iter().enumerate() {
        if i != 0 {
            w.write(0, &format!("{space}\t"));
        }
        let mut shown = format!(
            "{}:{} when max skew {} is exceeded",
            text(&c["topologyKey"]),
            text(&c["whenUnsatisfiable"]),
            c["maxSkew"].as_i64().unwrap_or_default()
        );
        if c["labelSelector"].is_object() {
            shown.push_str(&format!(" for selector {}", go_format::format_selector(&c["labelSelector"])));
        }
        w.write(0, &format!("{shown}\n"));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::prefix_writer::PrefixWriter;
    use super::tolerations;

    #[test]
    fn tolerations_sorted_by_key_with_their_operator_and_time() {
        let mut w = PrefixWriter::new();
        let list = json!([
            {"key": "zone", "operator": "Equal", "value": "a", "effect": "NoSchedule"},
            {"operator": "Exists"},
            {"key": "gone", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}
        ]);
        tolerations(&mut w, "Tolerations", &list);
        assert_eq!(
            w.finish(),
            "Tolerations:  op=Exists\n              gone:NoExecute op=Exists for 30s\n              zone=a:NoSchedule\n"
        );
    }
}

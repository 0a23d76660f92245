//! State preservation (`failover.*.statePreservation`, behind the `StatefulFailoverInjection`
//! gate): values read with JSONPath from the failed copy's collected status become labels, kept
//! in the eviction task (`preservedLabelState`), and the binding controller writes them into
//! the workload it sends to the clusters the application moved to (upstream's
//! `BuildPreservedLabelState` and the binding controller's `injectReservedLabelState`).

use std::collections::BTreeMap;

use karmadactl_apimachinery::JsonPath;
use karmadactl_karmada_api::policy::failover::{PurgeMode, StatePreservation};
use karmadactl_karmada_api::work::binding::ResourceBindingSpec;
use serde_json::Value;

/// The labels the rules read from `status`, or why one could not be read. Each rule's path is
/// a client-go JSONPath template, as upstream evaluates it with missing keys refused: text
/// outside `{…}` is written as it is, an expression that selects nothing is an error, several
/// values are joined with spaces, strings are written bare and objects or arrays as JSON.
pub fn preserved_label_state(rules: &StatePreservation, status: &Value) -> Result<BTreeMap<String, String>, String> {
    let mut labels = BTreeMap::new();
    for rule in &rules.rules {
        labels.insert(rule.alias_label_name.clone(), render(&rule.json_path, status)?);
    }
    Ok(labels)
}

/// Renders one template: literal text and `{expression}` parts.
fn render(template: &str, status: &Value) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').ok_or_else(|| format!("invalid JSONPath {template:?}: unclosed action"))?;
        let expression = &rest[open..open + close + 1];
        let path = JsonPath::parse(expression).map_err(|e| e.to_string())?;
        let found = path.find(status).map_err(|e| format!("failed to execute jsonpath {template:?}: {e}"))?;
        if found.is_empty() {
            return Err(format!("failed to execute jsonpath {template:?}: {expression} selects nothing"));
        }
        let text: Vec<String> = found.into_iter().map(as_text).collect();
        out.push_str(&text.join(" "));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A selected value as client-go's JSONPath prints it.
fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}

/// The labels to add to the workload sent to `cluster`, as upstream's binding controller
/// decides: only when the workload goes to a single cluster, from the latest eviction task,
/// when that task purged `Directly` and `cluster` is not one the application ran on before.
pub fn labels_to_inject<'s>(
    spec: &'s ResourceBindingSpec,
    cluster: &str,
    target_count: usize,
) -> Option<&'s BTreeMap<String, String>> {
    if target_count > 1 {
        return None;
    }
    let task = spec.graceful_eviction_tasks.as_ref()?.last()?;
    if task.purge_mode != Some(PurgeMode::Directly) {
        return None;
    }
    if task.clusters_before_failover.iter().flatten().any(|c| c == cluster) {
        return None;
    }
    task.preserved_label_state.as_ref().filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_karmada_api::policy::failover::StatePreservationRule;
    use karmadactl_karmada_api::work::eviction::GracefulEvictionTask;
    use serde_json::json;

    fn rules(pairs: &[(&str, &str)]) -> StatePreservation {
        StatePreservation {
            rules: pairs
                .iter()
                .map(|(label, path)| StatePreservationRule {
                    alias_label_name: label.to_string(),
                    json_path: path.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn rules_read_scalars_strings_and_lists_from_the_status() {
        let status = json!({"replicas": 3, "phase": "Running", "ready": true,
                            "conditions": [{"type": "A", "status": "True"}, {"type": "B", "status": "False"}]});
        let labels = preserved_label_state(
            &rules(&[
                ("failover.example/replicas", "{.replicas}"),
                ("phase", "{ .phase }"),
                ("literal", "v{.replicas}-x"),
                ("ready", "{.ready}"),
                ("statuses", "{.conditions[*].status}"),
                ("b", "{.conditions[?(@.type==\"B\")].status}"),
            ]),
            &status,
        )
        .unwrap();
        assert_eq!(
            labels,
            BTreeMap::from([
                ("failover.example/replicas".to_string(), "3".to_string()),
                ("phase".to_string(), "Running".to_string()),
                ("literal".to_string(), "v3-x".to_string()),
                ("ready".to_string(), "true".to_string()),
                ("statuses".to_string(), "True False".to_string()),
                ("b".to_string(), "False".to_string()),
            ])
        );
    }

    #[test]
    fn a_missing_value_or_a_bad_path_is_an_error_not_an_empty_label() {
        let status = json!({"replicas": 3});
        let err = preserved_label_state(&rules(&[("x", "{.missing}")]), &status).unwrap_err();
        assert_eq!(err, "failed to execute jsonpath \"{.missing}\": {.missing} selects nothing");
        let err = preserved_label_state(&rules(&[("x", "{.a[}")]), &status).unwrap_err();
        assert!(err.starts_with("invalid JSONPath"), "{err}");
        assert!(preserved_label_state(&rules(&[]), &status).unwrap().is_empty());
    }

    fn spec_with(task: GracefulEvictionTask) -> ResourceBindingSpec {
        ResourceBindingSpec { graceful_eviction_tasks: Some(vec![task]), ..Default::default() }
    }

    fn task(mode: PurgeMode) -> GracefulEvictionTask {
        GracefulEvictionTask {
            from_cluster: "m1".into(),
            purge_mode: Some(mode),
            preserved_label_state: Some(BTreeMap::from([("k".to_string(), "v".to_string())])),
            clusters_before_failover: Some(vec!["m1".into()]),
            ..Default::default()
        }
    }

    #[test]
    fn labels_go_only_to_a_single_new_cluster_after_a_direct_purge() {
        let spec = spec_with(task(PurgeMode::Directly));
        assert_eq!(labels_to_inject(&spec, "m2", 1).unwrap()["k"], "v");
        // The cluster the application ran on before gets nothing, nor do several targets.
        assert!(labels_to_inject(&spec, "m1", 1).is_none());
        assert!(labels_to_inject(&spec, "m2", 2).is_none());
        assert!(labels_to_inject(&spec_with(task(PurgeMode::Gracefully)), "m2", 1).is_none());
        assert!(labels_to_inject(&spec_with(task(PurgeMode::Never)), "m2", 1).is_none());
        let mut empty = task(PurgeMode::Directly);
        empty.preserved_label_state = Some(BTreeMap::new());
        assert!(labels_to_inject(&spec_with(empty), "m2", 1).is_none());
        assert!(labels_to_inject(&ResourceBindingSpec::default(), "m2", 1).is_none());
    }
}

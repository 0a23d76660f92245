//! Karmada's `Cluster` printer (`pkg/printers/internalversion` upstream): version, sync mode and
//! readiness, and, wide, where the member cluster runs and how it is reached.

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{age, condition_status, items, name, or_none, text};
use super::{Column, Printer, Row};

pub const CLUSTER: Printer = Printer {
    group: "cluster.karmada.io",
    kind: "Cluster",
    columns: &[
        Column::name(),
        Column::string("Version", "KubernetesVersion represents version of the member cluster."),
        Column::string("Mode", "SyncMode describes how a cluster sync resources from karmada control plane."),
        Column::string("Ready", "The aggregate readiness state of this cluster for accepting workloads."),
        Column::age(),
        Column::string(
            "Zones",
            "Zones represents the failure zones(also called availability zones) of the member cluster. The zones are presented as a slice to support the case that cluster runs across multiple failure zones.",
        )
        .wide(),
        Column::string("Region", "Region represents the region of the member cluster locate in.").wide(),
        Column::string("Provider", "Provider represents the cloud provider name of the member cluster.").wide(),
        Column::string("API-Endpoint", "The API endpoint of the member cluster.").wide(),
        Column::string("Proxy-URL", "ProxyURL is the proxy URL for the cluster.").wide(),
    ],
    row: cluster_row,
};

fn cluster_row(obj: &Value, now: Timestamp) -> Row {
    let ready = condition_status(obj, "/status/conditions", "Ready").unwrap_or("Unknown");
    let zones: Vec<&str> = items(obj, "/spec/zones").iter().filter_map(Value::as_str).collect();
    Row::cells(vec![
        name(obj),
        json!(text(obj, "/status/kubernetesVersion")),
        json!(text(obj, "/spec/syncMode")),
        json!(ready),
        age(obj, now),
        json!(or_none(&zones.join(","))),
        json!(or_none(text(obj, "/spec/region"))),
        json!(or_none(text(obj, "/spec/provider"))),
        json!(text(obj, "/spec/apiEndpoint")),
        json!(or_none(text(obj, "/spec/proxyURL"))),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(obj: Value) -> Vec<Value> {
        (CLUSTER.row)(&obj, "2024-05-01T12:00:00Z".parse().unwrap()).cells
    }

    #[test]
    fn a_ready_push_cluster() {
        let cluster = json!({
            "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": "member1", "creationTimestamp": "2024-05-01T08:30:00Z"},
            "spec": {"syncMode": "Push", "apiEndpoint": "https://10.0.0.1:6443", "zones": ["z1", "z2"],
                "region": "eu-west", "provider": "kind", "proxyURL": "http://proxy:3128"},
            "status": {"kubernetesVersion": "v1.31.2", "conditions": [
                {"type": "Ready", "status": "True", "reason": "ClusterReady"}]}
        });
        assert_eq!(
            cells(cluster),
            [
                json!("member1"),
                json!("v1.31.2"),
                json!("Push"),
                json!("True"),
                json!("3h30m"),
                json!("z1,z2"),
                json!("eu-west"),
                json!("kind"),
                json!("https://10.0.0.1:6443"),
                json!("http://proxy:3128"),
            ]
        );
    }

    #[test]
    fn a_new_pull_cluster_is_unknown_with_none_in_wide_columns() {
        let cluster = json!({"metadata": {"name": "member2", "creationTimestamp": "2024-05-01T11:59:58Z"},
            "spec": {"syncMode": "Pull"}, "status": {"conditions": [{"type": "Other", "status": "True"}]}});
        assert_eq!(
            cells(cluster),
            [
                json!("member2"),
                json!(""),
                json!("Pull"),
                json!("Unknown"),
                json!("2s"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
                json!(""),
                json!("<none>"),
            ]
        );
        let not_ready =
            json!({"metadata": {"name": "m"}, "status": {"conditions": [{"type": "Ready", "status": "False"}]}});
        assert_eq!(cells(not_ready)[3], json!("False"));
    }

    #[test]
    fn registered_under_its_group_and_kind() {
        let p = super::super::lookup("cluster.karmada.io", "Cluster").expect("a printer for Cluster");
        let names: Vec<&str> = p.columns.iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            ["Name", "Version", "Mode", "Ready", "Age", "Zones", "Region", "Provider", "API-Endpoint", "Proxy-URL"]
        );
        let wide: Vec<i32> = p.columns.iter().map(|c| c.priority).collect();
        assert_eq!(wide, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    }
}

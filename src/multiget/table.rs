//! Merging the server-side Tables of one resource type from several sources into the table
//! karmadactl prints: a CLUSTER column after NAME, ADOPTION last (`-` for the control plane,
//! `Y`/`N` for members by the `karmada.io/managed=true` label), then kubectl's own additions
//! (NAMESPACE first with `-A`, `-L` label columns, LABELS).

use serde_json::Value;

use crate::output::{Table, labels_cell, resource_name};

use super::discovery::Resource;

/// The label that marks member objects Karmada manages.
const MANAGED_LABEL: &str = "karmada.io/managed";

/// One source's Tables for the type.
pub struct SourceTables<'a> {
    /// `None` for the control plane.
    pub cluster: Option<&'a str>,
    pub tables: &'a [Value],
}

/// How the rows are shown.
#[derive(Debug, Clone, Default)]
pub struct Shape {
    pub with_namespace: bool,
    pub with_kind: bool,
    pub show_labels: bool,
    pub label_columns: Vec<String>,
}

/// The merged table, or `None` when no source returned a row.
pub fn merge(resource: &Resource, sources: &[SourceTables<'_>], shape: &Shape) -> Option<Table> {
    let columns = sources.iter().flat_map(|s| s.tables.iter()).find_map(|t| t.get("columnDefinitions"))?;
    let columns = columns.as_array()?;
    let mut headers = Vec::new();
    let mut wide = Vec::new();
    if shape.with_namespace {
        headers.push("NAMESPACE".to_string());
    }
    for (i, c) in columns.iter().enumerate() {
        if c.get("priority").and_then(Value::as_i64).unwrap_or(0) > 0 {
            wide.push(headers.len());
        }
        headers.push(text(c.get("name")));
        // CLUSTER goes after the first (NAME) column.
        if i == 0 {
            headers.push("CLUSTER".into());
        }
    }
    // ADOPTION is wide-only for pods, as upstream.
    if resource.group.is_empty() && resource.plural == "pods" {
        wide.push(headers.len());
    }
    headers.push("ADOPTION".into());
    let mut table = Table::new(headers).with_wide_columns(wide);
    let mut labels: Vec<Vec<(String, String)>> = Vec::new();
    for source in sources {
        for t in source.tables {
            for row in t.get("rows").and_then(Value::as_array).into_iter().flatten() {
                let meta = row.pointer("/object/metadata").cloned().unwrap_or(Value::Null);
                let row_labels: Vec<(String, String)> = meta
                    .get("labels")
                    .and_then(Value::as_object)
                    .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
                    .unwrap_or_default();
                let mut cells: Vec<String> = Vec::new();
                if shape.with_namespace {
                    cells.push(text(meta.get("namespace")));
                }
                let raw: Vec<String> = row
                    .get("cells")
                    .and_then(Value::as_array)
                    .map(|c| c.iter().map(cell).collect())
                    .unwrap_or_default();
                for (i, c) in raw.into_iter().enumerate() {
                    let c =
                        if i == 0 && shape.with_kind { resource_name(&resource.kind, &resource.group, &c) } else { c };
                    cells.push(c);
                    if i == 0 {
                        cells.push(source.cluster.unwrap_or("Karmada").to_string());
                    }
                }
                let adoption = match source.cluster {
                    None => "-",
                    Some(_) if row_labels.iter().any(|(k, v)| k == MANAGED_LABEL && v == "true") => "Y",
                    Some(_) => "N",
                };
                cells.resize(table.headers.len() - 1, String::new());
                cells.push(adoption.to_string());
                table.push_row(cells);
                labels.push(row_labels);
            }
        }
    }
    if table.rows.is_empty() {
        return None;
    }
    for key in &shape.label_columns {
        let header = key.rsplit('/').next().unwrap_or(key).to_uppercase();
        let values: Vec<String> = labels
            .iter()
            .map(|l| l.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default())
            .collect();
        table.push_column(header, values);
    }
    if shape.show_labels {
        table
            .push_column("LABELS", labels.iter().map(|l| labels_cell(l.iter().map(|(k, v)| (k.as_str(), v.as_str())))));
    }
    Some(table)
}

fn text(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or("").to_string()
}

/// A Table cell as kubectl prints it (`%v`; `<none>` for null).
fn cell(v: &Value) -> String {
    match v {
        Value::Null => "<none>".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::output::TableOptions;

    fn deployments() -> Resource {
        crate::multiget::discovery::tests_support::resource("apps", "deployments", "Deployment")
    }

    fn table(rows: Value) -> Value {
        json!({"kind": "Table", "columnDefinitions": [
            {"name": "Name", "priority": 0}, {"name": "Ready", "priority": 0},
            {"name": "Age", "priority": 0}, {"name": "Images", "priority": 1}],
            "rows": rows})
    }

    #[test]
    fn cluster_goes_after_name_and_adoption_last() {
        let plane = [table(json!([{"cells": ["web", "1/1", "5m", "nginx"], "object": {"metadata": {"name": "web"}}}]))];
        let member = [table(json!([
            {"cells": ["a", "0/1", "1m", "nginx"], "object": {"metadata": {"labels": {"karmada.io/managed": "true"}}}},
            {"cells": ["b", "1/1", "2m", "busybox"], "object": {"metadata": {}}}]))];
        let sources = [
            SourceTables { cluster: None, tables: &plane },
            SourceTables { cluster: Some("member1"), tables: &member },
        ];
        let t = merge(&deployments(), &sources, &Shape::default()).unwrap();
        assert_eq!(
            t.render(TableOptions::default()),
            "NAME   CLUSTER   READY   AGE   ADOPTION\n\
             web    Karmada   1/1     5m    -\n\
             a      member1   0/1     1m    Y\n\
             b      member1   1/1     2m    N\n"
        );
        let wide = t.render(TableOptions { wide: true, no_headers: false });
        assert!(wide.starts_with("NAME   CLUSTER   READY   AGE   IMAGES    ADOPTION\n"), "{wide}");
    }

    #[test]
    fn namespace_kind_and_labels_are_kubectls_additions() {
        let member = [table(json!([{"cells": ["a", "0/1", "1m", "x"],
            "object": {"metadata": {"namespace": "ns1", "labels": {"app": "a", "tier/x": "web"}}}}]))];
        let sources = [SourceTables { cluster: Some("m"), tables: &member }];
        let shape =
            Shape { with_namespace: true, with_kind: true, show_labels: true, label_columns: vec!["tier/x".into()] };
        let t = merge(&deployments(), &sources, &shape).unwrap();
        assert_eq!(
            t.render(TableOptions::default()),
            "NAMESPACE   NAME                CLUSTER   READY   AGE   ADOPTION   X     LABELS\n\
             ns1         deployment.apps/a   m         0/1     1m    N          web   app=a,tier/x=web\n"
        );
    }

    #[test]
    fn no_rows_is_nothing_to_print() {
        let empty = [table(json!([]))];
        assert!(merge(&deployments(), &[SourceTables { cluster: None, tables: &empty }], &Shape::default()).is_none());
    }
}

//! Merging the server-side Tables of one resource type from several sources into the table
//! karmadactl prints: a CLUSTER column after NAME, ADOPTION last (`-` for the control plane,
//! `Y`/`N` for members by the `karmada.io/managed=true` label), then kubectl's own additions
//! (NAMESPACE first with `-A`, `-L` label columns, LABELS).

use karmadactl_karmada_api::wellknown::LABEL_KARMADA_MANAGED;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::output::{Table, labels_cell, resource_name};

use super::discovery::Resource;

/// A server-side `meta.k8s.io` Table, read only as far as `get` prints it: rows carry whole
/// PartialObjectMetadata, and building those (managedFields and all) for every row of ten
/// members cost more than the rest of the command.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerTable {
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub metadata: Option<Metadata>,
    /// Absent or empty in watch events after the first.
    #[serde(default)]
    pub column_definitions: Option<Vec<ColumnDefinition>>,
    #[serde(default)]
    pub rows: Option<Vec<Row>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ColumnDefinition {
    #[serde(default)]
    pub name: Option<String>,
    /// Above 0: shown by `-o wide` only.
    #[serde(default)]
    pub priority: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Row {
    #[serde(default)]
    pub cells: Option<Vec<Value>>,
    /// The row's PartialObjectMetadata (or whole object).
    #[serde(default)]
    pub object: Option<RowObject>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RowObject {
    #[serde(default)]
    pub metadata: Option<Metadata>,
}

/// The parts of a table's ListMeta or a row's ObjectMeta that `get` uses.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub resource_version: Option<String>,
    #[serde(default)]
    pub labels: Option<Map<String, Value>>,
}

impl ServerTable {
    pub fn rows(&self) -> &[Row] {
        self.rows.as_deref().unwrap_or_default()
    }

    pub fn resource_version(&self) -> Option<&str> {
        self.metadata.as_ref()?.resource_version.as_deref()
    }
}

impl Row {
    pub fn metadata(&self) -> Option<&Metadata> {
        self.object.as_ref()?.metadata.as_ref()
    }
}

/// One source's Tables for the type.
pub struct SourceTables<'a> {
    /// `None` for the control plane.
    pub cluster: Option<&'a str>,
    pub tables: Vec<&'a ServerTable>,
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
    let columns = sources.iter().flat_map(|s| &s.tables).find_map(|t| t.column_definitions.as_ref())?;
    let mut headers = Vec::new();
    let mut wide = Vec::new();
    if shape.with_namespace {
        headers.push("NAMESPACE".to_string());
    }
    for (i, c) in columns.iter().enumerate() {
        if c.priority.unwrap_or(0) > 0 {
            wide.push(headers.len());
        }
        headers.push(c.name.clone().unwrap_or_default());
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
        for t in &source.tables {
            for row in t.rows() {
                let meta = row.metadata();
                let row_labels: Vec<(String, String)> = meta
                    .and_then(|m| m.labels.as_ref())
                    .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
                    .unwrap_or_default();
                let mut cells: Vec<String> = Vec::new();
                if shape.with_namespace {
                    cells.push(meta.and_then(|m| m.namespace.clone()).unwrap_or_default());
                }
                let raw: Vec<String> = row.cells.iter().flatten().map(cell).collect();
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
                    Some(_) if row_labels.iter().any(|(k, v)| k == LABEL_KARMADA_MANAGED && v == "true") => "Y",
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
        crate::cmd::get::discovery::tests_support::resource("apps", "deployments", "Deployment")
    }

    fn table(rows: Value) -> ServerTable {
        serde_json::from_value(json!({"kind": "Table", "columnDefinitions": [
            {"name": "Name", "priority": 0}, {"name": "Ready", "priority": 0},
            {"name": "Age", "priority": 0}, {"name": "Images", "priority": 1}],
            "rows": rows}))
        .unwrap()
    }

    #[test]
    fn cluster_goes_after_name_and_adoption_last() {
        let plane = [table(json!([{"cells": ["web", "1/1", "5m", "nginx"], "object": {"metadata": {"name": "web"}}}]))];
        let member = [table(json!([
            {"cells": ["a", "0/1", "1m", "nginx"], "object": {"metadata": {"labels": {"karmada.io/managed": "true"}}}},
            {"cells": ["b", "1/1", "2m", "busybox"], "object": {"metadata": {}}}]))];
        let sources = [
            SourceTables { cluster: None, tables: plane.iter().collect() },
            SourceTables { cluster: Some("member1"), tables: member.iter().collect() },
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
        let sources = [SourceTables { cluster: Some("m"), tables: member.iter().collect() }];
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
    fn rows_of_every_include_mode_are_read() {
        let text = r#"{"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": "9"},
            "columnDefinitions": [{"name": "Name", "type": "string", "format": "name", "description": "d", "priority": 0},
                {"name": "Ready", "type": "string", "format": "", "description": "", "priority": 0}],
            "rows": [
                {"cells": ["meta", "1/1"], "object": {"kind": "PartialObjectMetadata", "metadata": {"name": "meta",
                    "namespace": "ns1", "resourceVersion": "7", "labels": {"karmada.io/managed": "true"},
                    "managedFields": [{"manager": "m", "fieldsV1": {"f:metadata": {}}}]}}},
                {"cells": ["whole", "0/1"], "conditions": [{"type": "Completed"}],
                    "object": {"kind": "Pod", "metadata": {"namespace": "ns2"}, "spec": {"containers": []}}},
                {"cells": ["none", null], "object": null}]}"#;
        let t: ServerTable = serde_json::from_str(text).unwrap();
        assert_eq!(t.kind.as_deref(), Some("Table"));
        assert_eq!(t.resource_version(), Some("9"));
        assert_eq!(t.rows()[0].metadata().unwrap().resource_version.as_deref(), Some("7"));
        let sources = [SourceTables { cluster: Some("m1"), tables: vec![&t] }];
        let shape = Shape { with_namespace: true, ..Shape::default() };
        assert_eq!(
            merge(&deployments(), &sources, &shape).unwrap().render(TableOptions::default()),
            "NAMESPACE   NAME    CLUSTER   READY    ADOPTION\n\
             ns1         meta    m1        1/1      Y\n\
             ns2         whole   m1        0/1      N\n\
             \x20           none    m1        <none>   N\n"
        );
    }

    #[test]
    fn no_rows_is_nothing_to_print() {
        let empty = [table(json!([]))];
        let sources = [SourceTables { cluster: None, tables: empty.iter().collect() }];
        assert!(merge(&deployments(), &sources, &Shape::default()).is_none());
    }
}

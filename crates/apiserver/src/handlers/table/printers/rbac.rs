//! Role binding printers: the role each binding grants and, wide, its subjects by kind.

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{age, items, name, text};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const ROLE_BINDING: Printer = Printer {
    group: "rbac.authorization.k8s.io",
    kind: "RoleBinding",
    columns: &[
        Column::name(),
        Column::string("Role", d::ROLE_BINDING_ROLE_REF),
        Column::age(),
        Column::string("Users", "Users in the roleBinding").wide(),
        Column::string("Groups", "Groups in the roleBinding").wide(),
        Column::string("ServiceAccounts", "ServiceAccounts in the roleBinding").wide(),
    ],
    row: binding_row,
};

pub const CLUSTER_ROLE_BINDING: Printer = Printer {
    group: "rbac.authorization.k8s.io",
    kind: "ClusterRoleBinding",
    columns: &[
        Column::name(),
        Column::string("Role", d::CLUSTER_ROLE_BINDING_ROLE_REF),
        Column::age(),
        Column::string("Users", "Users in the clusterRoleBinding").wide(),
        Column::string("Groups", "Groups in the clusterRoleBinding").wide(),
        Column::string("ServiceAccounts", "ServiceAccounts in the clusterRoleBinding").wide(),
    ],
    row: binding_row,
};

fn binding_row(obj: &Value, now: Timestamp) -> Row {
    let role = format!("{}/{}", text(obj, "/roleRef/kind"), text(obj, "/roleRef/name"));
    // `rbac.SubjectsStrings`: users and groups by name, service accounts as namespace/name.
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for s in items(obj, "/subjects") {
        match text(s, "/kind") {
            "User" => users.push(text(s, "/name").to_string()),
            "Group" => groups.push(text(s, "/name").to_string()),
            "ServiceAccount" => sas.push(format!("{}/{}", text(s, "/namespace"), text(s, "/name"))),
            _ => {}
        }
    }
    Row::cells(vec![
        name(obj),
        json!(role),
        age(obj, now),
        json!(users.join(", ")),
        json!(groups.join(", ")),
        json!(sas.join(", ")),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_list_their_subjects() {
        let rb = json!({"metadata": {"name": "read", "creationTimestamp": "2024-05-01T11:59:00Z"},
            "roleRef": {"kind": "ClusterRole", "name": "view"},
            "subjects": [{"kind": "User", "name": "alice"}, {"kind": "User", "name": "bob"},
                {"kind": "Group", "name": "devs"}, {"kind": "ServiceAccount", "namespace": "ci", "name": "runner"}]});
        let cells = (ROLE_BINDING.row)(&rb, "2024-05-01T12:00:00Z".parse().unwrap()).cells;
        assert_eq!(
            cells,
            [
                json!("read"),
                json!("ClusterRole/view"),
                json!("60s"),
                json!("alice, bob"),
                json!("devs"),
                json!("ci/runner"),
            ]
        );
    }
}

//! Table printers: the columns and the row cells of each kind, ported from kube-apiserver's
//! `pkg/printers/internalversion` (and Karmada's for its `Cluster`). Kinds without a printer get
//! the CRD columns of their version or the default table (`Name`, `Created At`).
//!
//! The server always prints every column, wide ones included (kube-apiserver generates tables
//! with `Wide: true`); kubectl hides columns with `priority > 0` unless asked for `-o wide`.
//! Objects are stored as clients sent them, without the defaults kube-apiserver would have
//! applied, so printers read the fields they show with those defaults (a Service without a type
//! is a ClusterIP one, a Deployment without replicas wants 1).

mod cells;
mod certificates;
mod coordination;
mod core;
mod custom;
mod default;
mod descriptions;
mod discovery;
mod extensions;
mod karmada;
mod pod;
mod rbac;
mod workloads;

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::registry::{ResourceDef, Source};

/// One column definition (`metav1.TableColumnDefinition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    /// OpenAPI type of the cells: `string`, `integer`, `number`, `boolean` or `date`.
    pub type_: &'static str,
    /// `name` for the column that holds the object name, otherwise empty.
    pub format: &'static str,
    pub description: &'static str,
    /// 0 for the default view; higher for `-o wide` only.
    pub priority: i32,
}

impl Column {
    const fn new(name: &'static str, type_: &'static str, description: &'static str) -> Self {
        Self { name, type_, format: "", description, priority: 0 }
    }

    /// A `string` column.
    const fn string(name: &'static str, description: &'static str) -> Self {
        Self::new(name, "string", description)
    }

    /// An `integer` column.
    const fn integer(name: &'static str, description: &'static str) -> Self {
        Self::new(name, "integer", description)
    }

    /// The `Name` column every printer starts with.
    const fn name() -> Self {
        Self { format: "name", ..Self::string("Name", descriptions::OBJECT_META_NAME) }
    }

    /// The `Age` column: a human duration since `creationTimestamp`.
    const fn age() -> Self {
        Self::string("Age", descriptions::OBJECT_META_CREATION_TIMESTAMP)
    }

    /// The same column, shown only by `-o wide`.
    const fn wide(self) -> Self {
        Self { priority: 1, ..self }
    }

    fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "type": self.type_,
            "format": self.format,
            "description": self.description,
            "priority": self.priority,
        })
    }
}

/// The printed form of one object: its cells, and row conditions (pods that ran to completion).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub cells: Vec<Value>,
    pub conditions: Option<Value>,
}

impl Row {
    fn cells(cells: Vec<Value>) -> Self {
        Self { cells, conditions: None }
    }
}

/// How one kind is printed. `row` gets the object and the time the response is made at (AGE
/// cells are durations up to then).
pub struct Printer {
    /// API group of the kind (empty for the core group).
    pub group: &'static str,
    pub kind: &'static str,
    /// Every column, wide ones included; `row` returns one cell per column.
    pub columns: &'static [Column],
    pub row: fn(&Value, Timestamp) -> Row,
}

/// The printers of built-in kinds, keyed by (group, kind). A kind that gains its own columns
/// adds its printer here; a resource whose kind has none gets the default table.
const BUILTIN: &[&Printer] = &[
    &core::NAMESPACE,
    &core::CONFIG_MAP,
    &core::SECRET,
    &core::SERVICE_ACCOUNT,
    &core::SERVICE,
    &core::ENDPOINTS,
    &discovery::ENDPOINT_SLICE,
    &core::EVENT,
    &core::NODE,
    &core::RESOURCE_QUOTA,
    &pod::POD,
    &workloads::DEPLOYMENT,
    &workloads::REPLICA_SET,
    &workloads::STATEFUL_SET,
    &workloads::DAEMON_SET,
    &workloads::JOB,
    &workloads::CRON_JOB,
    &rbac::ROLE_BINDING,
    &rbac::CLUSTER_ROLE_BINDING,
    &certificates::CERTIFICATE_SIGNING_REQUEST,
    &coordination::LEASE,
    &extensions::MUTATING_WEBHOOK_CONFIGURATION,
    &extensions::VALIDATING_WEBHOOK_CONFIGURATION,
    &extensions::API_SERVICE,
    &karmada::CLUSTER,
];

/// The printer registered for a kind, if any.
pub fn lookup(group: &str, kind: &str) -> Option<&'static Printer> {
    BUILTIN.iter().copied().find(|p| p.group == group && p.kind == kind)
}

/// What turns a resource's objects into rows: kube-apiserver's `TableConvertor` of the resource.
pub enum Convertor {
    /// A built-in kind with its own printer.
    Printer(&'static Printer),
    /// A custom resource: the `additionalPrinterColumns` of the served version.
    Custom(custom::CustomColumns),
    /// Everything else: `Name` and `Created At`.
    Default,
}

impl Convertor {
    /// The convertor kube-apiserver would use for this resource. Registered printers apply to
    /// built-in resources only: a CRD of the same group and kind prints its own columns.
    pub fn for_resource(def: &ResourceDef) -> Self {
        match &def.source {
            Source::Crd { .. } => Self::Custom(custom::CustomColumns::new(&def.printer_columns)),
            Source::Builtin => lookup(&def.group, &def.kind).map_or(Self::Default, Self::Printer),
        }
    }

    /// The `columnDefinitions` of the table.
    pub fn columns(&self) -> Value {
        match self {
            Self::Printer(p) => Value::Array(p.columns.iter().map(Column::to_json).collect()),
            Self::Custom(c) => c.columns(),
            Self::Default => Value::Array(default::COLUMNS.iter().map(Column::to_json).collect()),
        }
    }

    /// The row of one object.
    pub fn row(&self, obj: &Value, now: Timestamp) -> Row {
        match self {
            Self::Printer(p) => (p.row)(obj, now),
            Self::Custom(c) => c.row(obj, now),
            Self::Default => default::row(obj),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn every_printer_has_one_cell_per_column() {
        let now: Timestamp = "2024-05-01T12:00:00Z".parse().unwrap();
        let empty = json!({"metadata": {"name": "x", "creationTimestamp": "2024-05-01T11:59:00Z"}});
        for p in BUILTIN {
            let row = (p.row)(&empty, now);
            assert_eq!(row.cells.len(), p.columns.len(), "{}/{}", p.group, p.kind);
            let names = p.columns.iter().filter(|c| c.format == "name").count();
            assert_eq!(names, 1, "{}: one column holds the name", p.kind);
            assert_eq!(lookup(p.group, p.kind).map(|q| q.kind), Some(p.kind));
        }
    }

    #[test]
    fn every_builtin_printer_names_a_served_kind_or_a_karmada_one() {
        let reg = Registry::builtin();
        for p in BUILTIN.iter().filter(|p| p.group != "cluster.karmada.io") {
            let served = reg.resources().iter().any(|d| d.group == p.group && d.kind == p.kind);
            assert!(served, "{}/{} is not a built-in resource", p.group, p.kind);
        }
    }

    #[test]
    fn resources_get_their_convertor() {
        let reg = Registry::builtin();
        let pods = reg.lookup("", "v1", "pods").unwrap();
        assert!(matches!(Convertor::for_resource(&pods), Convertor::Printer(p) if p.kind == "Pod"));
        let roles = reg.lookup("rbac.authorization.k8s.io", "v1", "roles").unwrap();
        assert!(matches!(Convertor::for_resource(&roles), Convertor::Default));
        let columns = Convertor::for_resource(&roles).columns();
        assert_eq!(columns[1]["name"], "Created At");
        assert_eq!(columns[1]["type"], "date");
    }
}

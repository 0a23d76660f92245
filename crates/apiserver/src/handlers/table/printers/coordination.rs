//! The lease printer: who holds it.

use serde_json::json;

use super::cells::{age, name, text};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const LEASE: Printer = Printer {
    group: "coordination.k8s.io",
    kind: "Lease",
    columns: &[Column::name(), Column::string("Holder", d::LEASE_SPEC_HOLDER_IDENTITY), Column::age()],
    row: |obj, now| Row::cells(vec![name(obj), json!(text(obj, "/spec/holderIdentity")), age(obj, now)]),
};

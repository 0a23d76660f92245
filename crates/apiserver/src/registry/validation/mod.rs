//! Object validation: built-in kinds, custom resources by schema, and strict field checks.

mod access;
mod admit;
mod core;
mod crd_def;
pub mod cron_federated_hpa;
mod csr;
mod discovery;
pub mod federated_hpa;
pub mod field;
pub mod interpreter_webhook;
mod kinds;
pub mod names;
pub mod override_policy;
mod pods;
pub mod quota;
mod rbac;
mod schema;
mod structural;
mod unknown;
mod workloads;

pub use admit::{Prepared, prepare};
pub use crd_def::{validate_crd, validate_crd_before_compiling};
pub use csr::{CsrWrite, csr_create, csr_update};
pub use field::{FieldError, FieldErrorKind, go_quote, go_string_map, go_value, join_messages, json_type_name};
pub use kinds::validate_builtin;
pub use schema::{CrdValidator, SchemaError};
pub use unknown::{duplicate_fields, prune_unknown, unknown_fields};
pub use workloads::selector_matches;

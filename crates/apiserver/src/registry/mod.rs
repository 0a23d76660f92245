//! Which resources are served, discovery and OpenAPI documents built from them, and object
//! validation (built-in kinds by type, custom resources by their CRD schema).

mod builtin;
mod catalog;
mod crd;
pub mod defaults;
pub mod discovery;
mod karmada;
pub mod openapi;
mod resources;
pub mod validation;
mod version;

pub use catalog::{ApiGroup, Registry, RegistryError};
pub use resources::{
    NameRule, PrinterColumn, ResourceDef, Source, Subresource, VERBS_ALL, VERBS_CREATE_ONLY, VERBS_CUSTOM,
    VERBS_NO_COLLECTION_DELETE, builtin_tracks_generation, storage_key,
};
pub use validation::{
    CrdValidator, CsrWrite, FieldError, FieldErrorKind, Prepared, SchemaError, csr_create, csr_update,
    duplicate_fields, prepare, prune_unknown, unknown_fields, validate_builtin, validate_crd,
};
pub use version::{compare_groups, compare_versions};

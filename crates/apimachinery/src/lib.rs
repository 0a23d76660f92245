//! Kubernetes "apimachinery": label and field selectors, request parsing, Status errors,
//! metadata validation, JSON/merge/strategic patches, managed fields, quantities, JSONPath,
//! Go durations, cron schedules and time zones, object UIDs, kubectl's YAML and the WebSocket and SPDY/3.1 framing of exec and
//! attach streams, each matching k8s.io/apimachinery's behaviour (messages included). It owns the rules every Kubernetes object obeys whatever its
//! kind; it depends on no other crate of this workspace (Karmada's own types are not its
//! business), and nothing it depends on may depend on it. The API server, the engine and the
//! CLI build on it.

#![forbid(unsafe_code)]

pub mod cron;
pub mod duration;
mod error_text;
mod field;
mod field_selector;
#[doc(hidden)]
pub mod fuzzing;
pub mod go_yaml;
pub mod human_duration;
mod json_bounds;
mod json_str;
mod jsonpath;
pub mod managed_fields;
mod meta_validation;
mod names;
mod patch;
pub mod quantity;
mod request_info;
pub mod resource_list;
mod selector;
mod selector_parser;
pub mod spdy;
mod status;
pub mod strategic;
mod uid;
pub mod upgrade;
pub mod websocket;
mod yaml_body;

pub use error_text::with_causes;
pub use field::{BadValue, Cause, CauseType, FieldPath, aggregate, go_quote};
pub use field_selector::{FieldOperator, FieldRequirement, FieldSelector, escape_field_value, unescape_field_value};
pub use json_bounds::{MAX_DEPTH, check_result};
pub use json_str::JsonStr;
pub use jsonpath::{JsonPath, JsonPathError};
pub use meta_validation::{
    FIELD_IMMUTABLE_MSG, IS_NEGATIVE_MSG, NameRule, TOTAL_ANNOTATION_SIZE_LIMIT, generate_name, validate_annotations,
    validate_finalizers, validate_label_selector, validate_labels, validate_namespace_field, validate_object_meta,
    validate_object_meta_update, validate_owner_references,
};
pub use names::{
    DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, is_dns1035_label, is_dns1123_label,
    is_dns1123_label_without_dots_hint, is_dns1123_subdomain, is_qualified_name, is_valid_label_value,
    is_valid_path_segment_name, is_valid_path_segment_prefix, max_len_error, regex_error,
};
pub use patch::{
    DEFAULT_MAX_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS, apply_json_patch, apply_json_patch_within, apply_merge_patch,
    create_merge_patch,
};
pub use request_info::RequestInfo;
pub use selector::{LabelSelector, Operator, Requirement, SelectorError};
pub use status::{ApiError, Details, OPTIMISTIC_LOCK_ERROR_MSG, StatusReason, qualified_kind, qualified_resource};
pub use strategic::apply_strategic_merge_patch;
pub use uid::new_uid;
pub use yaml_body::from_yaml;

//! Rendering command output the way kubectl does: tables, JSON, YAML, names, ages.
//!
//! Everything here returns text; [`crate::printer::Printer`] writes it. The formats are checked
//! byte for byte against the real kubectl in `tests/it/output.rs`.

mod bordered;
mod format;
mod json;
mod list;
mod name;
mod table;
mod tabwriter;
mod yaml;

use serde::Serialize;

pub use bordered::bordered_table;
pub use format::{OutputFormat, OutputFormatError};
pub use json::{to_compact_go_json, to_json, to_json_with_indent};
pub use karmadactl_apimachinery::human_duration::{
    UNKNOWN_AGE, age, age_or_unknown, human_duration, short_human_duration,
};
pub use list::List;
pub use name::{group_of, object_name, resource_name};
pub use table::{Table, TableOptions, labels_cell};
pub use tabwriter::TabWriter;
pub use yaml::{go_yaml_key_order, to_yaml};

/// Why output could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The value could not be encoded as JSON (e.g. a map with non-string keys).
    #[error("could not encode the output as JSON")]
    Json(#[source] serde_json::Error),
    /// The value could not be encoded as YAML.
    #[error("could not encode the output as YAML")]
    Yaml(#[source] serde_saphyr::SerializeError),
    /// The encoder produced bytes that are not UTF-8 (not expected to happen).
    #[error("the encoded output is not valid UTF-8")]
    Utf8(#[source] std::str::Utf8Error),
    /// `-o name` for an object without a kind; kubectl's message.
    #[error("missing kind for resource with name {name}")]
    MissingKind { name: String },
    /// [`to_format`] was asked for a format that is not a data format.
    #[error("output format \"{0}\" does not print data; choose json or yaml")]
    NotDataFormat(OutputFormat),
}

/// JSON or YAML of a value (an object, or a [`List`] of objects) for `-o json|yaml`.
pub fn to_format<T: Serialize + ?Sized>(format: OutputFormat, value: &T) -> Result<String, OutputError> {
    match format {
        OutputFormat::Json => to_json(value),
        OutputFormat::Yaml => to_yaml(value),
        other => Err(OutputError::NotDataFormat(other)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn to_format_picks_the_encoder() {
        let v = json!({"b": 1, "a": [true]});
        assert_eq!(to_format(OutputFormat::Json, &v).expect("json"), to_json(&v).expect("json"));
        assert_eq!(to_format(OutputFormat::Yaml, &v).expect("yaml"), "a:\n- true\nb: 1\n");
        let err = to_format(OutputFormat::Name, &v).expect_err("name is not a data format");
        assert_eq!(err.to_string(), "output format \"name\" does not print data; choose json or yaml");
    }

    #[test]
    fn encoding_errors_keep_their_cause() {
        let bad = std::collections::BTreeMap::from([((1, 2), "tuple keys are not JSON")]);
        let err = to_json(&bad).expect_err("tuple keys cannot be JSON object keys");
        assert_eq!(err.to_string(), "could not encode the output as JSON");
        assert!(std::error::Error::source(&err).is_some());
    }
}

//! `-o yaml`: the YAML kubectl prints, written by `karmadactl_apimachinery::go_yaml` (the
//! engine writes documents back in the same form), with its failures as output errors.

use serde::Serialize;

use karmadactl_apimachinery::go_yaml::{self, YamlError};

use super::OutputError;

pub use go_yaml::go_yaml_key_order;

/// kubectl's YAML for any serializable value, ending in a newline.
pub fn to_yaml<T: Serialize + ?Sized>(value: &T) -> Result<String, OutputError> {
    go_yaml::to_yaml(value).map_err(|e| match e {
        YamlError::Json(e) => OutputError::Json(e),
        YamlError::Yaml(e) => OutputError::Yaml(e),
    })
}

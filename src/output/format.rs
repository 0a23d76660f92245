//! The `-o/--output` value: which printer a command uses.

use std::fmt;
use std::str::FromStr;

/// A printer a command can select with `-o/--output`. kubectl's template-based printers
/// (go-template, jsonpath, custom-columns) are not implemented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    /// The human-readable table, printed when `-o` is absent or empty.
    #[default]
    Table,
    /// The table with the extra columns kubectl shows for `-o wide`.
    Wide,
    /// `-o json`: the object, or a `v1 List` of objects, as indented JSON.
    Json,
    /// `-o yaml`: the object, or a `v1 List` of objects, as YAML.
    Yaml,
    /// `-o name`: one `kind.group/name` line per object.
    Name,
}

impl OutputFormat {
    /// Every format an `-o` value can name, i.e. all but the default table.
    pub const SELECTABLE: &'static [OutputFormat] =
        &[OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml, OutputFormat::Name];

    /// `json` and `yaml` only, the set `version` and `promote` accept.
    pub const JSON_OR_YAML: &'static [OutputFormat] = &[OutputFormat::Json, OutputFormat::Yaml];

    /// The `-o` spelling: `""` for the table, else `wide`, `json`, `yaml`, `name`.
    pub const fn as_str(self) -> &'static str {
        match self {
            OutputFormat::Table => "",
            OutputFormat::Wide => "wide",
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
            OutputFormat::Name => "name",
        }
    }

    /// Whether this is one of the human-readable tables (default or wide).
    pub const fn is_table(self) -> bool {
        matches!(self, OutputFormat::Table | OutputFormat::Wide)
    }

    /// Parses an `-o` value allowing only `allowed` (plus the empty value, which always means
    /// the default table). The error lists the allowed names as kubectl does: sorted, comma-joined.
    pub fn parse_allowed(value: &str, allowed: &[OutputFormat]) -> Result<Self, OutputFormatError> {
        if value.is_empty() {
            return Ok(OutputFormat::Table);
        }
        allowed.iter().copied().find(|f| f.as_str() == value).ok_or_else(|| {
            let mut names: Vec<&'static str> = allowed.iter().map(|f| f.as_str()).filter(|n| !n.is_empty()).collect();
            names.sort_unstable();
            names.dedup();
            OutputFormatError::Unsupported { format: value.to_owned(), allowed: names }
        })
    }

    /// Parses `json`, `yaml` or the empty value, with `promote`'s upstream message for anything
    /// else (`invalid output format: supported formats are json and yaml`).
    pub fn parse_json_or_yaml(value: &str) -> Result<Self, OutputFormatError> {
        Self::parse_allowed(value, Self::JSON_OR_YAML).map_err(|_| OutputFormatError::NotJsonOrYaml)
    }
}

impl FromStr for OutputFormat {
    type Err = OutputFormatError;

    /// Accepts every selectable format; see [`OutputFormat::parse_allowed`] to restrict them.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::parse_allowed(value, Self::SELECTABLE)
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An `-o` value the command cannot print.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputFormatError {
    /// kubectl's `NoCompatiblePrinterError`, word for word.
    #[error(
        "unable to match a printer suitable for the output format {format:?}, allowed formats are: {}",
        allowed.join(",")
    )]
    Unsupported { format: String, allowed: Vec<&'static str> },
    /// `promote`'s upstream message.
    #[error("invalid output format: supported formats are json and yaml")]
    NotJsonOrYaml,
}

impl crate::error::Hint for OutputFormatError {
    fn hint(&self) -> Option<String> {
        Some("choose one of the formats listed, e.g. -o json or -o yaml.".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_selectable_value_and_the_empty_default() {
        assert_eq!("".parse(), Ok(OutputFormat::Table));
        assert_eq!("wide".parse(), Ok(OutputFormat::Wide));
        assert_eq!("json".parse(), Ok(OutputFormat::Json));
        assert_eq!("yaml".parse(), Ok(OutputFormat::Yaml));
        assert_eq!("name".parse(), Ok(OutputFormat::Name));
        for f in OutputFormat::SELECTABLE {
            assert_eq!(f.as_str().parse::<OutputFormat>(), Ok(*f), "round trip of {f}");
        }
    }

    #[test]
    fn unknown_value_gives_kubectls_sentence() {
        let err = "xml".parse::<OutputFormat>().expect_err("xml is not a printer");
        assert_eq!(
            err.to_string(),
            r#"unable to match a printer suitable for the output format "xml", allowed formats are: json,name,wide,yaml"#
        );
        // Matching is exact, as in kubectl: no case folding, no trimming.
        assert!("JSON".parse::<OutputFormat>().is_err());
        assert!(" json".parse::<OutputFormat>().is_err());
    }

    #[test]
    fn restricted_set_rejects_the_rest_and_lists_only_what_is_allowed() {
        let allowed = [OutputFormat::Yaml, OutputFormat::Json];
        assert_eq!(OutputFormat::parse_allowed("yaml", &allowed), Ok(OutputFormat::Yaml));
        assert_eq!(OutputFormat::parse_allowed("", &allowed), Ok(OutputFormat::Table));
        let err = OutputFormat::parse_allowed("wide", &allowed).expect_err("wide not allowed");
        assert_eq!(
            err.to_string(),
            r#"unable to match a printer suitable for the output format "wide", allowed formats are: json,yaml"#
        );
    }

    #[test]
    fn json_or_yaml_uses_promotes_message() {
        assert_eq!(OutputFormat::parse_json_or_yaml("json"), Ok(OutputFormat::Json));
        assert_eq!(OutputFormat::parse_json_or_yaml(""), Ok(OutputFormat::Table));
        let err = OutputFormat::parse_json_or_yaml("name").expect_err("name not allowed");
        assert_eq!(err.to_string(), "invalid output format: supported formats are json and yaml");
    }

    #[test]
    fn table_formats_are_the_human_ones() {
        assert!(OutputFormat::Table.is_table());
        assert!(OutputFormat::Wide.is_table());
        assert!(!OutputFormat::Json.is_table());
        assert!(!OutputFormat::Name.is_table());
    }
}

//! The kind an object is, as interpreters are keyed: apiVersion and kind.

use serde_json::Value;

/// An apiVersion (`group/version`, or `version` for the core group) and a kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    /// `group/version`, or `v1` for the core group.
    pub api_version: String,
    /// The kind.
    pub kind: String,
}

impl Target {
    /// A target from its parts.
    pub fn new(api_version: impl Into<String>, kind: impl Into<String>) -> Self {
        Self { api_version: api_version.into(), kind: kind.into() }
    }

    /// The target of a manifest (empty parts when the fields are missing).
    pub fn of(object: &Value) -> Self {
        Self::new(object["apiVersion"].as_str().unwrap_or_default(), object["kind"].as_str().unwrap_or_default())
    }

    /// The API group (`""` for the core group).
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map_or("", |(g, _)| g)
    }

    /// The API version without its group.
    pub fn version(&self) -> &str {
        self.api_version.rsplit_once('/').map_or(self.api_version.as_str(), |(_, v)| v)
    }
}

impl std::fmt::Display for Target {
    /// As Go prints a GroupVersionKind (`apps/v1, Kind=Deployment`, `/v1, Kind=Pod`), the form
    /// upstream's messages use.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group(), self.version(), self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::Target;

    #[test]
    fn targets_print_as_go_prints_a_group_version_kind() {
        assert_eq!(Target::new("apps/v1", "Deployment").to_string(), "apps/v1, Kind=Deployment");
        assert_eq!(Target::new("v1", "Pod").to_string(), "/v1, Kind=Pod");
        assert_eq!(Target::new("v1", "Pod").group(), "");
    }
}

//! Label selectors with k8s.io/apimachinery/pkg/labels semantics: requirements, matching, display.

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector as K8sLabelSelector;

use super::field::{BadValue, Cause, FieldPath, aggregate, go_quote};
use super::names::{is_qualified_name, is_valid_label_value};

/// Why a selector could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// A label selector (string or structured) that breaks apimachinery's grammar or rules;
    /// the message is apimachinery's.
    #[error("{0}")]
    Label(String),
    /// A field selector string that cannot be parsed; the message is apimachinery's.
    #[error("{0}")]
    Field(String),
}

/// A label requirement operator (selection.Operator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `key`: the label is present.
    Exists,
    /// `!key`: the label is absent.
    DoesNotExist,
    /// `key=value`.
    Equals,
    /// `key==value` (same meaning as `=`, kept for display).
    DoubleEquals,
    /// `key!=value`: absent or different.
    NotEquals,
    /// `key in (a,b)`: present with one of the values.
    In,
    /// `key notin (a,b)`: absent or none of the values.
    NotIn,
    /// `key>n`: present and an integer greater than n.
    GreaterThan,
    /// `key<n`: present and an integer less than n.
    LessThan,
}

impl Operator {
    /// The selection.Operator string (`exists`, `!`, `=`, `==`, `!=`, `in`, `notin`, `gt`, `lt`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Exists => "exists",
            Self::DoesNotExist => "!",
            Self::Equals => "=",
            Self::DoubleEquals => "==",
            Self::NotEquals => "!=",
            Self::In => "in",
            Self::NotIn => "notin",
            Self::GreaterThan => "gt",
            Self::LessThan => "lt",
        }
    }
}

/// One validated requirement: a key, an operator and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

impl Requirement {
    /// labels.NewRequirement: validates the key, the value count for the operator, integer
    /// values for `gt`/`lt`, and each value. Errors read like apimachinery's aggregated
    /// field errors (`key: Invalid value: ...`, `values[0][k]: Invalid value: ...`).
    pub fn new(key: &str, operator: Operator, values: Vec<String>) -> Result<Self, SelectorError> {
        let causes = requirement_causes(key, operator, &values);
        if causes.is_empty() {
            Ok(Self { key: key.to_string(), operator, values })
        } else {
            Err(SelectorError::Label(aggregate(&causes)))
        }
    }

    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }
    /// The values, in the order given (parsed selectors hold them sorted and unique).
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// Requirement.Matches: `in`/`=`/`==`/`gt`/`lt` need the key; `notin`/`!=` match when absent.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let got = labels.get(&self.key);
        let has = |v: &String| self.values.contains(v);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => got.is_some_and(has),
            Operator::NotIn | Operator::NotEquals => !got.is_some_and(has),
            Operator::Exists => got.is_some(),
            Operator::DoesNotExist => got.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(got), [want]) = (got, self.values.as_slice()) else { return false };
                let (Ok(got), Ok(want)) = (got.parse::<i64>(), want.parse::<i64>()) else { return false };
                if self.operator == Operator::GreaterThan { got > want } else { got < want }
            }
        }
    }
}

fn requirement_causes(key: &str, op: Operator, values: &[String]) -> Vec<Cause> {
    let mut causes = Vec::new();
    let errs = is_qualified_name(key);
    if !errs.is_empty() {
        causes.push(Cause::invalid("key", key, &errs.join("; ")));
    }
    let path = FieldPath::new("values");
    // Go renders the []string bad value as JSON; an empty slice from a structured selector is nil there.
    let all = || if values.is_empty() { BadValue::Json("null".into()) } else { BadValue::from(values) };
    match op {
        Operator::In | Operator::NotIn if values.is_empty() => {
            causes.push(Cause::invalid(&path, all(), "for 'in', 'notin' operators, values set can't be empty"));
        }
        Operator::Equals | Operator::DoubleEquals | Operator::NotEquals if values.len() != 1 => {
            causes.push(Cause::invalid(&path, all(), "exact-match compatibility requires one single value"));
        }
        Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
            causes.push(Cause::invalid(&path, all(), "values set must be empty for exists and does not exist"));
        }
        Operator::GreaterThan | Operator::LessThan => {
            if values.len() != 1 {
                causes.push(Cause::invalid(&path, all(), "for 'Gt', 'Lt' operators, exactly one value is required"));
            }
            for (i, v) in values.iter().enumerate() {
                if v.parse::<i64>().is_err() {
                    let detail = "for 'Gt', 'Lt' operators, the value must be an integer";
                    causes.push(Cause::invalid(path.index(i), v, detail));
                }
            }
        }
        _ => {}
    }
    for (i, v) in values.iter().enumerate() {
        let errs = is_valid_label_value(v);
        if !errs.is_empty() {
            causes.push(Cause::invalid(path.index(i).key(key), v, &errs.join("; ")));
        }
    }
    causes
}

impl fmt::Display for Requirement {
    /// Requirement.String(): `!k`, `k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`,
    /// `k>n`, `k<n`; multiple values are printed sorted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.operator {
            Operator::Exists => return f.write_str(&self.key),
            Operator::DoesNotExist => return write!(f, "!{}", self.key),
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::In => " in ",
            Operator::NotIn => " notin ",
            Operator::GreaterThan => ">",
            Operator::LessThan => "<",
        };
        let mut values: Vec<&str> = self.values.iter().map(String::as_str).collect();
        values.sort_unstable();
        let joined = values.join(",");
        match self.operator {
            Operator::In | Operator::NotIn => write!(f, "{}{op}({joined})", self.key),
            _ => write!(f, "{}{op}{joined}", self.key),
        }
    }
}

/// A label selector: the AND of its requirements, kept sorted by key. Empty selects everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// The selector that matches every object.
    pub fn everything() -> Self {
        Self::default()
    }

    /// labels.Parse: the `labelSelector` query grammar. The empty string selects everything.
    pub fn parse(s: &str) -> Result<Self, SelectorError> {
        let requirements = super::selector_parser::parse(s).map_err(SelectorError::Label)?;
        Ok(Self::from_requirements(requirements))
    }

    /// Builds a selector from requirements, sorting them by key as Selector.Add does.
    pub(crate) fn from_requirements(mut requirements: Vec<Requirement>) -> Self {
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Self { requirements }
    }

    /// labels.SelectorFromSet: `k=v` for every entry, unvalidated (as upstream).
    pub fn from_set(set: &BTreeMap<String, String>) -> Self {
        let requirements = set
            .iter()
            .map(|(k, v)| Requirement { key: k.clone(), operator: Operator::Equals, values: vec![v.clone()] })
            .collect();
        Self::from_requirements(requirements)
    }

    /// metav1.LabelSelectorAsSelector for a present selector: matchLabels become `=`,
    /// matchExpressions In/NotIn/Exists/DoesNotExist; any other operator is an error. An empty
    /// selector selects everything (a missing one, upstream's "nothing", is the caller's case).
    pub fn from_label_selector(ls: &K8sLabelSelector) -> Result<Self, SelectorError> {
        let mut requirements = Vec::new();
        for (k, v) in ls.match_labels.iter().flatten() {
            requirements.push(Requirement::new(k, Operator::Equals, vec![v.clone()])?);
        }
        for expr in ls.match_expressions.iter().flatten() {
            let op = match expr.operator.as_str() {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                other => {
                    return Err(SelectorError::Label(format!(
                        "{} is not a valid label selector operator",
                        go_quote(other)
                    )));
                }
            };
            requirements.push(Requirement::new(&expr.key, op, expr.values.clone().unwrap_or_default())?);
        }
        Ok(Self::from_requirements(requirements))
    }

    /// Whether every requirement matches `labels`.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Whether the selector has no requirements (selects everything).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// RequiresExactMatch: the single value the first requirement on `key` pins (`=`, `==`, or
    /// `in` with one value), if any.
    pub fn requires_exact_match(&self, key: &str) -> Option<&str> {
        let r = self.requirements.iter().find(|r| r.key == key)?;
        match (r.operator, r.values.as_slice()) {
            (Operator::Equals | Operator::DoubleEquals | Operator::In, [v]) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for LabelSelector {
    /// The canonical form: requirements joined by `,` with no spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "selector_tests.rs"]
mod tests;

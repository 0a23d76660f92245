//! The little of label selectors ClusterRole aggregation needs; deliberately private and small.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// A selector that `metav1.LabelSelectorAsSelector` would refuse (unknown operator, `In`
/// without values, `Exists` with values).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct InvalidSelector;

/// Whether `labels` satisfy `selector`. As upstream, an empty selector matches everything.
pub(super) fn matches(selector: &LabelSelector, labels: &BTreeMap<String, String>) -> Result<bool, InvalidSelector> {
    let mut ok = selector.match_labels.iter().flatten().all(|(k, v)| labels.get(k) == Some(v));
    for req in selector.match_expressions.iter().flatten() {
        let values = req.values.as_deref().unwrap_or_default();
        let value = labels.get(&req.key);
        // Every requirement is validated even after a mismatch, so a broken selector is always
        // an error rather than sometimes "no match".
        let this = match req.operator.as_str() {
            "In" | "NotIn" if values.is_empty() => return Err(InvalidSelector),
            "Exists" | "DoesNotExist" if !values.is_empty() => return Err(InvalidSelector),
            "In" => value.is_some_and(|v| values.contains(v)),
            "NotIn" => value.is_none_or(|v| !values.contains(v)),
            "Exists" => value.is_some(),
            "DoesNotExist" => value.is_none(),
            _ => return Err(InvalidSelector),
        };
        ok &= this;
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn expr(key: &str, op: &str, values: &[&str]) -> LabelSelector {
        LabelSelector {
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: key.into(),
                operator: op.into(),
                values: (!values.is_empty()).then(|| values.iter().map(|s| s.to_string()).collect()),
            }]),
            match_labels: None,
        }
    }

    #[test]
    fn operators() {
        let l = labels(&[("a", "1")]);
        assert_eq!(matches(&LabelSelector::default(), &l), Ok(true));
        let ml = LabelSelector { match_labels: Some(labels(&[("a", "1")])), match_expressions: None };
        assert_eq!(matches(&ml, &l), Ok(true));
        assert_eq!(matches(&ml, &labels(&[("a", "2")])), Ok(false));
        assert_eq!(matches(&expr("a", "In", &["1", "2"]), &l), Ok(true));
        assert_eq!(matches(&expr("a", "NotIn", &["1"]), &l), Ok(false));
        assert_eq!(matches(&expr("b", "NotIn", &["1"]), &l), Ok(true));
        assert_eq!(matches(&expr("a", "Exists", &[]), &l), Ok(true));
        assert_eq!(matches(&expr("a", "DoesNotExist", &[]), &l), Ok(false));
        assert_eq!(matches(&expr("a", "In", &[]), &l), Err(InvalidSelector));
        assert_eq!(matches(&expr("a", "Exists", &["1"]), &l), Err(InvalidSelector));
        assert_eq!(matches(&expr("a", "Gt", &["1"]), &l), Err(InvalidSelector));
    }
}

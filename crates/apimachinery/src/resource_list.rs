//! Lists of named quantities (`corev1.ResourceList`, as in a quota's `hard` and `used`): sums,
//! differences and products by a replica count, the comparison kube's quota admission makes,
//! and its way of printing a list in a refusal (`cpu=2,memory=1Gi`).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::quantity::{Quantity, QuantityError};

/// Resource name → quantity, in name order (kube prints and compares them sorted).
pub type ResourceList = BTreeMap<String, Quantity>;

/// Parses a JSON object of quantities (`{"cpu": "2", "memory": "1Gi"}`); a value that is not a
/// quantity is named in the error. Numbers are accepted as kube's decoder accepts them.
pub fn parse(value: &Value) -> Result<ResourceList, (String, QuantityError)> {
    let Some(map) = value.as_object() else { return Ok(ResourceList::new()) };
    let mut list = ResourceList::new();
    for (name, q) in map {
        let text = match q {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => return Err((name.clone(), QuantityError(other.to_string()))),
        };
        list.insert(name.clone(), Quantity::parse(&text).map_err(|e| (name.clone(), e))?);
    }
    Ok(list)
}

/// The list as a JSON object of canonical quantity strings.
pub fn to_json(list: &ResourceList) -> Value {
    Value::Object(list.iter().map(|(k, q)| (k.clone(), Value::String(q.to_string()))).collect::<Map<_, _>>())
}

/// `a + b`, name by name; a name in only one list keeps its quantity.
pub fn add(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut sum = a.clone();
    for (k, q) in b {
        let total = sum.get(k).copied().unwrap_or_default().plus(*q);
        sum.insert(k.clone(), total);
    }
    sum
}

/// `a - b`, name by name (a name only in `b` becomes negative).
pub fn subtract(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut diff = a.clone();
    for (k, q) in b {
        let rest = diff.get(k).copied().unwrap_or_default().minus(*q);
        diff.insert(k.clone(), rest);
    }
    diff
}

/// Every quantity times `n` (per-replica requests × replicas).
pub fn times(list: &ResourceList, n: i64) -> ResourceList {
    list.iter().map(|(k, q)| (k.clone(), q.times(n))).collect()
}

/// Only the entries whose names are in `names`.
pub fn mask<'a>(list: &ResourceList, names: impl IntoIterator<Item = &'a String>) -> ResourceList {
    names.into_iter().filter_map(|k| list.get(k).map(|q| (k.clone(), *q))).collect()
}

/// kube's quota rendering: `name=quantity` pairs in name order, joined by commas.
pub fn pretty(list: &ResourceList) -> String {
    list.iter().map(|(k, q)| format!("{k}={q}")).collect::<Vec<_>>().join(",")
}

/// The names kube's quota admission refuses a request for: those `hard` limits that the
/// request raises (`delta` > 0) and that `used + delta` goes over. A request that lowers or
/// keeps a usage already over its limit passes, as in kube.
pub fn exceeded(hard: &ResourceList, used: &ResourceList, delta: &ResourceList) -> Vec<String> {
    hard.iter()
        .filter(|(k, limit)| {
            let Some(d) = delta.get(*k) else { return false };
            if d.cmp_value(&Quantity::zero()) != Ordering::Greater {
                return false;
            }
            let after = used.get(*k).copied().unwrap_or_default().plus(*d);
            after.cmp_value(limit) == Ordering::Greater
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// What `replicas` copies of a pod requesting `requests` count against a quota, under kube's
/// names: each request `X` both as `X` and as `requests.X` (a plain `cpu` limit in a quota
/// means the requests), and the replicas as `pods`.
pub fn quota_usage(requests: &ResourceList, replicas: i64) -> ResourceList {
    let mut usage = ResourceList::new();
    for (name, q) in times(requests, replicas) {
        if !name.starts_with("requests.") && !name.starts_with("limits.") {
            usage.insert(format!("requests.{name}"), q);
        }
        usage.insert(name, q);
    }
    usage.insert("pods".to_string(), Quantity::from_units(replicas));
    usage
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list(v: Value) -> ResourceList {
        parse(&v).unwrap()
    }

    #[test]
    fn sums_differences_and_products() {
        let a = list(json!({"cpu": "1", "memory": "1Gi"}));
        let b = list(json!({"cpu": "500m", "pods": 2}));
        assert_eq!(to_json(&add(&a, &b)), json!({"cpu": "1500m", "memory": "1Gi", "pods": "2"}));
        assert_eq!(to_json(&subtract(&a, &b)), json!({"cpu": "500m", "memory": "1Gi", "pods": "-2"}));
        assert_eq!(to_json(&times(&a, 3)), json!({"cpu": "3", "memory": "3Gi"}));
        assert_eq!(pretty(&a), "cpu=1,memory=1Gi");
        assert_eq!(pretty(&mask(&a, &["memory".to_string(), "gpu".to_string()])), "memory=1Gi");
    }

    #[test]
    fn bad_quantities_are_named() {
        let (name, _) = parse(&json!({"cpu": "lots"})).unwrap_err();
        assert_eq!(name, "cpu");
        assert!(parse(&json!({"cpu": ["1"]})).is_err());
        assert!(parse(&Value::Null).unwrap().is_empty());
    }

    #[test]
    fn only_raised_usage_over_the_limit_is_refused() {
        let hard = list(json!({"cpu": "2", "memory": "1Gi"}));
        let used = list(json!({"cpu": "1500m", "memory": "2Gi"}));
        // Half a core more fits exactly; memory is already over but not raised.
        assert!(exceeded(&hard, &used, &list(json!({"cpu": "500m", "memory": "0"}))).is_empty());
        assert_eq!(exceeded(&hard, &used, &list(json!({"cpu": "501m"}))), vec!["cpu"]);
        assert_eq!(exceeded(&hard, &used, &list(json!({"memory": "1"}))), vec!["memory"]);
        // A name the quota does not limit is never refused.
        assert!(exceeded(&hard, &used, &list(json!({"gpu": "8"}))).is_empty());
    }

    #[test]
    fn pod_requests_count_under_both_names_and_as_pods() {
        let usage = quota_usage(&list(json!({"cpu": "250m", "memory": "64Mi"})), 4);
        assert_eq!(
            to_json(&usage),
            json!({"cpu": "1", "memory": "256Mi", "pods": "4", "requests.cpu": "1", "requests.memory": "256Mi"})
        );
    }
}

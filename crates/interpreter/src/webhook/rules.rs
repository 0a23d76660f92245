//! Which webhooks a kind and operation reach (upstream's `interpreter.Matcher`): a rule
//! matches when its operations, API groups, API versions and kinds each name the object's or
//! are `*`.

use karmadactl_karmada_api::config::webhook::{ResourceInterpreterWebhook, RuleWithOperations};
use serde_json::Value;

use crate::{Operation, Target};

const WILDCARD: &str = "*";

/// Whether `rule` covers `target` for `operation` (`None`: for some operation).
pub(crate) fn matches(rule: &RuleWithOperations, target: &Target, operation: Option<Operation>) -> bool {
    let operation_matches = match operation {
        Some(op) => rule.operations.iter().any(|o| o == WILDCARD || o == op.name()),
        None => !rule.operations.is_empty(),
    };
    operation_matches
        && exact_or_wildcard(target.group(), &rule.api_groups)
        && exact_or_wildcard(target.version(), &rule.api_versions)
        && exact_or_wildcard(&target.kind, &rule.kinds)
}

fn exact_or_wildcard(requested: &str, items: &[String]) -> bool {
    items.iter().any(|item| item == WILDCARD || item == requested)
}

/// Whether any webhook of `configuration` (a ResourceInterpreterWebhookConfiguration
/// manifest) has a rule for `target`, whatever the operation: the engine asks this to find
/// what to queue again when a configuration changes.
pub fn rules_cover(configuration: &Value, target: &Target) -> bool {
    let Some(webhooks) = configuration.get("webhooks").and_then(Value::as_array) else {
        return false;
    };
    webhooks.iter().any(|hook| {
        serde_json::from_value::<ResourceInterpreterWebhook>(hook.clone())
            .is_ok_and(|hook| hook.rules.iter().any(|rule| matches(rule, target, None)))
    })
}

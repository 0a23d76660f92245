//! Policy preemption (`spec.preemption: Always`), as upstream's detector rules it: a
//! PropagationPolicy takes a template over from a PropagationPolicy of lower explicit priority
//! and from any ClusterPropagationPolicy; a ClusterPropagationPolicy only from a
//! ClusterPropagationPolicy of lower explicit priority. Only a selector that names the template
//! preempts (upstream fetches the template by the selector's name), and only with the
//! `PropagationPolicyPreemption` feature gate on.
//!
//! The detector asks these rules whenever it looks at a claimed template, rather than only when
//! a policy changes as upstream does; the outcome is the same claim, reached from any event.

use karmadactl_karmada_api::policy::propagation::PreemptionPolicy;

/// A policy, as preemption compares them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contender<'a> {
    /// The PropagationPolicy's namespace; `None` for a ClusterPropagationPolicy.
    pub namespace: Option<&'a str>,
    pub name: &'a str,
    pub explicit_priority: i32,
    pub preemption: Option<PreemptionPolicy>,
    /// Whether one of its selectors names the template.
    pub names_template: bool,
}

/// Whether `challenger` takes the template `holder` claims.
pub fn may_preempt(challenger: &Contender<'_>, holder: &Contender<'_>) -> bool {
    if challenger.preemption != Some(PreemptionPolicy::Always) || !challenger.names_template {
        return false;
    }
    if challenger.namespace == holder.namespace && challenger.name == holder.name {
        return false;
    }
    match (challenger.namespace, holder.namespace) {
        // A PropagationPolicy beats any ClusterPropagationPolicy, whatever its priority.
        (Some(_), None) => true,
        (Some(_), Some(_)) | (None, None) => challenger.explicit_priority > holder.explicit_priority,
        (None, Some(_)) => false,
    }
}

/// The Event reason upstream records on the template after a preemption.
pub const SUCCEEDED_REASON: &str = "PreemptPolicySucceed";
/// The Event reason upstream records on the template when claiming it failed.
pub const FAILED_REASON: &str = "PreemptPolicyFailed";

/// Upstream's words for a policy in these Events: "Propagation policy(ns/name)" or "Cluster
/// propagation policy(name)", capitalised at the start of a sentence.
fn describe(c: &Contender<'_>, first: bool) -> String {
    let (kind, id) = match c.namespace {
        Some(ns) => ("propagation policy", format!("{ns}/{}", c.name)),
        None => ("cluster propagation policy", c.name.to_string()),
    };
    let kind = if first {
        let mut chars = kind.chars();
        chars.next().map(|f| f.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
    } else {
        kind.to_string()
    };
    format!("{kind}({id})")
}

/// The message of the [`SUCCEEDED_REASON`] Event.
pub fn succeeded_message(challenger: &Contender<'_>, holder: &Contender<'_>) -> String {
    format!("{} preempted {} successfully", describe(challenger, true), describe(holder, false))
}

/// The message of the [`FAILED_REASON`] Event.
pub fn failed_message(challenger: &Contender<'_>, holder: &Contender<'_>, error: &str) -> String {
    format!("{} failed to preempt {}: {error}", describe(challenger, true), describe(holder, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pp<'a>(name: &'a str, priority: i32, preempt: bool) -> Contender<'a> {
        Contender {
            namespace: Some("default"),
            name,
            explicit_priority: priority,
            preemption: preempt.then_some(PreemptionPolicy::Always),
            names_template: true,
        }
    }

    fn cpp<'a>(name: &'a str, priority: i32, preempt: bool) -> Contender<'a> {
        Contender { namespace: None, ..pp(name, priority, preempt) }
    }

    #[test]
    fn propagation_policies_preempt_lower_priority_ones_and_any_cluster_policy() {
        assert!(may_preempt(&pp("high", 5, true), &pp("low", 1, false)));
        assert!(!may_preempt(&pp("equal", 1, true), &pp("low", 1, false)));
        assert!(!may_preempt(&pp("lower", 0, true), &pp("low", 1, false)));
        assert!(may_preempt(&pp("any", -10, true), &cpp("c", 100, false)));
    }

    #[test]
    fn cluster_policies_preempt_only_lower_priority_cluster_policies() {
        assert!(may_preempt(&cpp("high", 2, true), &cpp("low", 1, false)));
        assert!(!may_preempt(&cpp("equal", 1, true), &cpp("low", 1, false)));
        assert!(!may_preempt(&cpp("high", 100, true), &pp("p", 0, false)));
    }

    #[test]
    fn only_always_and_a_selector_naming_the_template_preempt() {
        assert!(!may_preempt(&pp("never", 5, false), &pp("low", 1, false)));
        let mut by_labels = pp("by-labels", 5, true);
        by_labels.names_template = false;
        assert!(!may_preempt(&by_labels, &pp("low", 1, false)));
        let mut explicit_never = pp("never", 5, false);
        explicit_never.preemption = Some(PreemptionPolicy::Never);
        assert!(!may_preempt(&explicit_never, &cpp("c", 0, false)));
        // A policy never preempts itself.
        assert!(!may_preempt(&pp("same", 5, true), &pp("same", 1, false)));
    }

    #[test]
    fn event_messages_use_upstreams_words() {
        assert_eq!(
            succeeded_message(&pp("high", 5, true), &pp("low", 1, false)),
            "Propagation policy(default/high) preempted propagation policy(default/low) successfully"
        );
        assert_eq!(
            succeeded_message(&pp("high", 5, true), &cpp("c", 1, false)),
            "Propagation policy(default/high) preempted cluster propagation policy(c) successfully"
        );
        assert_eq!(
            succeeded_message(&cpp("high", 5, true), &cpp("low", 1, false)),
            "Cluster propagation policy(high) preempted cluster propagation policy(low) successfully"
        );
        assert_eq!(
            failed_message(&cpp("high", 5, true), &cpp("low", 1, false), "conflict"),
            "Cluster propagation policy(high) failed to preempt cluster propagation policy(low): conflict"
        );
    }
}

//! Workload affinity groups (the `WorkloadAffinity` gate): the detector's naming of a
//! binding's groups from its template's labels, and the scheduling controller's reading of
//! where the groups' other bindings are placed, which the pure scheduler filters by.
//!
//! Upstream scopes groups to a namespace and gives them to ResourceBindings only: a
//! ClusterResourceBinding never has groups.

use std::collections::BTreeMap;

use karmadactl_karmada_api::policy::placement::Placement;
use karmadactl_karmada_api::work::binding::{TargetCluster, WorkloadAffinityGroups};

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine};
use super::scheduler::WorkloadPeers;

/// Scheduling a binding of a group reads its peers' placements and then writes its own; two
/// peers scheduled at once would each see the other unplaced (both "first of the group") and
/// could land apart. Bindings with groups are therefore scheduled one at a time, from the
/// peers' read to the write; bindings without groups never take this lock.
pub(crate) static GROUP_SCHEDULING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Upstream's getWorkloadAffinityGroups: each term names the group `<key>=<value>` from the
/// template's label under its `groupByLabelKey`; a template without that label is in no group
/// of that term, and `None` when it is in none at all.
pub(crate) fn groups(placement: &Placement, labels: &BTreeMap<String, String>) -> Option<WorkloadAffinityGroups> {
    let terms = placement.workload_affinity.as_ref()?;
    let group = |term: &Option<karmadactl_karmada_api::policy::placement::WorkloadAffinityTerm>| {
        let key = &term.as_ref()?.group_by_label_key;
        labels.get(key).map(|value| format!("{key}={value}"))
    };
    let groups = WorkloadAffinityGroups {
        affinity_group: group(&terms.affinity),
        anti_affinity_group: group(&terms.anti_affinity),
    };
    (groups.affinity_group.is_some() || groups.anti_affinity_group.is_some()).then_some(groups)
}

/// A binding that may be a peer: its key, its groups and its target clusters.
pub(crate) struct Candidate<'a> {
    pub key: BindingKey,
    pub groups: Option<&'a WorkloadAffinityGroups>,
    pub targets: Vec<TargetCluster>,
}

/// upstream's obeyAffinityGroup / obeyAntiAffinityGroup over every binding: a peer is another
/// binding of the same namespace whose group is the same string. Returns the peers' placements
/// and the keys of every peer, to be woken when this binding moves.
pub(crate) fn peers_among<'a>(
    own: &BindingKey,
    groups: &WorkloadAffinityGroups,
    candidates: impl IntoIterator<Item = Candidate<'a>>,
) -> (WorkloadPeers, Vec<BindingKey>) {
    let mut peers = WorkloadPeers::default();
    let mut keys = Vec::new();
    let same = |mine: &Option<String>, theirs: &Option<String>| mine.is_some() && mine == theirs;
    for c in candidates {
        if c.key.namespace != own.namespace || c.key.name == own.name {
            continue;
        }
        let Some(theirs) = c.groups else { continue };
        let affinity = same(&groups.affinity_group, &theirs.affinity_group);
        let anti_affinity = same(&groups.anti_affinity_group, &theirs.anti_affinity_group);
        if !affinity && !anti_affinity {
            continue;
        }
        let names = || c.targets.iter().map(|t| t.name.clone());
        if affinity && !c.targets.is_empty() {
            peers.affinity.push(names().collect());
        }
        if anti_affinity {
            peers.anti_affinity.extend(names());
        }
        keys.push(c.key);
    }
    (peers, keys)
}

/// The peers of a namespaced binding in the engine's caches, each with the newest placement
/// the engine knows (its own write not yet in the cache counts).
pub(crate) fn peers(
    engine: &Engine,
    own: &BindingKey,
    groups: &WorkloadAffinityGroups,
) -> (WorkloadPeers, Vec<BindingKey>) {
    let cached: Vec<AnyBinding> = engine.caches.bindings.state().into_iter().map(AnyBinding::Namespaced).collect();
    let candidates = cached.iter().map(|b| Candidate {
        key: b.key(),
        groups: b.spec().workload_affinity_groups.as_ref(),
        targets: engine.newest_targets(b),
    });
    peers_among(own, groups, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn placement(terms: serde_json::Value) -> Placement {
        serde_json::from_value(json!({"workloadAffinity": terms})).unwrap()
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn groups_are_named_key_equals_value_from_the_template_labels() {
        let p = placement(json!({"affinity": {"groupByLabelKey": "app.group"},
                                 "antiAffinity": {"groupByLabelKey": "ha"}}));
        let g = groups(&p, &labels(&[("app.group", "frontend"), ("ha", "db")])).unwrap();
        assert_eq!(g.affinity_group.as_deref(), Some("app.group=frontend"));
        assert_eq!(g.anti_affinity_group.as_deref(), Some("ha=db"));
        let only_anti = groups(&p, &labels(&[("ha", "")])).unwrap();
        assert_eq!((only_anti.affinity_group, only_anti.anti_affinity_group.as_deref()), (None, Some("ha=")));
    }

    #[test]
    fn no_terms_or_no_labels_make_no_groups() {
        assert_eq!(groups(&Placement::default(), &labels(&[("app.group", "x")])), None);
        let p = placement(json!({"affinity": {"groupByLabelKey": "app.group"}}));
        assert_eq!(groups(&p, &labels(&[("other", "x")])), None);
    }

    fn key(ns: &str, name: &str) -> BindingKey {
        BindingKey { namespace: Some(ns.into()), name: name.into() }
    }

    fn targets(names: &[&str]) -> Vec<TargetCluster> {
        names.iter().map(|n| TargetCluster { name: n.to_string(), replicas: Some(1), components: None }).collect()
    }

    #[test]
    fn peers_share_namespace_and_group_and_exclude_the_binding_itself() {
        let g = |a: Option<&str>, anti: Option<&str>| WorkloadAffinityGroups {
            affinity_group: a.map(String::from),
            anti_affinity_group: anti.map(String::from),
        };
        let own = g(Some("app=web"), Some("ha=db"));
        let same_affinity = g(Some("app=web"), None);
        let same_anti = g(None, Some("ha=db"));
        let other = g(Some("app=api"), Some("ha=cache"));
        let candidates = vec![
            Candidate { key: key("ns", "self"), groups: Some(&own), targets: targets(&["z"]) },
            Candidate { key: key("ns", "web-1"), groups: Some(&same_affinity), targets: targets(&["a", "b"]) },
            Candidate { key: key("ns", "web-unscheduled"), groups: Some(&same_affinity), targets: vec![] },
            Candidate { key: key("ns", "db-1"), groups: Some(&same_anti), targets: targets(&["c"]) },
            Candidate { key: key("other", "web-2"), groups: Some(&same_affinity), targets: targets(&["x"]) },
            Candidate { key: key("ns", "api"), groups: Some(&other), targets: targets(&["y"]) },
            Candidate { key: key("ns", "plain"), groups: None, targets: targets(&["w"]) },
        ];
        let (peers, keys) = peers_among(&key("ns", "self"), &own, candidates);
        assert_eq!(peers.affinity, vec![["a", "b"].iter().map(|s| s.to_string()).collect()]);
        assert_eq!(peers.anti_affinity, ["c"].iter().map(|s| s.to_string()).collect());
        assert_eq!(keys, vec![key("ns", "web-1"), key("ns", "web-unscheduled"), key("ns", "db-1")]);
    }
}

//! Upstream's WorkloadAffinity and WorkloadAntiAffinity filter plugins: a binding in an
//! affinity group goes only where every scheduled peer of the group is, one in an
//! anti-affinity group only where none is. The peers' placements are an input
//! ([`WorkloadPeers`]), read by the scheduling controller, so the scheduler stays pure.

use std::collections::BTreeSet;

/// Where the other bindings of this binding's groups are: the other ResourceBindings of the
/// same namespace whose `spec.workloadAffinityGroups` name the same group. Empty (the default)
/// when the binding is in no group or the `WorkloadAffinity` gate is off.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkloadPeers {
    /// The target clusters of each scheduled peer of the affinity group (peers not scheduled
    /// yet are left out: they constrain nothing, as upstream's).
    pub affinity: Vec<BTreeSet<String>>,
    /// Every cluster some peer of the anti-affinity group targets.
    pub anti_affinity: BTreeSet<String>,
}

/// Upstream's reason when an affinity peer does not target the cluster.
pub const AFFINITY_REASON: &str = "ResourceBinding with the same affinity group does not target this cluster";
/// Upstream's reason when an anti-affinity peer already targets the cluster.
pub const ANTI_AFFINITY_REASON: &str = "cluster already has workload with the same anti-affinity group";

/// Both filters for one cluster. A cluster the binding already targets always passes, as
/// upstream's: these filters never take a placed workload off a cluster. The first workload
/// of an affinity group has no scheduled peer and so is not held back.
pub(super) fn filter(peers: &WorkloadPeers, cluster: &str, already_targeted: bool) -> Result<(), String> {
    if already_targeted {
        return Ok(());
    }
    if !peers.affinity.iter().all(|targets| targets.contains(cluster)) {
        return Err(AFFINITY_REASON.into());
    }
    if peers.anti_affinity.contains(cluster) {
        return Err(ANTI_AFFINITY_REASON.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn no_peers_block_nothing() {
        let none = WorkloadPeers::default();
        assert_eq!(filter(&none, "a", false), Ok(()));
    }

    #[test]
    fn affinity_needs_every_scheduled_peer_on_the_cluster() {
        let peers = WorkloadPeers { affinity: vec![set(&["a", "b"]), set(&["b"])], ..Default::default() };
        assert_eq!(filter(&peers, "b", false), Ok(()));
        assert_eq!(filter(&peers, "a", false), Err(AFFINITY_REASON.to_string()));
        assert_eq!(filter(&peers, "c", false), Err(AFFINITY_REASON.to_string()));
    }

    #[test]
    fn anti_affinity_keeps_out_of_every_cluster_a_peer_uses() {
        let peers = WorkloadPeers { anti_affinity: set(&["a", "b"]), ..Default::default() };
        assert_eq!(filter(&peers, "a", false), Err(ANTI_AFFINITY_REASON.to_string()));
        assert_eq!(filter(&peers, "b", false), Err(ANTI_AFFINITY_REASON.to_string()));
        assert_eq!(filter(&peers, "c", false), Ok(()));
    }

    #[test]
    fn a_cluster_already_targeted_is_kept() {
        let peers = WorkloadPeers { affinity: vec![set(&["b"])], anti_affinity: set(&["a"]) };
        assert_eq!(filter(&peers, "a", true), Ok(()));
        assert_eq!(filter(&peers, "c", true), Ok(()));
    }

    #[test]
    fn affinity_is_checked_before_anti_affinity() {
        let peers = WorkloadPeers { affinity: vec![set(&["b"])], anti_affinity: set(&["a", "b"]) };
        assert_eq!(filter(&peers, "a", false), Err(AFFINITY_REASON.to_string()));
        assert_eq!(filter(&peers, "b", false), Err(ANTI_AFFINITY_REASON.to_string()));
    }
}

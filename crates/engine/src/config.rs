//! What the engine is started with: upstream karmada-controller-manager's feature gates and its
//! failover flags, with upstream's defaults. The plane's `controlplane serve` parses them from
//! the same flag names and hands them to [`crate::run`].

use std::time::Duration;

/// Upstream's feature gates that change what the engine does, with upstream's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureGates {
    /// `Failover` (Beta, off): clusters are tainted by ClusterTaintPolicies and the taint
    /// manager may evict from NoExecute clusters. Off upstream because it moves everything on
    /// a cluster at once.
    pub failover: bool,
    /// `GracefulEviction` (Beta, on): an evicted cluster keeps its copy until the new ones
    /// are healthy or the grace period ends.
    pub graceful_eviction: bool,
    /// `PropagationPolicyPreemption` (Alpha, off): a policy with `preemption: Always` takes
    /// templates over from a lower-priority one.
    pub propagation_policy_preemption: bool,
    /// `StatefulFailoverInjection` (Alpha, off): state read from the failed copy is written
    /// into the new copies' labels (`statePreservation`).
    pub stateful_failover_injection: bool,
    /// `WorkloadAffinity` (Alpha, off): bindings get `workloadAffinityGroups` from their
    /// templates' labels and the scheduler co-locates or separates the groups' workloads.
    pub workload_affinity: bool,
}

impl Default for FeatureGates {
    fn default() -> Self {
        Self {
            failover: false,
            graceful_eviction: true,
            propagation_policy_preemption: false,
            stateful_failover_injection: false,
            workload_affinity: false,
        }
    }
}

/// Gates upstream knows that this engine has nothing behind: accepted, so an upstream
/// command line works, and said to be without effect in `--help`.
const WITHOUT_EFFECT: &[&str] = &[
    "PropagateDeps",
    "CustomizedClusterResourceModeling",
    "MultiClusterService",
    "ResourceQuotaEstimate",
    "PriorityBasedScheduling",
    "FederatedQuotaEnforcement",
    "LoggingAlphaOptions",
    "LoggingBetaOptions",
    "ContextualLogging",
    "ControllerPriorityQueue",
    "MultiplePodTemplatesScheduling",
];

impl FeatureGates {
    /// The gate names this engine acts on.
    pub const NAMES: [&'static str; 5] = [
        "Failover",
        "GracefulEviction",
        "PropagationPolicyPreemption",
        "StatefulFailoverInjection",
        "WorkloadAffinity",
    ];

    /// Applies `--feature-gates` text (`A=true,B=false`) over the defaults, with the messages
    /// of component-base's feature gate parser.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut gates = Self::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = pair.split_once('=') else {
                return Err(format!("missing bool value for {pair}"));
            };
            let name = name.trim();
            let on: bool = value.trim().parse().map_err(|_| {
                let v = value.trim();
                format!("invalid value of {name}={v}, err: strconv.ParseBool: parsing \"{v}\": invalid syntax")
            })?;
            match name {
                "Failover" => gates.failover = on,
                "GracefulEviction" => gates.graceful_eviction = on,
                "PropagationPolicyPreemption" => gates.propagation_policy_preemption = on,
                "StatefulFailoverInjection" => gates.stateful_failover_injection = on,
                "WorkloadAffinity" => gates.workload_affinity = on,
                n if WITHOUT_EFFECT.contains(&n) => {}
                n => return Err(format!("unrecognized feature gate: {n}")),
            }
        }
        Ok(gates)
    }
}

/// How the taint manager deletes what it evicts (`--no-execute-taint-eviction-purge-mode`);
/// a policy's `failover.cluster.purgeMode` overrides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaintEvictionPurgeMode {
    /// The new copies are placed first; the old one goes once they are healthy.
    #[default]
    Gracefully,
    /// The old copy goes at once, then the workload is placed again.
    Directly,
}

/// Cluster failover, as karmada-controller-manager's flags set it.
#[derive(Debug, Clone, PartialEq)]
pub struct FailoverConfig {
    /// `--enable-taint-manager` (on): run the NoExecute taint manager (with `Failover`).
    pub enable_taint_manager: bool,
    /// `--enable-no-execute-taint-eviction` (off): let the taint manager evict at all.
    pub enable_no_execute_taint_eviction: bool,
    /// `--no-execute-taint-eviction-purge-mode` (Gracefully).
    pub no_execute_taint_eviction_purge_mode: TaintEvictionPurgeMode,
    /// `--resource-eviction-rate` (0.5): bindings evicted per second from one cluster.
    pub resource_eviction_rate: f32,
    /// `--graceful-eviction-timeout` (10m): how long an eviction task keeps the old copy when
    /// it sets no grace period of its own.
    pub graceful_eviction_timeout: Duration,
}

impl Default for FailoverConfig {
    fn default() -> Self {
        Self {
            enable_taint_manager: true,
            enable_no_execute_taint_eviction: false,
            no_execute_taint_eviction_purge_mode: TaintEvictionPurgeMode::Gracefully,
            resource_eviction_rate: 0.5,
            graceful_eviction_timeout: Duration::from_secs(600),
        }
    }
}

impl FailoverConfig {
    /// Whether the taint manager runs: upstream registers it only with both the flag and
    /// the `Failover` gate.
    pub fn taint_manager_runs(&self, features: &FeatureGates) -> bool {
        self.enable_taint_manager && features.failover
    }
}

/// The FederatedHPA controller, as karmada-controller-manager's `--horizontal-pod-autoscaler-*`
/// flags set it (kube-controller-manager's HPA flags, with their defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct HpaConfig {
    /// `--horizontal-pod-autoscaler-sync-period` (15s): how often every FederatedHPA is
    /// computed again.
    pub sync_period: Duration,
    /// `--horizontal-pod-autoscaler-tolerance` (0.1): how far the usage ratio may be from 1.0
    /// before the replicas change.
    pub tolerance: f64,
    /// `--horizontal-pod-autoscaler-downscale-stabilization` (5m): the scale-down window of an
    /// FHPA that gives none.
    pub downscale_stabilization: Duration,
    /// `--horizontal-pod-autoscaler-cpu-initialization-period` (5m): after a pod starts, its
    /// CPU samples count only once taken a window after it became ready.
    pub cpu_initialization_period: Duration,
    /// `--horizontal-pod-autoscaler-initial-readiness-delay` (30s): readiness changes within
    /// this long of a pod's start are its first readiness, not a failure.
    pub initial_readiness_delay: Duration,
}

impl Default for HpaConfig {
    fn default() -> Self {
        Self {
            sync_period: Duration::from_secs(15),
            tolerance: 0.1,
            downscale_stabilization: Duration::from_secs(300),
            cpu_initialization_period: Duration::from_secs(300),
            initial_readiness_delay: Duration::from_secs(30),
        }
    }
}

/// Everything the engine is configured with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineConfig {
    pub features: FeatureGates,
    pub failover: FailoverConfig,
    pub hpa: HpaConfig,
    /// What time controllers that act on a schedule take it to be (real unless a test set it).
    pub clock: crate::clock::Clock,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_keep_upstream_defaults_and_take_overrides() {
        assert_eq!(FeatureGates::parse("").unwrap(), FeatureGates::default());
        let g = FeatureGates::parse("Failover=true, GracefulEviction=false,PropagateDeps=true").unwrap();
        assert!(g.failover && !g.graceful_eviction && !g.propagation_policy_preemption);
        assert!(!g.workload_affinity && FeatureGates::parse("WorkloadAffinity=true").unwrap().workload_affinity);
    }

    #[test]
    fn bad_gates_are_refused_with_component_base_wording() {
        assert_eq!(FeatureGates::parse("Nope=true").unwrap_err(), "unrecognized feature gate: Nope");
        assert_eq!(FeatureGates::parse("Failover").unwrap_err(), "missing bool value for Failover");
        assert_eq!(
            FeatureGates::parse("Failover=yes").unwrap_err(),
            "invalid value of Failover=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"
        );
    }
}

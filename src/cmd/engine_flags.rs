//! `controlplane serve`'s engine flags: karmada-controller-manager's feature gates, cluster
//! failover flags and FederatedHPA flags, under upstream's names and with upstream's defaults.

use clap::Args;

use karmadactl_engine::clock::Clock;
use karmadactl_engine::config::{EngineConfig, FailoverConfig, FeatureGates, HpaConfig, TaintEvictionPurgeMode};

use crate::error::UsageError;

#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Feature gates as key=value pairs, e.g. Failover=true,PropagationPolicyPreemption=true.
    /// Acted on: Failover (default false), GracefulEviction (default true),
    /// PropagationPolicyPreemption (default false), StatefulFailoverInjection (default false),
    /// WorkloadAffinity (default false).
    /// Upstream's other gates are accepted and have no effect.
    #[arg(long, default_value = "", value_name = "GATES", hide_default_value = true)]
    pub feature_gates: String,

    /// Run the NoExecute taint manager (it runs only with the Failover feature gate too).
    #[arg(long, default_value_t = true, default_missing_value = "true", num_args = 0..=1, require_equals = true,
          action = clap::ArgAction::Set, value_name = "BOOL")]
    pub enable_taint_manager: bool,

    /// Let the taint manager evict workloads from clusters with a NoExecute taint they do not
    /// tolerate. Off by default, as upstream: it moves everything on a cluster at once.
    #[arg(long, default_value_t = false, default_missing_value = "true", num_args = 0..=1, require_equals = true,
          action = clap::ArgAction::Set, value_name = "BOOL")]
    pub enable_no_execute_taint_eviction: bool,

    /// How NoExecute evictions remove the old copy: "Gracefully" (the new copies first, the old
    /// one once they are healthy) or "Directly" (the old one at once, then reschedule).
    #[arg(long, default_value = "Gracefully", value_name = "MODE")]
    pub no_execute_taint_eviction_purge_mode: String,

    /// Evictions per second the taint manager makes; 0 waits 30 minutes between them, as
    /// upstream does.
    #[arg(long, default_value_t = 0.5, value_name = "RATE")]
    pub resource_eviction_rate: f32,

    /// How long an eviction keeps the old copy waiting for the new ones to be healthy, when the
    /// eviction sets no grace period of its own.
    #[arg(long, default_value = "10m0s", value_name = "DURATION")]
    pub graceful_eviction_timeout: String,

    /// How often every FederatedHPA is computed again (at least 100ms).
    #[arg(long, default_value = "15s", value_name = "DURATION")]
    pub horizontal_pod_autoscaler_sync_period: String,

    /// The minimum change (from 1.0) in the desired-to-actual metrics ratio for a FederatedHPA
    /// to scale (0 to 1).
    #[arg(long, default_value_t = 0.1, value_name = "RATIO")]
    pub horizontal_pod_autoscaler_tolerance: f64,

    /// The scale-down stabilization window of a FederatedHPA whose behavior gives none.
    #[arg(long, default_value = "5m0s", value_name = "DURATION")]
    pub horizontal_pod_autoscaler_downscale_stabilization: String,

    /// The period after a pod starts when its CPU samples may be skipped.
    #[arg(long, default_value = "5m0s", value_name = "DURATION")]
    pub horizontal_pod_autoscaler_cpu_initialization_period: String,

    /// The period after a pod starts during which readiness changes count as its initial
    /// readiness.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub horizontal_pod_autoscaler_initial_readiness_delay: String,

    /// Test-only: start the engine's clock at this RFC 3339 instant; it advances in real time.
    // A test sees a cron rule fire without waiting for its wall-clock time. Hidden, and absent
    // from FLAG_NAMES so `init --embedded` cannot pass it; nothing in the API can set it.
    #[arg(long, hide = true, value_name = "RFC3339")]
    pub engine_clock_start: Option<String>,
}

/// The shortest `--horizontal-pod-autoscaler-sync-period`: each sync reads every member's pods.
const MIN_HPA_SYNC_PERIOD: std::time::Duration = std::time::Duration::from_millis(100);

/// The flags above, by name: what `init --embedded` accepts in
/// `--karmada-controller-manager-extra-args`.
pub const FLAG_NAMES: [&str; 11] = [
    "feature-gates",
    "enable-taint-manager",
    "enable-no-execute-taint-eviction",
    "no-execute-taint-eviction-purge-mode",
    "resource-eviction-rate",
    "graceful-eviction-timeout",
    "horizontal-pod-autoscaler-sync-period",
    "horizontal-pod-autoscaler-tolerance",
    "horizontal-pod-autoscaler-downscale-stabilization",
    "horizontal-pod-autoscaler-cpu-initialization-period",
    "horizontal-pod-autoscaler-initial-readiness-delay",
];

/// Checks `--karmada-controller-manager-extra-args` (its comma-split pieces, glued back by
/// upstream's extra-args grammar) for `controlplane serve`: each argument must be one of its
/// engine flags with a valid value; returns the arguments.
pub fn check_controller_manager_args(pieces: &[String]) -> anyhow::Result<Vec<String>> {
    use clap::FromArgMatches as _;
    let args =
        crate::cmd::init::host::extra_args::parse("karmada-controller-manager-extra-args", pieces).map_err(|e| {
            UsageError::with_hint(e.to_string(), "write each argument as --name=value, separated by commas.")
        })?;
    for arg in &args {
        let name = arg.trim_start_matches("--").split('=').next().unwrap_or_default();
        if !FLAG_NAMES.contains(&name) {
            return Err(UsageError::with_hint(
                format!("--karmada-controller-manager-extra-args: the embedded control plane has no flag --{name}"),
                format!("it takes --{} (as karmada-controller-manager has them).", FLAG_NAMES.join(", --")),
            )
            .into());
        }
    }
    let command = EngineArgs::augment_args(clap::Command::new("karmada-controller-manager").no_binary_name(true));
    let matches = command.try_get_matches_from(&args).map_err(|e| {
        let rendered = e.render().to_string();
        let first = rendered.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
        UsageError::new(format!("--karmada-controller-manager-extra-args: {first}"))
    })?;
    EngineArgs::from_arg_matches(&matches)?.config()?;
    Ok(args)
}

impl EngineArgs {
    /// The engine's configuration, after checking the flags as upstream's validation does.
    pub fn config(&self) -> anyhow::Result<EngineConfig> {
        let features = FeatureGates::parse(&self.feature_gates).map_err(|e| {
            UsageError::with_hint(
                format!("invalid argument \"{}\" for \"--feature-gates\" flag: {e}", self.feature_gates),
                format!(
                    "give NAME=true|false pairs separated by commas; acted on: {}.",
                    FeatureGates::NAMES.join(", ")
                ),
            )
        })?;
        let purge_mode = match self.no_execute_taint_eviction_purge_mode.as_str() {
            "Gracefully" => TaintEvictionPurgeMode::Gracefully,
            "Directly" => TaintEvictionPurgeMode::Directly,
            other => {
                return Err(UsageError::with_hint(
                    format!("invalid --no-execute-taint-eviction-purge-mode \"{other}\": Invalid mode"),
                    "give Gracefully or Directly.",
                )
                .into());
            }
        };
        if !(self.resource_eviction_rate >= 0.0 && self.resource_eviction_rate.is_finite()) {
            return Err(UsageError::with_hint(
                format!("invalid --resource-eviction-rate {}: must be non-negative", self.resource_eviction_rate),
                "give evictions per second, e.g. 0.5.",
            )
            .into());
        }
        let timeout =
            super::controlplane::positive_duration("graceful-eviction-timeout", &self.graceful_eviction_timeout)?;
        let clock = match &self.engine_clock_start {
            None => Clock::real(),
            Some(text) => {
                let start: jiff::Timestamp = text.parse().map_err(|e| {
                    UsageError::with_hint(
                        format!("invalid --engine-clock-start \"{text}\": {e}"),
                        "give an RFC 3339 instant, e.g. 2026-03-10T08:59:50+08:00.",
                    )
                })?;
                Clock::starting_at(start)
            }
        };
        Ok(EngineConfig {
            hpa: self.hpa_config()?,
            clock,
            features,
            failover: FailoverConfig {
                enable_taint_manager: self.enable_taint_manager,
                enable_no_execute_taint_eviction: self.enable_no_execute_taint_eviction,
                no_execute_taint_eviction_purge_mode: purge_mode,
                resource_eviction_rate: self.resource_eviction_rate,
                graceful_eviction_timeout: timeout,
            },
        })
    }

    /// The FederatedHPA flags, each within its range.
    fn hpa_config(&self) -> anyhow::Result<HpaConfig> {
        let sync_period = super::parse_duration(
            "horizontal-pod-autoscaler-sync-period",
            &self.horizontal_pod_autoscaler_sync_period,
        )?;
        if sync_period < MIN_HPA_SYNC_PERIOD {
            return Err(UsageError::with_hint(
                format!(
                    "--horizontal-pod-autoscaler-sync-period must be at least 100ms, not {}",
                    self.horizontal_pod_autoscaler_sync_period
                ),
                "give a Go duration such as 15s.",
            )
            .into());
        }
        let tolerance = self.horizontal_pod_autoscaler_tolerance;
        if !(0.0..=1.0).contains(&tolerance) {
            return Err(UsageError::with_hint(
                format!("invalid --horizontal-pod-autoscaler-tolerance {tolerance}: must be between 0 and 1"),
                "give a ratio such as 0.1.",
            )
            .into());
        }
        let duration = |flag: &str, value: &str| super::parse_duration(flag, value);
        Ok(HpaConfig {
            sync_period,
            tolerance,
            downscale_stabilization: duration(
                "horizontal-pod-autoscaler-downscale-stabilization",
                &self.horizontal_pod_autoscaler_downscale_stabilization,
            )?,
            cpu_initialization_period: duration(
                "horizontal-pod-autoscaler-cpu-initialization-period",
                &self.horizontal_pod_autoscaler_cpu_initialization_period,
            )?,
            initial_readiness_delay: duration(
                "horizontal-pod-autoscaler-initial-readiness-delay",
                &self.horizontal_pod_autoscaler_initial_readiness_delay,
            )?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches as _;

    fn parse(args: &[&str]) -> EngineArgs {
        let command = EngineArgs::augment_args(clap::Command::new("serve").no_binary_name(true));
        EngineArgs::from_arg_matches(&command.try_get_matches_from(args).unwrap()).unwrap()
    }

    #[test]
    fn the_engine_clock_starts_where_a_test_says_and_is_real_otherwise() {
        assert!(parse(&[]).config().unwrap().clock.is_real());
        let started = parse(&["--engine-clock-start", "2026-03-10T08:59:00+08:00"]).config().unwrap().clock;
        let lead = started.now().duration_since("2026-03-10T00:59:00Z".parse().unwrap());
        assert!(!started.is_real() && lead >= jiff::SignedDuration::ZERO && lead.as_secs() < 5, "{lead:?}");
        let err = parse(&["--engine-clock-start", "tomorrow"]).config().unwrap_err().to_string();
        assert!(err.starts_with("invalid --engine-clock-start \"tomorrow\""), "{err}");
    }

    #[test]
    fn hpa_flags_keep_upstream_defaults_and_refuse_out_of_range_values() {
        assert_eq!(parse(&[]).config().unwrap().hpa, HpaConfig::default());
        let hpa = parse(&["--horizontal-pod-autoscaler-sync-period=1s", "--horizontal-pod-autoscaler-tolerance=0.05"])
            .config()
            .unwrap()
            .hpa;
        assert_eq!((hpa.sync_period, hpa.tolerance), (std::time::Duration::from_secs(1), 0.05));
        let err = parse(&["--horizontal-pod-autoscaler-sync-period=0s"]).config().unwrap_err().to_string();
        assert!(err.contains("must be at least 100ms, not 0s"), "{err}");
        let err = parse(&["--horizontal-pod-autoscaler-tolerance=-0.1"]).config().unwrap_err().to_string();
        assert!(err.contains("must be between 0 and 1"), "{err}");
    }

    #[test]
    fn init_cannot_pass_the_test_clock_to_the_engine() {
        let err = check_controller_manager_args(&["--engine-clock-start=2026-03-10T00:00:00Z".into()]).unwrap_err();
        assert!(err.to_string().contains("the embedded control plane has no flag --engine-clock-start"), "{err}");
    }
}

//! The four addons upstream's `addons` command knows, how their names are read from the command
//! line (`all` included), and the names of the objects each one puts into the host cluster.

use crate::error::UsageError;

/// An optional Karmada component installed next to a control plane in a host cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Addon {
    Descheduler,
    MetricsAdapter,
    SchedulerEstimator,
    Search,
}

impl Addon {
    /// Every addon, in name order: the order `list` prints them and `all` installs them.
    pub const ALL: [Addon; 4] = [Addon::Descheduler, Addon::MetricsAdapter, Addon::SchedulerEstimator, Addon::Search];

    pub fn name(self) -> &'static str {
        match self {
            Addon::Descheduler => "karmada-descheduler",
            Addon::MetricsAdapter => "karmada-metrics-adapter",
            Addon::SchedulerEstimator => "karmada-scheduler-estimator",
            Addon::Search => "karmada-search",
        }
    }

    /// How upstream's progress lines name it ("Install karmada search service ...").
    pub fn spoken(self) -> &'static str {
        match self {
            Addon::Descheduler => "karmada descheduler",
            Addon::MetricsAdapter => "karmada metrics adapter",
            Addon::SchedulerEstimator => "karmada scheduler estimator",
            Addon::Search => "karmada search",
        }
    }

    pub fn from_name(name: &str) -> Option<Addon> {
        Addon::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The APIServices it registers in the Karmada API server.
    pub fn api_services(self) -> &'static [&'static str] {
        match self {
            Addon::MetricsAdapter => {
                &["v1beta1.metrics.k8s.io", "v1beta1.custom.metrics.k8s.io", "v1beta2.custom.metrics.k8s.io"]
            }
            Addon::Search => &["v1alpha1.search.karmada.io"],
            Addon::Descheduler | Addon::SchedulerEstimator => &[],
        }
    }

    /// The host Deployment (and Service) name; the estimator has one per member cluster.
    pub fn workload_name(self, cluster: &str) -> String {
        match self {
            Addon::SchedulerEstimator => estimator_name(cluster),
            other => other.name().to_string(),
        }
    }

    /// The kubeconfig secret `init` wrote for it (`<name>-config`); the estimator uses none.
    pub fn config_secret(self) -> Option<String> {
        (self != Addon::SchedulerEstimator).then(|| format!("{}-config", self.name()))
    }
}

/// `karmada-scheduler-estimator-<cluster>`: the estimator's Deployment, Service and `app` label.
pub fn estimator_name(cluster: &str) -> String {
    format!("karmada-scheduler-estimator-{cluster}")
}

/// `<cluster>-kubeconfig`: the secret holding the member cluster's kubeconfig for its estimator.
pub fn estimator_secret(cluster: &str) -> String {
    format!("{cluster}-kubeconfig")
}

/// The addons named on the command line, in [`Addon::ALL`] order, and whether `all` was one of
/// them. Upstream's messages for no name and for an unknown one.
pub fn parse(names: &[String]) -> Result<(Vec<Addon>, bool), UsageError> {
    let hint = || {
        let known: Vec<&str> = Addon::ALL.iter().map(|a| a.name()).collect();
        format!("the addons are {}; 'all' names every one of them.", known.join(", "))
    };
    if names.is_empty() {
        return Err(UsageError::with_hint("addonNames must be not be null", hint()));
    }
    let mut addons = Vec::new();
    let mut all = false;
    for name in names {
        if name == "all" {
            all = true;
            continue;
        }
        match Addon::from_name(name) {
            Some(addon) => addons.push(addon),
            None => return Err(UsageError::with_hint(format!("addon {name} is not be supported now"), hint())),
        }
    }
    if all {
        addons = Addon::ALL.to_vec();
    }
    addons.sort();
    addons.dedup();
    Ok((addons, all))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_are_read_in_a_fixed_order_and_all_means_every_addon() {
        let (addons, all) = parse(&names(&["karmada-search", "karmada-descheduler", "karmada-search"])).unwrap();
        assert_eq!(addons, [Addon::Descheduler, Addon::Search]);
        assert!(!all);
        let (addons, all) = parse(&names(&["karmada-search", "all"])).unwrap();
        assert_eq!(addons, Addon::ALL);
        assert!(all);
    }

    #[test]
    fn unknown_and_missing_names_get_upstreams_messages() {
        let e = parse(&names(&["karmada-search", "karmada-serach"])).unwrap_err();
        assert_eq!(e.message, "addon karmada-serach is not be supported now");
        assert!(e.hint.unwrap().contains("karmada-scheduler-estimator"));
        assert_eq!(parse(&[]).unwrap_err().message, "addonNames must be not be null");
    }

    #[test]
    fn object_names_follow_upstream() {
        assert_eq!(Addon::SchedulerEstimator.workload_name("member1"), "karmada-scheduler-estimator-member1");
        assert_eq!(Addon::Search.workload_name("member1"), "karmada-search");
        assert_eq!(estimator_secret("member1"), "member1-kubeconfig");
        assert_eq!(Addon::MetricsAdapter.config_secret().as_deref(), Some("karmada-metrics-adapter-config"));
        assert_eq!(Addon::SchedulerEstimator.config_secret(), None);
    }
}

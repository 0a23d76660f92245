//! The numbers a simulated member's `metrics.k8s.io` reports: what metrics-server would measure
//! if the pretend containers ran. Nothing is measured. A container uses a fixed share of what it
//! requests (or, without a request, of its limit, or a small idle amount), and the share
//! differs per container so `top --sort-by` has something to sort; a node uses what its pods
//! use plus a base of its own. The figures depend only on the pod's uid and the container's
//! name, so two readers of the same pod see the same usage.
//!
//! The API server serves these figures (it parses the quantities and lists the pods); this
//! module only says how much, in whole nanocores and bytes.
//!
//! Load can be simulated without a rollout: [`CPU_UTILIZATION_ANNOTATION`] (and
//! [`MEMORY_UTILIZATION_ANNOTATION`]) on a pod, or on the workload that controls it (its
//! ReplicaSet, StatefulSet… or that one's Deployment), sets the share of the request each of the
//! pod's containers uses, so an autoscaler sees usage rise and fall.

/// Percent of its CPU request each container of the pod uses (`"90"`), read on the pod, then on
/// its controller, then on that one's controller (a Deployment's annotation reaches the pods of
/// all its ReplicaSets). Simulated: nothing runs.
pub const CPU_UTILIZATION_ANNOTATION: &str = "simulation.karmadactl.io/cpu-utilization";
/// The same for memory.
pub const MEMORY_UTILIZATION_ANNOTATION: &str = "simulation.karmadactl.io/memory-utilization";
/// The highest percent an annotation may set; a larger or unreadable value is ignored (the
/// default share applies), as is a container without a request.
pub const MAX_UTILIZATION_PERCENT: u64 = 1000;

/// Percent of the request set by the annotations: (CPU, memory), None when unset.
pub type Utilization = (Option<u64>, Option<u64>);

/// Reads an annotation's value as a percent within [`MAX_UTILIZATION_PERCENT`].
pub fn parse_utilization(value: &str) -> Option<u64> {
    value.trim().parse::<u64>().ok().filter(|p| *p <= MAX_UTILIZATION_PERCENT)
}

/// CPU (nanocores) and memory (bytes), as a request, a limit or a usage.
pub type Amounts = (Option<u64>, Option<u64>);

/// Idle usage of a container that asks for nothing: 1m CPU and 4 MiB.
const IDLE_CPU: u64 = 1_000_000;
const IDLE_MEMORY: u64 = 4 << 20;
/// What a node's system daemons use besides its pods: 50m–99m CPU and 400–527 MiB.
const NODE_CPU: u64 = 50_000_000;
const NODE_MEMORY: u64 = 400 << 20;

/// A container's usage in nanocores and bytes. `seed` identifies the container (pod uid and
/// container name); `requests` and `limits` are its CPU and memory, None when unset;
/// `set` the percents of the request the annotations ask for.
pub fn container_usage(seed: &str, requests: Amounts, limits: Amounts, set: Utilization) -> (u64, u64) {
    let h = hash(seed);
    // 30–89 % of the CPU request, 50–94 % of the memory request, unless set.
    let cpu = match (set.0, requests.0) {
        (Some(p), Some(r)) => share(Some(r), IDLE_CPU, p, limits.0),
        _ => share(requests.0.or(limits.0), IDLE_CPU, 30 + h % 60, limits.0),
    };
    let memory = match (set.1, requests.1) {
        (Some(p), Some(r)) => share(Some(r), IDLE_MEMORY, p, limits.1),
        _ => share(requests.1.or(limits.1), IDLE_MEMORY, 50 + (h >> 8) % 45, limits.1),
    };
    // metrics-server reports whole KiB of working set; keep memory a multiple of 1024.
    (cpu, memory / 1024 * 1024)
}

/// A node's usage: its pods' usage (summed by the caller) plus the node's own base.
pub fn node_usage(node: &str, pods: (u64, u64)) -> (u64, u64) {
    let h = hash(node);
    let cpu = pods.0.saturating_add(NODE_CPU + (h % 50) * 1_000_000);
    let memory = pods.1.saturating_add(NODE_MEMORY + ((h >> 8) % 128) * (1 << 20));
    (cpu, memory)
}

fn share(base: Option<u64>, idle: u64, percent: u64, limit: Option<u64>) -> u64 {
    let used = match base {
        Some(b) => (u128::from(b) * u128::from(percent) / 100) as u64,
        None => idle,
    };
    // Never more than the limit: the kernel would throttle or kill it.
    limit.map_or(used, |l| used.min(l))
}

/// FNV-1a, 64 bits: stable across runs and platforms, unlike the standard library's hasher.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Utilization = (None, None);

    #[test]
    fn usage_is_a_share_of_the_request_and_stays_within_the_limit() {
        let (cpu, memory) = container_usage("uid/app", (Some(200_000_000), Some(256 << 20)), (None, None), NONE);
        assert!((60_000_000..=178_000_000).contains(&cpu), "{cpu}");
        assert!((128 << 20..=244 << 20).contains(&memory), "{memory}");
        assert_eq!(memory % 1024, 0);
        let limited = container_usage("uid/app", (None, None), (Some(10_000_000), Some(64 << 20)), NONE);
        assert!(limited.0 <= 10_000_000 && limited.1 <= 64 << 20, "{limited:?}");
        assert_eq!(container_usage("uid/idle", (None, None), (None, None), NONE), (IDLE_CPU, IDLE_MEMORY));
    }

    #[test]
    fn usage_is_stable_per_container_and_differs_between_containers() {
        let req = (Some(1_000_000_000), Some(1 << 30));
        assert_eq!(
            container_usage("a/web", req, (None, None), NONE),
            container_usage("a/web", req, (None, None), NONE)
        );
        let shares: std::collections::BTreeSet<_> =
            (0..20).map(|i| container_usage(&format!("uid-{i}/c"), req, (None, None), NONE).0).collect();
        assert!(shares.len() > 5, "{shares:?}");
    }

    #[test]
    fn a_set_utilization_is_that_share_of_the_request_within_the_limit() {
        let req = (Some(200_000_000), Some(100 << 20));
        assert_eq!(container_usage("a/web", req, (None, None), (Some(90), None)).0, 180_000_000);
        assert_eq!(container_usage("a/web", req, (None, None), (Some(10), Some(50))), (20_000_000, 50 << 20));
        // Above the request up to the limit, as a container without a CPU limit may burst.
        assert_eq!(container_usage("a/web", req, (Some(300_000_000), None), (Some(200), None)).0, 300_000_000);
        // Without a request the annotation has nothing to be a share of.
        assert_eq!(
            container_usage("a/idle", (None, None), (None, None), (Some(90), Some(90))),
            (IDLE_CPU, IDLE_MEMORY)
        );
        assert_eq!(parse_utilization(" 90 "), Some(90));
        assert_eq!((parse_utilization("1001"), parse_utilization("-1"), parse_utilization("x")), (None, None, None));
    }

    #[test]
    fn a_node_adds_its_base_to_its_pods() {
        let idle = node_usage("m1-node-1", (0, 0));
        let busy = node_usage("m1-node-1", (100, 1024));
        assert_eq!((busy.0 - idle.0, busy.1 - idle.1), (100, 1024));
        assert!(idle.0 >= NODE_CPU && idle.1 >= NODE_MEMORY);
    }
}

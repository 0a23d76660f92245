//! Owners' status writes held back for a moment while their new pods are about to turn ready:
//! a Deployment that comes up then reports once, ready, where it reported once with its pods
//! pending and once more when they were ready (two writes of the ReplicaSet's status and two of
//! the Deployment's, a quarter of a member's writes per Deployment). Only pods the kubelets are
//! about to make ready are waited for (Pending, not held unready), only when the ready delay is
//! short, and never for more than twice that delay: a pod that is late shows as pending.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;

use super::{owned, readiness};

/// The longest pod ready delay that is waited for; with a longer one, pending pods are reported.
const LONGEST_WAITED: Duration = Duration::from_secs(1);
/// How many owners may be waiting before the ones that have waited for long are forgotten
/// (an owner deleted while it waited leaves its entry behind).
const TRACKED: usize = 10_000;

#[derive(Default)]
pub(crate) struct Holds {
    /// Owner uid → when its status was first held back.
    since: Mutex<HashMap<String, Instant>>,
}

impl Holds {
    /// How much longer `owner_uid`'s status write waits for `pods` to turn ready, with pods
    /// that turn ready after `delay`; None: write it now.
    pub fn wait(&self, owner_uid: &str, delay: Duration, pods: &[Pod]) -> Option<Duration> {
        let mut since = self.since.lock().expect("not poisoned");
        let mut unready = pods.iter().filter(|p| !owned::pod_ready(p)).peekable();
        let waitable = delay <= LONGEST_WAITED && unready.peek().is_some() && unready.all(about_to_turn_ready);
        if !waitable {
            since.remove(owner_uid);
            return None;
        }
        let now = Instant::now();
        if since.len() >= TRACKED {
            since.retain(|_, t| now.duration_since(*t) < LONGEST_WAITED * 2);
        }
        let first = *since.entry(owner_uid.to_string()).or_insert(now);
        (first + delay * 2).checked_duration_since(now).filter(|left| !left.is_zero())
    }
}

/// A pod the kubelets will report Running and Ready after the ready delay.
fn about_to_turn_ready(pod: &Pod) -> bool {
    owned::pod_phase(pod) == "Pending"
        && pod.metadata.deletion_timestamp.is_none()
        && !readiness::held_unready(&pod.metadata)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{PodCondition, PodStatus};

    fn pod(phase: &str, ready: bool) -> Pod {
        Pod {
            status: Some(PodStatus {
                phase: Some(phase.into()),
                conditions: Some(vec![PodCondition {
                    type_: "Ready".into(),
                    status: if ready { "True" } else { "False" }.into(),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn waits_only_for_pods_about_to_turn_ready_and_only_so_long() {
        let holds = Holds::default();
        let short = Duration::from_millis(50);
        assert_eq!(holds.wait("a", short, &[pod("Running", true)]), None, "all ready: write");
        assert!(holds.wait("a", short, &[pod("Running", true), pod("Pending", false)]).is_some_and(|d| d <= short * 2));
        assert_eq!(holds.wait("b", short, &[pod("Running", false)]), None, "running, not ready: write");
        assert_eq!(holds.wait("c", Duration::from_secs(5), &[pod("Pending", false)]), None, "long delay: write");
        let mut held = pod("Pending", false);
        held.metadata.annotations = Some([(readiness::PODS_READY_ANNOTATION.to_string(), "false".to_string())].into());
        assert_eq!(holds.wait("d", short, &[held]), None, "held unready: write");

        std::thread::sleep(short * 2);
        assert_eq!(holds.wait("a", short, &[pod("Pending", false)]), None, "waited twice the delay: write");
        assert_eq!(holds.wait("a", short, &[pod("Running", true)]), None);
        assert!(holds.wait("a", short, &[pod("Pending", false)]).is_some(), "a new wait starts afresh");
    }
}

//! The replica calculator (upstream's `replica_calculator.go`, lifted from kube's
//! podautoscaler): from the pods of every member and their samples, how many replicas bring
//! the usage to the target. Pods that are failed or going are ignored, pending or
//! not-yet-settled ones count as unready, pods without a sample as missing, and both are
//! filled in with the value that makes a scale in their direction least likely, as kube does.
//! `calibration` is upstream's: the members' replicas over the template's, so a count made
//! from the pods that run is turned back into template replicas.
//!
//! Pure: the caller gathers pods and samples and gives `now`, so it is tested without sleeping.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

/// What the calculator needs of one pod, keyed by `cluster/name` (names repeat across members).
#[derive(Debug, Clone, PartialEq)]
pub struct Pod {
    pub phase: Phase,
    /// Being deleted.
    pub deleting: bool,
    /// The Ready condition: its status and when it last changed; None when absent.
    pub ready: Option<(bool, SystemTime)>,
    pub start_time: Option<SystemTime>,
    /// The resource's request summed over the containers counted (milli-units), or the name
    /// of the first container without one.
    pub request: Result<i64, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Pending,
    Running,
    Succeeded,
    Failed,
    Unknown,
}

/// A pod's usage of the resource (milli-units) and when and over what window it was measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub value: i64,
    pub timestamp: SystemTime,
    pub window: Duration,
}

/// The calculator's settings (the controller's `--horizontal-pod-autoscaler-*` flags).
#[derive(Debug, Clone, Copy)]
pub struct Calculator {
    pub tolerance: f64,
    pub cpu_initialization_period: Duration,
    pub initial_readiness_delay: Duration,
    pub now: SystemTime,
}

/// What a resource metric computes to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proposal {
    pub replicas: i32,
    /// Percent of the request (Utilization targets only).
    pub utilization: Option<i32>,
    /// The average usage per pod, milli-units.
    pub average: i64,
}

/// A resource metric's target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Percent of the request.
    Utilization(i32),
    /// Usage per pod, milli-units.
    AverageValue(i64),
}

impl Calculator {
    /// kube's `GetResourceReplicas` / `GetRawResourceReplicas` over all members' pods.
    pub fn resource_replicas(
        &self,
        current: i32,
        target: Target,
        is_cpu: bool,
        pods: &BTreeMap<String, Pod>,
        mut samples: BTreeMap<String, Sample>,
        calibration: f64,
    ) -> Result<Proposal, String> {
        if pods.is_empty() {
            return Err("no pods returned by selector while calculating replica count".into());
        }
        let groups = self.group(pods, &samples, is_cpu);
        samples.retain(|k, _| !groups.ignored.contains(k) && !groups.unready.contains(k) && pods.contains_key(k));
        if samples.is_empty() {
            return Err("did not receive metrics for targeted pods (pods might be unready)".into());
        }
        let mut values: BTreeMap<String, i64> = samples.iter().map(|(k, s)| (k.clone(), s.value)).collect();
        let requests = match target {
            Target::Utilization(_) => {
                let mut r = BTreeMap::new();
                for (k, p) in pods {
                    if let Ok(v) = &p.request {
                        r.insert(k.clone(), *v);
                    }
                }
                Some(r)
            }
            Target::AverageValue(_) => None,
        };
        let ratio_of = |values: &BTreeMap<String, i64>| -> Result<(f64, Option<i32>, i64), String> {
            match target {
                Target::Utilization(t) => {
                    let (mut used, mut requested) = (0i128, 0i128);
                    for (k, v) in values {
                        let Some(r) = requests.as_ref().and_then(|r| r.get(k)) else {
                            let (cluster, pod) = k.split_once('/').unwrap_or(("", k));
                            let container = pods.get(k).and_then(|p| p.request.clone().err()).unwrap_or_default();
                            return Err(format!(
                                "missing request for {} in container {container} of Pod {pod} (cluster {cluster})",
                                if is_cpu { "cpu" } else { "the resource" }
                            ));
                        };
                        used += i128::from(*v);
                        requested += i128::from(*r);
                    }
                    if requested == 0 {
                        return Err("no metrics returned matched known pods".into());
                    }
                    let utilization = i32::try_from(used * 100 / requested).unwrap_or(i32::MAX);
                    let average = i64::try_from(used / values.len() as i128).unwrap_or(i64::MAX);
                    Ok((f64::from(utilization) / f64::from(t), Some(utilization), average))
                }
                Target::AverageValue(t) => {
                    let total: i128 = values.values().map(|v| i128::from(*v)).sum();
                    let average = i64::try_from(total / values.len() as i128).unwrap_or(i64::MAX);
                    Ok((average as f64 / t.max(1) as f64, None, average))
                }
            }
        };
        let (ratio, utilization, average) = ratio_of(&values)?;
        let keep = Proposal { replicas: current, utilization, average };
        let scale_up_with_unready = !groups.unready.is_empty() && ratio > 1.0;
        if !scale_up_with_unready && groups.missing.is_empty() {
            if (1.0 - ratio).abs() <= self.tolerance {
                return Ok(keep);
            }
            let replicas = (ratio * groups.ready as f64 / calibration).ceil();
            return Ok(Proposal { replicas: clamp_i32(replicas), ..keep });
        }
        if !groups.missing.is_empty() {
            for k in &groups.missing {
                let v = if ratio < 1.0 {
                    // As if the missing pods used what the target allows (or all they asked).
                    match target {
                        Target::Utilization(t) => {
                            let r = requests.as_ref().and_then(|r| r.get(k)).copied().unwrap_or(0);
                            r * i64::from(t.max(100)) / 100
                        }
                        Target::AverageValue(t) => t,
                    }
                } else if ratio > 1.0 {
                    0
                } else {
                    continue;
                };
                values.insert(k.clone(), v);
            }
        }
        if scale_up_with_unready {
            for k in &groups.unready {
                values.insert(k.clone(), 0);
            }
        }
        let (new_ratio, _, _) = ratio_of(&values)?;
        if (1.0 - new_ratio).abs() <= self.tolerance
            || (ratio < 1.0 && new_ratio > 1.0)
            || (ratio > 1.0 && new_ratio < 1.0)
        {
            return Ok(keep);
        }
        let replicas = clamp_i32((new_ratio * values.len() as f64 / calibration).ceil());
        if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
            return Ok(keep);
        }
        Ok(Proposal { replicas, ..keep })
    }

    /// kube's `groupPods`.
    fn group(&self, pods: &BTreeMap<String, Pod>, samples: &BTreeMap<String, Sample>, is_cpu: bool) -> Groups {
        let mut g = Groups::default();
        for (k, pod) in pods {
            if pod.deleting || pod.phase == Phase::Failed {
                g.ignored.insert(k.clone());
                continue;
            }
            if pod.phase == Phase::Pending {
                g.unready.insert(k.clone());
                continue;
            }
            let Some(sample) = samples.get(k) else {
                g.missing.insert(k.clone());
                continue;
            };
            if is_cpu {
                let unready = match (pod.ready, pod.start_time) {
                    (Some((ready, changed)), Some(start)) => {
                        if start + self.cpu_initialization_period > self.now {
                            !ready || sample.timestamp < changed + sample.window
                        } else {
                            !ready && start + self.initial_readiness_delay > changed
                        }
                    }
                    _ => true,
                };
                if unready {
                    g.unready.insert(k.clone());
                    continue;
                }
            }
            g.ready += 1;
        }
        g
    }
}

#[derive(Default)]
struct Groups {
    ready: usize,
    unready: BTreeSet<String>,
    missing: BTreeSet<String>,
    ignored: BTreeSet<String>,
}

fn clamp_i32(v: f64) -> i32 {
    if v.is_nan() { 0 } else { v.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + secs)
    }

    fn calc() -> Calculator {
        Calculator {
            tolerance: 0.1,
            cpu_initialization_period: Duration::from_secs(300),
            initial_readiness_delay: Duration::from_secs(30),
            now: at(1000),
        }
    }

    /// A running pod started long ago, ready since then, asking for 500m.
    fn settled() -> Pod {
        Pod {
            phase: Phase::Running,
            deleting: false,
            ready: Some((true, at(10))),
            start_time: Some(at(0)),
            request: Ok(500),
        }
    }

    fn sample(value: i64) -> Sample {
        Sample { value, timestamp: at(1000), window: Duration::from_secs(15) }
    }

    fn pods(n: usize) -> BTreeMap<String, Pod> {
        (0..n).map(|i| (format!("m{}/p{i}", i % 2), settled())).collect()
    }

    fn samples(values: &[i64]) -> BTreeMap<String, Sample> {
        values.iter().enumerate().map(|(i, v)| (format!("m{}/p{i}", i % 2), sample(*v))).collect()
    }

    #[test]
    fn utilization_within_the_tolerance_keeps_the_replicas() {
        // 270m of 500m = 54 %, target 50 %: ratio 1.08, within 0.1 of 1.
        let p =
            calc().resource_replicas(2, Target::Utilization(50), true, &pods(2), samples(&[270, 270]), 1.0).unwrap();
        assert_eq!(p, Proposal { replicas: 2, utilization: Some(54), average: 270 });
        // 60 % is outside: ceil(1.2 × 2) = 3.
        let p =
            calc().resource_replicas(2, Target::Utilization(50), true, &pods(2), samples(&[300, 300]), 1.0).unwrap();
        assert_eq!(p.replicas, 3);
        // 90 %: ceil(1.8 × 2) = 4; 10 %: ceil(0.2 × 4) = 1.
        let p =
            calc().resource_replicas(2, Target::Utilization(50), true, &pods(2), samples(&[450, 450]), 1.0).unwrap();
        assert_eq!((p.replicas, p.utilization), (4, Some(90)));
        let p = calc().resource_replicas(4, Target::Utilization(50), true, &pods(4), samples(&[50; 4]), 1.0).unwrap();
        assert_eq!(p.replicas, 1);
    }

    #[test]
    fn average_value_and_calibration() {
        let p =
            calc().resource_replicas(2, Target::AverageValue(200), false, &pods(2), samples(&[400, 400]), 1.0).unwrap();
        assert_eq!((p.replicas, p.average, p.utilization), (4, 400, None));
        // The members run twice the template's replicas (calibration 2): half as many wanted.
        let p =
            calc().resource_replicas(2, Target::AverageValue(200), false, &pods(4), samples(&[400; 4]), 2.0).unwrap();
        assert_eq!(p.replicas, 4);
    }

    #[test]
    fn unready_pods_hold_back_a_scale_up_and_missing_ones_a_scale_down() {
        // Two busy ready pods and two just-started ones (unready): the unready count as idle,
        // and 180 % × 2 over 4 pods is 90 %: below the target, so no change.
        let mut all = pods(4);
        for k in ["m0/p2", "m1/p3"] {
            all.get_mut(k).unwrap().phase = Phase::Pending;
        }
        let p = calc().resource_replicas(4, Target::Utilization(50), true, &all, samples(&[450, 450]), 1.0).unwrap();
        assert_eq!(p.replicas, 4);
        // A pod ready only 5 s ago within its CPU initialization period is unready too.
        let mut fresh = pods(2);
        fresh.get_mut("m1/p1").unwrap().ready = Some((true, at(995)));
        fresh.get_mut("m1/p1").unwrap().start_time = Some(at(990));
        let p = calc().resource_replicas(2, Target::Utilization(50), true, &fresh, samples(&[450, 450]), 1.0).unwrap();
        assert_eq!(p.replicas, 2, "180 % + 0 over two pods is 90 %: not above the target");
        // Scaling down with a pod missing: it counts as using its whole request, so 4 pods at
        // 10 % and one at 100 % give 28 % → ceil(0.56 × 5) = 3, not 1.
        let all = pods(5);
        let p = calc().resource_replicas(5, Target::Utilization(50), true, &all, samples(&[50; 4]), 1.0).unwrap();
        assert_eq!(p.replicas, 3);
    }

    #[test]
    fn no_pods_or_no_samples_or_no_request_are_errors() {
        let calc = calc();
        let none = BTreeMap::new();
        assert!(
            calc.resource_replicas(1, Target::Utilization(50), true, &none, none_samples(), 1.0)
                .unwrap_err()
                .contains("no pods")
        );
        let e = calc.resource_replicas(2, Target::Utilization(50), true, &pods(2), none_samples(), 1.0).unwrap_err();
        assert!(e.contains("did not receive metrics"), "{e}");
        let mut bare = pods(1);
        bare.get_mut("m0/p0").unwrap().request = Err("web".into());
        let e = calc.resource_replicas(1, Target::Utilization(50), true, &bare, samples(&[100]), 1.0).unwrap_err();
        assert!(e.starts_with("missing request for cpu in container web of Pod p0"), "{e}");
    }

    fn none_samples() -> BTreeMap<String, Sample> {
        BTreeMap::new()
    }
}

//! The Job controller: runs up to `parallelism` pods at a time until `completions` pods have
//! succeeded (the simulated kubelet lets every container exit 0), then marks the Job complete.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::batch::v1::Job;
use kube::runtime::controller::Action;
use serde_json::{Value, json};

use super::owned::{self, PodName};
use super::{Sim, readiness, status};

pub async fn reconcile(job: Arc<Job>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some((ns, name, uid)) = owned::identity(job.as_ref()) else { return Ok(super::done()) };
    let Some(spec) = job.spec.as_ref() else { return Ok(super::done()) };
    let current = status::current(&job.status);
    if job.metadata.deletion_timestamp.is_some() || finished(&current) {
        return Ok(super::done());
    }
    if spec.suspend == Some(true) {
        return Ok(super::done());
    }
    let completions = spec.completions.unwrap_or(1).max(0) as usize;
    let parallelism = spec.parallelism.unwrap_or(1).max(0) as usize;
    let Some(pods) = owned::owned_pods(&sim, &uid, spec.selector.as_ref()) else { return Ok(super::waiting()) };
    let succeeded = pods.iter().filter(|p| owned::pod_phase(p) == "Succeeded").count();
    let failed = pods.iter().filter(|p| owned::pod_phase(p) == "Failed").count();
    let active = pods.len() - succeeded - failed;
    let wanted = parallelism.saturating_sub(active).min(completions.saturating_sub(succeeded + active));
    let mut changed = false;
    for _ in 0..wanted {
        let mut labels = BTreeMap::new();
        for key in ["batch.kubernetes.io/controller-uid", "controller-uid"] {
            labels.insert(key.to_string(), uid.clone());
        }
        for key in ["batch.kubernetes.io/job-name", "job-name"] {
            labels.insert(key.to_string(), name.clone());
        }
        let owner = owned::controller_ref(job.as_ref());
        changed |= owned::create_pod(
            &sim,
            &ns,
            &spec.template,
            owner,
            &job.metadata,
            PodName::Generate(name.clone()),
            labels,
            sim.pick_node(),
        )
        .await?;
    }
    if changed {
        // Its status is written once the pods' cache shows this pass's creations and
        // deletions (as the ReplicaSet's): their events bring it back.
        return Ok(super::done());
    }

    readiness::pass_on(&sim.client, &ns, &job.metadata, &pods).await?;
    let ready = pods.iter().filter(|p| owned::pod_ready(p)).count();
    let start = if current["startTime"].is_null() { json!(status::now()) } else { current["startTime"].clone() };
    let mut desired = json!({
        "startTime": start,
        "active": active,
        "succeeded": succeeded,
        "failed": failed,
        "ready": ready,
        "terminating": 0,
    });
    if succeeded >= completions {
        let msg = "Reached expected number of succeeded pods";
        desired["completionTime"] = json!(status::now());
        desired["conditions"] = json!([
            job_condition(&current, "SuccessCriteriaMet", "CompletionsReached", msg),
            job_condition(&current, "Complete", "CompletionsReached", msg),
        ]);
    }
    status::write::<Job>(&sim.client, &ns, &name, &current, desired).await?;
    Ok(super::done())
}

/// Job conditions carry a probe time rather than an update time.
fn job_condition(current: &Value, type_: &str, reason: &str, message: &str) -> Value {
    let mut c = status::condition(current, type_, "True", reason, message);
    if let Some(obj) = c.as_object_mut()
        && obj.remove("lastUpdateTime").is_some()
    {
        obj.insert("lastProbeTime".into(), obj["lastTransitionTime"].clone());
    }
    c
}

fn finished(status: &Value) -> bool {
    status["conditions"].as_array().is_some_and(|cs| {
        cs.iter().any(|c| (c["type"] == "Complete" || c["type"] == "Failed") && c["status"] == "True")
    })
}

//! The CronFederatedHPA controller (upstream's `pkg/controllers/cronfederatedhpa`): each rule
//! that is not suspended gets a timer that sleeps until the rule's next fire time on the
//! engine's [`Clock`], then applies the rule ([`job`]) and records the execution in the status
//! ([`history`]), with a Warning event when it fails.
//!
//! As upstream, the controller looks at an object when its generation changes (the spec, not
//! its status): a changed rule gets a new timer, a suspended one none (its next execution time
//! is cleared), a deleted rule loses its timer and history, and a changed scale target restarts
//! every timer. Timers live in memory: after a restart the next fire time is computed from
//! now, so runs missed while the plane was down are skipped, as gocron skips them upstream.

mod history;
mod job;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use k8s_openapi::api::core::v1::ObjectReference;
use karmadactl_apimachinery::cron::{Schedule, time_zone};
use karmadactl_karmada_api::autoscaling::cron_federated_hpa::{
    API_VERSION, CronFederatedHPA, CronFederatedHPARule, CrossVersionObjectReference,
};
use kube::ResourceExt;
use kube::api::Api;
use kube::runtime::reflector::{ObjectRef, Store};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::context::{Engine, follow};
use crate::events;
use history::Outcome;

/// The component named on this controller's events (upstream's `ControllerName`).
const COMPONENT: &str = "cronfederatedhpa-controller";
/// How long a reconcile that could not write the status waits before it runs again.
const RETRY: Duration = Duration::from_secs(5);

/// A CronFederatedHPA's namespace and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub namespace: String,
    pub name: String,
}

impl Key {
    fn of(c: &CronFederatedHPA) -> Self {
        Self { namespace: c.namespace().unwrap_or_default(), name: c.name_any() }
    }
}

/// When a rule fires: its schedule in its time zone.
#[derive(Clone)]
struct Plan {
    schedule: Schedule,
    tz: TimeZone,
}

impl Plan {
    /// The rule's schedule and zone; the zone defaults to the plane's own, as upstream's
    /// defaults to the controller manager's.
    fn of(rule: &CronFederatedHPARule) -> Result<Self, String> {
        let schedule = rule.schedule.parse::<Schedule>().map_err(|e| format!("invalid cron format: {e}"))?;
        let tz = match &rule.time_zone {
            Some(name) => time_zone(name)?,
            None => TimeZone::system(),
        };
        Ok(Self { schedule, tz })
    }

    fn next(&self, after: Timestamp) -> Option<Timestamp> {
        self.schedule.next(after, &self.tz)
    }
}

/// A rule's running timer, stopped when dropped.
struct Timer {
    rule: CronFederatedHPARule,
    plan: Plan,
    task: JoinHandle<()>,
}

impl Drop for Timer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The timers of one object, and the generation they were set up for.
struct Executors {
    target: CrossVersionObjectReference,
    generation: Option<i64>,
    timers: HashMap<String, Timer>,
}

/// Starts the watch and the controller loop; both stop with the engine.
pub(crate) fn start(engine: &Arc<Engine>) -> JoinHandle<()> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Key>();
    let on = tx.clone();
    let (store, watch) = follow(Api::<CronFederatedHPA>::all(engine.client.clone()), move |c, _| {
        let _ = on.send(Key::of(c));
    });
    engine.spawn(watch);
    let weak = Arc::downgrade(engine);
    tokio::spawn(async move {
        if store.wait_until_ready().await.is_err() {
            return;
        }
        let mut objects: HashMap<Key, Executors> = HashMap::new();
        while let Some(key) = rx.recv().await {
            let Some(engine) = weak.upgrade() else { return };
            if let Err(e) = reconcile(&engine, &store, &mut objects, &key).await {
                tracing::debug!(error = %e, cron_federated_hpa = ?key, "CronFederatedHPA status not written; retrying");
                retry_later(&tx, key);
            }
        }
    })
}

fn retry_later(tx: &UnboundedSender<Key>, key: Key) {
    let tx = tx.clone();
    tokio::spawn(async move {
        tokio::time::sleep(RETRY).await;
        let _ = tx.send(key);
    });
}

/// Brings one object's timers and status in line with its spec.
async fn reconcile(
    engine: &Arc<Engine>,
    store: &Store<CronFederatedHPA>,
    objects: &mut HashMap<Key, Executors>,
    key: &Key,
) -> Result<(), kube::Error> {
    let found = store.get(&ObjectRef::new(&key.name).within(&key.namespace));
    let Some(cron) = found.filter(|c| c.metadata.deletion_timestamp.is_none()) else {
        // Gone or going: its timers stop.
        objects.remove(key);
        return Ok(());
    };
    let target = &cron.spec.scale_target_ref;
    let executors = objects.entry(key.clone()).or_insert_with(|| Executors {
        target: target.clone(),
        generation: None,
        timers: HashMap::new(),
    });
    if executors.generation.is_some() && executors.generation == cron.metadata.generation {
        return Ok(());
    }
    if executors.target != *target {
        executors.timers.clear();
        executors.target = target.clone();
    }
    let clock = engine.config.clock;
    let now = clock.now();
    let mut next_times = Vec::new();
    for rule in &cron.spec.rules {
        if let Some(timer) = executors.timers.get(&rule.name)
            && timer.rule == *rule
        {
            next_times.push((rule.name.clone(), timer.plan.next(now)));
            continue;
        }
        executors.timers.remove(&rule.name);
        if rule.suspended() {
            next_times.push((rule.name.clone(), None));
            continue;
        }
        let plan = match Plan::of(rule) {
            Ok(plan) => plan,
            Err(e) => {
                // Admission refuses such rules; one stored before (or a time zone the
                // database lost) is reported and left without a timer.
                warn(engine, &cron, "StartRuleFailed", &e).await;
                continue;
            }
        };
        let first = plan.next(now);
        let task = tokio::spawn(run(Arc::downgrade(engine), key.clone(), rule.clone(), plan.clone(), first));
        executors.timers.insert(rule.name.clone(), Timer { rule: rule.clone(), plan, task });
        next_times.push((rule.name.clone(), first));
    }
    let names: HashSet<&str> = cron.spec.rules.iter().map(|r| r.name.as_str()).collect();
    executors.timers.retain(|name, _| names.contains(name.as_str()));
    let written = history::write(engine, key, |status| {
        for (rule, next) in &next_times {
            history::set_next(status, rule, *next);
        }
        let deleted: Vec<String> = status
            .execution_histories
            .iter()
            .map(|h| h.rule_name.clone())
            .filter(|r| !names.contains(r.as_str()))
            .collect();
        for rule in deleted {
            history::remove(status, &rule);
        }
    })
    .await;
    match written {
        Ok(_) => {
            executors.generation = cron.metadata.generation;
            Ok(())
        }
        Err(e) => {
            warn(engine, &cron, "UpdateCronFederatedHPAFailed", &e.to_string()).await;
            Err(e)
        }
    }
}

/// A rule's timer: sleep until each fire time, then execute. `first` is the fire time the
/// status was given when the timer started.
async fn run(engine: Weak<Engine>, key: Key, rule: CronFederatedHPARule, plan: Plan, first: Option<Timestamp>) {
    let clock = match engine.upgrade() {
        Some(e) => e.config.clock,
        None => return,
    };
    let mut at = first;
    while let Some(scheduled) = at {
        clock.sleep_until(scheduled).await;
        let Some(engine) = engine.upgrade() else { return };
        if !fire(&engine, &clock, &key, &rule, &plan, scheduled).await {
            return;
        }
        // Fire times that passed while this one ran are skipped, as gocron skips them.
        at = plan.next(clock.now().max(scheduled));
    }
}

/// One execution; false when the object is gone (its timer ends).
async fn fire(
    engine: &Arc<Engine>,
    clock: &Clock,
    key: &Key,
    rule: &CronFederatedHPARule,
    plan: &Plan,
    scheduled: Timestamp,
) -> bool {
    let api: Api<CronFederatedHPA> = Api::namespaced(engine.client.clone(), &key.namespace);
    let cron = match api.get_opt(&key.name).await {
        Ok(Some(c)) => c,
        Ok(None) => return false,
        Err(e) => {
            // Upstream skips the run too: there is no object to record it on.
            tracing::debug!(error = %e, cron_federated_hpa = ?key, rule = rule.name, "could not read; run skipped");
            return true;
        }
    };
    let outcome = match job::apply(engine, &cron, rule).await {
        Ok(()) => Outcome::Applied,
        Err(message) => {
            warn(engine, &cron, "ScaleFailed", &message).await;
            Outcome::Failed(message)
        }
    };
    let ran = clock.now();
    let next = plan.next(ran.max(scheduled));
    let written = history::write(engine, key, |status| {
        history::record(status, rule, &outcome, scheduled, ran, next);
    })
    .await;
    match written {
        Ok(exists) => exists,
        Err(e) => {
            warn(engine, &cron, "UpdateStatusFailed", &e.to_string()).await;
            true
        }
    }
}

async fn warn(engine: &Engine, cron: &CronFederatedHPA, reason: &str, message: &str) {
    let target = ObjectReference {
        api_version: Some(API_VERSION.into()),
        kind: Some("CronFederatedHPA".into()),
        name: cron.metadata.name.clone(),
        namespace: cron.metadata.namespace.clone(),
        uid: cron.metadata.uid.clone(),
        ..Default::default()
    };
    events::record(engine, target, events::WARNING, COMPONENT, reason, message).await;
}

//! Leader election among control plane replicas that share one etcd.
//!
//! Every replica serves the API; the loops and controllers (the API server's garbage collector,
//! namespace finalizer and token loops, the cluster controller, the engine) run only on the replica
//! holding the coordination.k8s.io Lease `kube-system/karmadactl-controlplane`, as
//! kube-controller-manager does with its own lease. The holder renews the lease every third of
//! its duration; another replica takes it over once it has seen no renewal for a whole
//! duration (measured on its own clock, so clock skew between machines does not matter), and
//! a holder that cannot renew within two thirds of the duration stops its controllers before
//! anyone else may start them.
//!
//! With the SQLite datastore only one replica can exist, so there is no election and the
//! controllers simply run.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use kube::Api;
use kube::api::{ObjectMeta, PostParams};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

pub const LEASE_NAMESPACE: &str = "kube-system";
pub const LEASE_NAME: &str = "karmadactl-controlplane";

/// The election side of a leadership gate (`apiserver::leading::Leading`): it says through a
/// watch channel whether this replica holds the lease. Started once the replica has a client.
pub struct Elector(watch::Sender<bool>);

/// An elector and the receiver a `Leading` gate follows; nothing leads until the elector wins.
pub fn elector() -> (Elector, watch::Receiver<bool>) {
    let (tx, rx) = watch::channel(false);
    (Elector(tx), rx)
}

impl Elector {
    /// Campaigns for the lease until [`Campaign::resign`].
    pub fn start(self, client: kube::Client, identity: String, lease_duration: Duration) -> Campaign {
        let api = Api::namespaced(client, LEASE_NAMESPACE);
        let task = tokio::spawn(campaign(self.0.clone(), api.clone(), identity.clone(), lease_duration));
        Campaign { task, leading: self.0, api, identity }
    }
}

/// A replica's campaign for the lease, running until it resigns.
pub struct Campaign {
    task: JoinHandle<()>,
    leading: watch::Sender<bool>,
    api: Api<Lease>,
    identity: String,
}

impl Campaign {
    /// Stops campaigning and this replica's controllers, and hands a held lease back (an
    /// empty holder, which the other replicas take at their next round rather than after a
    /// whole lease duration without renewal), as client-go's `ReleaseOnCancel` does. The
    /// server must still serve: the lease is written through it. A release that fails or
    /// takes longer than `within` leaves the lease to expire as after a crash.
    pub async fn resign(self, within: Duration) {
        self.task.abort();
        // No renewal of the aborted round can land after the release.
        let _ = self.task.await;
        if !self.leading.send_replace(false) {
            return;
        }
        match tokio::time::timeout(within, release(&self.api, &self.identity)).await {
            Ok(Ok(true)) => tracing::info!(identity = self.identity, "released the controller lease"),
            Ok(Ok(false)) => {}
            Ok(Err(err)) => tracing::warn!(error = %err, "could not release the controller lease; it expires instead"),
            Err(_) => tracing::warn!("releasing the controller lease took too long; it expires instead"),
        }
    }
}

/// Empties the lease's holder when this replica holds it; says whether it did.
async fn release(api: &Api<Lease>, identity: &str) -> Result<bool, kube::Error> {
    let Some(mut lease) = api.get_opt(LEASE_NAME).await? else { return Ok(false) };
    let spec = lease.spec.get_or_insert_with(LeaseSpec::default);
    if spec.holder_identity.as_deref() != Some(identity) {
        return Ok(false);
    }
    spec.holder_identity = Some(String::new());
    spec.lease_duration_seconds = Some(1);
    spec.renew_time = Some(MicroTime(jiff::Timestamp::now()));
    conflict_is_false(api.replace(LEASE_NAME, &PostParams::default(), &lease).await)
}

/// `<hostname>_<address>`: unique per replica and says where to find it.
pub fn identity(address: &str) -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname NUL-terminates within it or
    // truncates, and the name is cut at the first NUL below.
    let host = if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
        let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).into_owned()
    } else {
        "unknown".to_string()
    };
    format!("{host}_{address}")
}

/// What the lease looked like when this replica last saw it change, and when that was.
struct Observed {
    version: Option<String>,
    at: Instant,
}

async fn campaign(leading: watch::Sender<bool>, api: Api<Lease>, identity: String, duration: Duration) {
    let duration = duration.max(Duration::from_secs(1));
    let renew_every = duration / 3;
    let renew_deadline = duration * 2 / 3;
    let mut observed: Option<Observed> = None;
    let mut renewed_at: Option<Instant> = None;
    loop {
        match try_acquire_or_renew(&api, &identity, duration, &mut observed).await {
            Ok(true) => {
                renewed_at = Some(Instant::now());
                if !*leading.borrow() {
                    tracing::info!(identity, "won the controller lease; starting the controllers");
                    leading.send_replace(true);
                }
            }
            Ok(false) => {
                renewed_at = None;
                if leading.send_replace(false) {
                    tracing::warn!(identity, "another replica holds the controller lease; stopping the controllers");
                }
            }
            Err(err) => {
                tracing::warn!(error = %err, "could not reach the controller lease");
                // Stop before anyone else may start: they wait a whole duration, this only
                // two thirds of one.
                if renewed_at.is_some_and(|at| at.elapsed() >= renew_deadline) && leading.send_replace(false) {
                    tracing::warn!(identity, "could not renew the controller lease in time; stopping the controllers");
                }
            }
        }
        tokio::time::sleep(renew_every).await;
    }
}

/// One round: takes the lease when it is free or expired, renews it when held, and says
/// whether this replica holds it now.
async fn try_acquire_or_renew(
    api: &Api<Lease>,
    identity: &str,
    duration: Duration,
    observed: &mut Option<Observed>,
) -> Result<bool, kube::Error> {
    let now = MicroTime(jiff::Timestamp::now());
    let seconds = i32::try_from(duration.as_secs()).unwrap_or(i32::MAX);
    let Some(mut lease) = api.get_opt(LEASE_NAME).await? else {
        let lease = Lease {
            metadata: ObjectMeta { name: Some(LEASE_NAME.into()), ..ObjectMeta::default() },
            spec: Some(LeaseSpec {
                holder_identity: Some(identity.into()),
                lease_duration_seconds: Some(seconds),
                acquire_time: Some(now.clone()),
                renew_time: Some(now),
                lease_transitions: Some(0),
                ..LeaseSpec::default()
            }),
        };
        return conflict_is_false(api.create(&PostParams::default(), &lease).await);
    };
    let version = lease.metadata.resource_version.clone();
    if observed.as_ref().is_none_or(|o| o.version != version) {
        *observed = Some(Observed { version, at: Instant::now() });
    }
    let spec = lease.spec.get_or_insert_with(LeaseSpec::default);
    let holder = spec.holder_identity.clone().unwrap_or_default();
    let held_for = spec.lease_duration_seconds.map_or(duration, |s| Duration::from_secs(u64::try_from(s).unwrap_or(0)));
    let unchanged_since = observed.as_ref().map_or_else(Instant::now, |o| o.at);
    let expired = holder.is_empty() || unchanged_since.elapsed() >= held_for;
    if holder != identity && !expired {
        return Ok(false);
    }
    if holder != identity {
        tracing::info!(previous = holder, "the controller lease expired; taking it over");
        spec.acquire_time = Some(now.clone());
        spec.lease_transitions = Some(spec.lease_transitions.unwrap_or(0) + 1);
    }
    spec.holder_identity = Some(identity.into());
    spec.lease_duration_seconds = Some(seconds);
    spec.renew_time = Some(now);
    // The replace carries the resourceVersion read above: if another replica wrote the lease
    // in between, it is refused and this round is lost.
    conflict_is_false(api.replace(LEASE_NAME, &PostParams::default(), &lease).await)
}

fn conflict_is_false(result: Result<Lease, kube::Error>) -> Result<bool, kube::Error> {
    match result {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(status)) if status.code == 409 => Ok(false),
        Err(err) => Err(err),
    }
}

//! Multi-cluster services: upstream's `pkg/controllers/mcs` (ServiceExport, EndpointSlice and
//! ServiceImport controllers) and `pkg/controllers/multiclusterservice` (MultiClusterService
//! with type CrossCluster), plus a plain statement for what the plane does not implement
//! (MultiClusterService type LoadBalancer, MultiClusterIngress).
//!
//! * [`collect`]: the EndpointSlices of a Service exported (ServiceExport) in a member become
//!   `imported-<cluster>-<slice>` in the plane, labelled for `derived-<service>`; a
//!   ServiceImport gets its `derived-<name>` Service in the plane.
//! * [`dispatch`]: Works put the derived Service and the imported slices into every member a
//!   ServiceImport is propagated to, and a CrossCluster MultiClusterService's Service and its
//!   providers' slices into its consumers; the execution controller applies and removes them.
//! * [`status`]: MultiClusterService conditions, and the Warning for MultiClusterIngress.
//!
//! Everything is one pass over caches (plane watches, and per member watches on
//! EndpointSlices and ServiceExports where they are needed), run once changes pause for a
//! moment: a Deployment scaling in a member is one pass, not one per pod.

mod collect;
mod dispatch;
mod kinds;
mod members;
mod status;

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::discovery::v1::EndpointSlice;
use karmadactl_karmada_api::work::Work;
use kube::api::{Api, DynamicObject};
use kube::runtime::reflector::Store;
use kube::runtime::watcher;

use super::context::{Engine, follow_config, follow_dynamic};
pub(crate) use kinds::concerns_work;

/// How long a pass waits after a change for more changes to arrive.
const COALESCE: Duration = Duration::from_millis(200);
/// How long a failed pass waits before it runs again.
const RETRY: Duration = Duration::from_secs(1);
/// A pass runs at least this often, as a safety net for a missed change.
const RESYNC: Duration = Duration::from_secs(30);

/// The plane-side caches the passes read.
pub(crate) struct PlaneCaches {
    pub imports: Store<DynamicObject>,
    pub services: Store<DynamicObject>,
    pub ingresses: Store<DynamicObject>,
    /// The slices [`collect`] wrote (selected by their managed-by label).
    pub imported: Store<EndpointSlice>,
}

/// Starts the watches and the pass loop; runs until the engine goes.
pub(crate) fn start(engine: &Arc<Engine>) -> tokio::task::JoinHandle<()> {
    let wake = engine.mcs_wake.clone();
    let on = move || {
        let wake = wake.clone();
        move |_: &DynamicObject, _| wake.notify_one()
    };
    let cfg = watcher::Config::default;
    let client = &engine.client;
    let (imports, t1) =
        follow_dynamic(Api::all_with(client.clone(), &kinds::service_import()), kinds::service_import(), cfg(), on());
    let (services, t2) = follow_dynamic(
        Api::all_with(client.clone(), &kinds::multi_cluster_service()),
        kinds::multi_cluster_service(),
        cfg(),
        on(),
    );
    let (ingresses, t3) = follow_dynamic(
        Api::all_with(client.clone(), &kinds::multi_cluster_ingress()),
        kinds::multi_cluster_ingress(),
        cfg(),
        on(),
    );
    let wake = engine.mcs_wake.clone();
    let selector = format!("{}={}", kinds::LABEL_MANAGED_BY, kinds::MANAGED_BY_COLLECT);
    let (imported, t4) = follow_config(
        Api::<EndpointSlice>::all(client.clone()),
        cfg().labels(&selector),
        move |_: &EndpointSlice, _| wake.notify_one(),
    );
    engine.spawn(t1);
    engine.spawn(t2);
    engine.spawn(t3);
    engine.spawn(t4);
    let caches = PlaneCaches { imports, services, ingresses, imported };
    let weak = Arc::downgrade(engine);
    tokio::spawn(async move {
        for s in [&caches.imports, &caches.services, &caches.ingresses] {
            if s.wait_until_ready().await.is_err() {
                return;
            }
        }
        if caches.imported.wait_until_ready().await.is_err() {
            return;
        }
        let watches = members::Watches::default();
        let mut memo = collect::Memo::default();
        loop {
            let Some(engine) = weak.upgrade() else { return };
            let wake = engine.mcs_wake.clone();
            let failed = pass(&engine, &caches, &watches, &mut memo).await.err();
            drop(engine);
            if let Some(e) = failed {
                tracing::debug!(error = %e, "multi-cluster service pass failed; it runs again");
                tokio::time::sleep(RETRY).await;
                wake.notify_one();
            }
            let _ = tokio::time::timeout(RESYNC, wake.notified()).await;
            tokio::time::sleep(COALESCE).await;
        }
    })
}

/// One pass: member watches in line with what is exported and provided, then the plane's
/// slices and derived Services, then the Works, then the statuses.
async fn pass(
    engine: &Arc<Engine>,
    caches: &PlaneCaches,
    watches: &members::Watches,
    memo: &mut collect::Memo,
) -> Result<(), kube::Error> {
    // Only the Works a pass can concern: decoding every Work each pass would cost a parse per
    // workload and member. Others are looked up by name where a pass needs them (`foreign`).
    let works: Vec<Arc<Work>> = engine.caches.works.filtered(kinds::may_concern_work);
    let seen = kinds::Propagated::from_works(&works);
    let services = kinds::CrossCluster::all(engine, &caches.services);
    let mut wanted = seen.exporting.clone();
    for s in services.iter().filter(|s| s.cross_cluster) {
        wanted.extend(s.providers.iter().cloned());
    }
    watches.keep(engine, &wanted, &seen.exporting).await;
    let mut result = collect::imported_slices(engine, caches, watches, &seen.exporting).await;
    result = result.and(collect::derived_services(engine, caches, memo).await);
    let dispatched = dispatch::sync(engine, caches, watches, &seen, &services, &works).await;
    status::services(engine, &services, &dispatched).await?;
    status::ingresses(engine, caches, memo).await;
    result.and(dispatched.result)
}

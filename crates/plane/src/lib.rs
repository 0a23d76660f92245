//! The plane's composition root: the one place that assembles a running control plane. It
//! starts the API server (which opens the store and starts its own loops), then the leader
//! election, the controllers that are the server's clients, the engine and the workload
//! simulator, and returns one handle that stops them all. Nothing below this module starts
//! another layer: the server knows no controller, and the controllers and the engine know the
//! server only through its API.
//!
//! This crate is the only one that depends on both the API server and its clients (`apiserver`,
//! `controllers`, `engine`, `simulator`, `store`, `pki`); the CLI starts a plane through
//! [`start`] and nothing else.

mod simulated_kubelet;

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;

use karmadactl_apiserver::leading::Leading;
use karmadactl_apiserver::{Profile, RunningServer, ServerConfig, ServerError};
use karmadactl_controllers::{cluster::ClusterControllerConfig, leader};
use karmadactl_simulator::SimulationConfig;

/// Everything a plane is started with: the server's configuration and what the plane adds on
/// top of it.
#[derive(Debug, Clone)]
pub struct PlaneConfig {
    pub server: ServerConfig,
    /// With etcd, how long the controller lease lasts without renewal before another replica
    /// takes the controllers over.
    pub leader_lease: Duration,
    /// How the Karmada profile's cluster controller probes members.
    pub cluster_controller: ClusterControllerConfig,
    /// Simulate nodes and workloads (simulated member clusters only): controllers that make
    /// pods report Running as kubelets would. No container ever runs.
    pub simulation: Option<SimulationConfig>,
    /// The engine's feature gates and failover flags.
    pub engine: karmadactl_engine::config::EngineConfig,
}

impl PlaneConfig {
    pub fn new(server: ServerConfig) -> Self {
        Self {
            server,
            leader_lease: Duration::from_secs(3),
            cluster_controller: Default::default(),
            simulation: None,
            engine: Default::default(),
        }
    }
}

/// A running plane. Dropping it does not stop it; call [`Plane::shutdown`].
pub struct Plane {
    pub server: RunningServer,
    /// The client-side controllers, the engine and the simulator.
    background: Vec<JoinHandle<()>>,
    /// With etcd, this replica's campaign for the controller lease.
    campaign: Option<karmadactl_controllers::leader::Campaign>,
}

impl Plane {
    /// Gives up the controller lease (etcd), stops the server (no new requests, in-flight ones
    /// finish for up to `grace`, its loops stop), then everything that was its client.
    pub async fn shutdown(self, grace: Duration) {
        // While the server still serves: the lease is written through it.
        if let Some(campaign) = self.campaign {
            campaign.resign(grace).await;
        }
        self.server.shutdown(grace).await;
        for task in self.background {
            task.abort();
        }
    }
}

/// Starts the plane. With the Karmada profile it returns once `kube-public/cluster-info`
/// exists, since members discover the plane through it.
pub async fn start(config: PlaneConfig) -> Result<Plane, ServerError> {
    // Controllers run on every replica of one SQLite store (there is one), and only on the
    // lease holder among replicas sharing an etcd.
    let (leading, elector) = match config.server.datastore {
        karmadactl_store::Datastore::Etcd(_) => {
            let (elector, leads) = leader::elector();
            (Leading::following(leads), Some(elector))
        }
        karmadactl_store::Datastore::Sqlite => (Leading::always(), None),
    };
    let mut server_config = config.server.clone();
    if config.simulation.is_some() {
        if server_config.kubelet.is_none() {
            let cluster = server_config.kubeconfig_context.clone();
            server_config.kubelet = Some(Arc::new(simulated_kubelet::SimulatedKubelet { cluster }));
        }
        // A simulated member's metrics.k8s.io reports the simulator's figures.
        server_config.simulated_metrics = Some(karmadactl_apiserver::config::SimulatedMetrics {
            container: karmadactl_simulator::metrics::container_usage,
            node: karmadactl_simulator::metrics::node_usage,
            utilization_annotations: (
                karmadactl_simulator::metrics::CPU_UTILIZATION_ANNOTATION,
                karmadactl_simulator::metrics::MEMORY_UTILIZATION_ANNOTATION,
            ),
            parse_utilization: karmadactl_simulator::metrics::parse_utilization,
        });
    }
    let server = karmadactl_apiserver::start(server_config, leading.clone()).await?;
    let client = server.client.clone();
    let mut background = Vec::new();
    let mut campaign = None;
    if let Some(elector) = elector {
        let identity = leader::identity(&server.address.to_string());
        campaign = Some(elector.start(client.clone(), identity, config.leader_lease));
    }
    if let Some(sim) = config.simulation.clone() {
        background.extend(karmadactl_simulator::spawn(
            client.clone(),
            sim,
            &config.server.kubeconfig_context,
            &config.server.kubernetes_version,
        ));
    }
    if config.server.profile == Profile::Karmada
        && let Err(e) = karmada_controllers(&server, &config, &leading, &mut background).await
    {
        // Nothing of a half-started plane keeps running.
        Plane { server, background, campaign }.shutdown(Duration::ZERO).await;
        return Err(e);
    }
    Ok(Plane { server, background, campaign })
}

/// The controllers of karmada-controller-manager and the engine, all clients of the server.
async fn karmada_controllers(
    server: &RunningServer,
    config: &PlaneConfig,
    leading: &Leading,
    tasks: &mut Vec<JoinHandle<()>>,
) -> Result<(), ServerError> {
    let client = server.client.clone();
    let cluster_info =
        karmadactl_controllers::bootstrap_signer::cluster_info_kubeconfig(&server.url, server.ca.cert_pem());
    // Members discover the plane through cluster-info, so it exists before start returns.
    karmadactl_controllers::bootstrap_signer::ensure_cluster_info(&client, &cluster_info)
        .await
        .map_err(|e| ServerError::Bootstrap(format!("creating kube-public/cluster-info: {e}")))?;
    tasks.push(leading.spawn({
        let client = client.clone();
        move || karmadactl_controllers::bootstrap_signer::run(client.clone(), cluster_info.clone())
    }));
    tasks.push(leading.spawn({
        let client = client.clone();
        move || karmadactl_controllers::token_cleaner::run(client.clone())
    }));
    // Pull-mode registration: agents' certificate requests are approved and signed here.
    tasks.push(leading.spawn({
        let client = client.clone();
        move || karmadactl_controllers::csr_approver::run(client.clone())
    }));
    let signer_ca =
        Arc::new(karmadactl_pki::CertificateAuthority::from_pem(server.ca.cert_pem(), &server.ca.key_pem())?);
    let leaf_validity = config.server.leaf_validity;
    tasks.push(leading.spawn({
        let client = client.clone();
        move || karmadactl_controllers::csr_signer::run(client.clone(), signer_ca.clone(), leaf_validity)
    }));
    let cluster_config = config.cluster_controller;
    tasks.push(leading.spawn({
        let client = client.clone();
        move || karmadactl_controllers::cluster::run(client.clone(), cluster_config)
    }));
    let engine_config = config.engine.clone();
    tasks.push(leading.spawn(move || {
        karmadactl_engine::run(client.clone(), engine_config.clone(), karmadactl_apiserver::freed_memory::release)
    }));
    Ok(())
}

//! Starting and stopping one API server: data dir, PKI, store, bootstrap objects, the server's
//! own loops (caches, garbage collector, namespace finalizer, service-account tokens), the
//! listener and the admin kubeconfig. The controllers that are its clients, the engine and the
//! simulator are started by the plane (the `karmadactl-plane` crate), never here.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use karmadactl_store::{CompactionPolicy, Store, spawn_compactor};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::auth::{RbacSnapshot, ServiceAccountTokens, key_id_for};
use crate::leading::Leading;
use crate::loops::{self, follow};
use karmadactl_kubeconfig::KubeconfigBuilder;

use crate::config::{Profile, ServerConfig};
use crate::filters::metrics::Metrics;
use crate::pki::PlanePki;
use crate::state::ApiState;
use crate::{filters::dispatch, transport::in_process, transport::listener, transport::tls};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The data directory could not be created or is not usable.
    #[error("the data directory {} cannot be used", path.display())]
    DataDir {
        path: PathBuf,
        #[source]
        source: crate::private_files::PrivateDirError,
    },
    /// The PKI could not be loaded or created.
    #[error("the control plane's certificates could not be loaded or created")]
    Pki(#[from] karmadactl_pki::PkiError),
    /// The store could not be opened.
    #[error("the store could not be opened")]
    Store(#[from] karmadactl_store::StoreError),
    /// The listen address is taken or not allowed.
    #[error("cannot listen on {addr}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    /// The TLS configuration was refused.
    #[error("the TLS configuration is invalid")]
    Tls(#[from] tls::TlsError),
    /// The service-account token signer could not be built.
    #[error("the service-account token signer could not be built")]
    Tokens(#[from] crate::auth::AuthError),
    /// Bootstrap objects could not be written.
    #[error("bootstrap objects could not be created: {0}")]
    Bootstrap(String),
    /// The admin kubeconfig could not be written.
    #[error("the admin kubeconfig could not be written")]
    Kubeconfig(#[from] karmadactl_kubeconfig::KubeconfigError),
    /// The in-process client for the server's loops and the plane's controllers could not be
    /// built.
    #[error("the controllers' client could not be built")]
    Client(#[source] crate::transport::in_process::InProcessError),
}

impl ServerError {
    pub fn hint(&self) -> Option<String> {
        match self {
            ServerError::Bind { .. } => Some("pick another --listen address, or stop what is using this one.".into()),
            ServerError::DataDir { .. } => Some("check that the data directory is writable by this user.".into()),
            ServerError::Store(karmadactl_store::StoreError::Backend(_)) => Some(
                "with --datastore etcd://, check that etcd is reachable (and the --etcd-* TLS files); otherwise another control plane may be using this data directory: stop it or use another --data-dir.".into(),
            ),
            _ => None,
        }
    }
}

/// A running server. Dropping it does not stop it; call [`RunningServer::shutdown`].
pub struct RunningServer {
    pub address: SocketAddr,
    /// `https://<address>` as clients reach it.
    pub url: String,
    pub admin_kubeconfig: PathBuf,
    pub state: Arc<ApiState>,
    /// What the PKI created on this start (empty when everything was reused).
    pub created_pki: Vec<String>,
    /// The plane's CA, which also signs the certificates agents request.
    pub ca: karmadactl_pki::CertificateAuthority,
    /// An in-process client with the admin credentials, for the server's loops and the
    /// plane's controllers; it names itself by [`CONTROLLER_USER_AGENT`].
    pub client: kube::Client,
    stop: watch::Sender<bool>,
    server: JoinHandle<()>,
    background: Vec<JoinHandle<()>>,
}

impl RunningServer {
    /// Stops accepting, lets in-flight requests finish for up to `grace`, stops the server's
    /// loops, and closes the store.
    pub async fn shutdown(self, grace: Duration) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(grace, self.server).await;
        for task in self.background {
            task.abort();
        }
    }
}

/// Starts the server; its leader-only loops (garbage collector, namespace finalizer,
/// service-account tokens) run while `leading` says this replica leads.
pub async fn start(config: ServerConfig, leading: Leading) -> Result<RunningServer, ServerError> {
    create_private_dir(&config.data_dir)?;
    let mut names = config.serving_names.clone();
    names.ips.push(config.listen.ip());
    names.ips.extend(config.advertise_address);
    let pki = PlanePki::load_or_create(&config.pki_dir(), &names, config.leaf_validity)?;
    let store: Arc<dyn Store> = config
        .datastore
        .open(
            &config.store_path(),
            karmadactl_store::sqlite::SqliteOptions { synchronous: config.sqlite_synchronous, ..Default::default() },
        )
        .await?;
    let tokens = ServiceAccountTokens::new(
        &pki.service_account_key,
        "https://kubernetes.default.svc.cluster.local".to_string(),
        key_id_for(&pki.service_account_key),
    )?;
    let state = Arc::new(ApiState {
        config: config.clone(),
        store: store.clone(),
        registry: RwLock::new(config.base_registry()),
        rbac: RwLock::new(Arc::new(RbacSnapshot::new(vec![], vec![], vec![], vec![]))),
        sa_tokens: tokens,
        token_cache: Default::default(),
        metrics: Arc::new(Metrics::default()),
        ca_pem: pki.ca.cert_pem().to_string(),
        crds_synced: AtomicBool::new(false),
        rbac_synced: AtomicBool::new(false),
        member_clients: Default::default(),
        namespaces: Default::default(),
        inflight: crate::filters::inflight::InflightLimiter::new(config.inflight),
        list_budget: crate::filters::list_budget::ListBudget::new(config.max_list_bytes),
        dashboard: crate::dashboard::Sessions::new(config.dashboard),
        quota_locks: Default::default(),
    });

    // History is kept for the configured window only; compaction runs a few times per window
    // (at least once a minute) so the window is honoured closely.
    let interval = (config.watch_history / 4).clamp(Duration::from_millis(250), Duration::from_secs(60));
    let mut background = vec![spawn_compactor(
        store.clone(),
        CompactionPolicy { interval, keep_for: config.watch_history, keep_revisions: 0 },
    )];
    loops::bootstrap::run(&state).await.map_err(|e| ServerError::Bootstrap(e.message.clone()))?;
    if config.profile == Profile::Karmada {
        loops::karmada_bootstrap::run(&state).await.map_err(|e| ServerError::Bootstrap(e.message.clone()))?;
    }
    // On every replica: each keeps its own token cache.
    background.push(tokio::spawn(crate::filters::token_cache::follow_revocations(state.clone())));
    let (crd_tx, crd_rx) = tokio::sync::oneshot::channel();
    background.push(tokio::spawn(follow::run(state.clone(), loops::crd::PREFIX.into(), loops::crd::CrdCache, crd_tx)));
    let (rbac_tx, rbac_rx) = tokio::sync::oneshot::channel();
    background.push(tokio::spawn(follow::run(
        state.clone(),
        loops::rbac::PREFIX.into(),
        loops::rbac::RbacCache,
        rbac_tx,
    )));
    // On every replica, like the token cache; admission falls back to the store until it syncs.
    background.push(tokio::spawn(follow::run(
        state.clone(),
        loops::namespace::PREFIX.into(),
        crate::storage::active_namespaces::Follow,
        tokio::sync::oneshot::channel().0,
    )));
    background.push(leading.spawn({
        let state = state.clone();
        move || loops::gc::run(state.clone())
    }));
    background.push(leading.spawn({
        let state = state.clone();
        move || loops::namespace::run(state.clone())
    }));
    // Serve only once authorization and the served resources reflect the store.
    let _ = crd_rx.await;
    let _ = rbac_rx.await;
    // Bootstrap decoded every built-in CRD manifest; what it freed is not needed again.
    crate::freed_memory::release();

    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServerError::Bind { addr: config.listen, source })?;
    let address = listener.local_addr().map_err(|source| ServerError::Bind { addr: config.listen, source })?;
    let url = client_url(address, config.advertise_address);
    let tls_config = tls::server_config(&pki.serving.cert_pem, &pki.serving.key_pem, pki.ca.cert_pem())?;
    let (stop, stop_rx) = watch::channel(false);
    let router = dispatch::router(state.clone());
    let client = in_process::client(router.clone(), &pki.admin.cert_pem, CONTROLLER_USER_AGENT, stop_rx.clone())
        .map_err(ServerError::Client)?;
    let server =
        tokio::spawn(listener::serve(listener, tls_config, router, config.connections, state.metrics.clone(), stop_rx));

    let admin_user = match config.profile {
        Profile::Karmada => karmadactl_karmada_api::wellknown::KARMADA_ADMIN_USER.to_string(),
        Profile::Kubernetes => format!("{}-admin", config.kubeconfig_context),
    };
    let kubeconfig = KubeconfigBuilder::new(&config.kubeconfig_context, &admin_user, url.clone())
        .context(&config.kubeconfig_context)
        .certificate_authority(pki.ca.cert_pem().as_bytes().to_vec())
        .client_certificate(pki.admin.cert_pem.as_bytes().to_vec(), pki.admin.key_pem.as_bytes().to_vec())
        .build();
    let admin_kubeconfig = config.admin_kubeconfig_path();
    karmadactl_kubeconfig::write_file(&admin_kubeconfig, &kubeconfig)?;

    background.push(leading.spawn({
        let (client, state) = (client.clone(), state.clone());
        move || loops::serviceaccount_token::run(client.clone(), state.clone())
    }));

    Ok(RunningServer {
        address,
        url,
        admin_kubeconfig,
        state,
        created_pki: pki.created,
        ca: pki.ca,
        client,
        stop,
        server,
        background,
    })
}

/// The URL clients use: the advertised address when there is one, else the listen address,
/// where an unspecified one is reached on loopback.
fn client_url(addr: SocketAddr, advertise: Option<IpAddr>) -> String {
    let ip = match advertise.unwrap_or(addr.ip()) {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        ip => ip,
    };
    karmadactl_kubeconfig::https_server_url(&ip.to_string(), addr.port())
}

/// The user agent of the plane's own controllers; its part before `/` is their manager name.
pub const CONTROLLER_USER_AGENT: &str = concat!("karmadactl-controlplane/", env!("CARGO_PKG_VERSION"));

/// The data directory holds the store (secrets, bootstrap tokens) and private keys: it is made
/// owner-only (0700), also when it already existed with a wider mode.
fn create_private_dir(path: &std::path::Path) -> Result<(), ServerError> {
    crate::private_files::adopt_dir(path).map_err(|source| ServerError::DataDir { path: path.to_path_buf(), source })
}

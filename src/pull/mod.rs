//! Pull mode from the member's side: `register` (discovery, TLS bootstrap, the agent's RBAC in
//! the plane, and the agent itself, deployed into the member or run on this machine) and
//! `unregister`.

pub mod agent_ready;
pub mod certificate;
pub mod discovery;
pub mod local_agent;
pub mod member_agent;
pub mod objects;
mod plane_gone;
pub mod plane_rbac;
mod register;
mod unregister;

pub use plane_gone::{LocalSide, plane_unreachable};
pub use register::{AgentMode, RegisterOptions, register};
pub use unregister::{UnregisterOptions, karmada_client, unregister};

use kube::Client;

use crate::kubeconfig::KubeconfigBuilder;

/// The user of a kubeconfig register builds: `<cluster>` with context
/// `<cluster>@karmada-apiserver`, as upstream names them.
pub fn agent_kubeconfig(
    server: &str,
    ca_pem: &[u8],
    cluster: &str,
    cert: &certificate::ClientCertificate,
) -> kube::config::Kubeconfig {
    KubeconfigBuilder::new("karmada-apiserver", cluster, server)
        .context(format!("{cluster}@karmada-apiserver"))
        .certificate_authority(ca_pem.to_vec())
        .client_certificate(cert.cert_pem.clone(), cert.key_pem.clone())
        .build()
}

/// A client from a self-contained kubeconfig, with bounded connects and requests.
pub async fn client_from(kubeconfig: &kube::config::Kubeconfig) -> anyhow::Result<Client> {
    let mut config =
        kube::Config::from_custom_kubeconfig(kubeconfig.clone(), &kube::config::KubeConfigOptions::default()).await?;
    config.connect_timeout = Some(crate::membership::connect::CONNECT_TIMEOUT);
    config.read_timeout = Some(crate::membership::connect::REQUEST_TIMEOUT);
    Ok(Client::try_from(config)?)
}

//! The Pull-mode pieces more than one place needs: the agent's RBAC in the plane (also checked
//! by the plane's admission), TLS bootstrap, the agent deployed into the member or run on this
//! machine (`local down` stops it too), and the objects both commands manage. The steps of
//! `register` and `unregister` themselves live in `src/cmd/register/` and `src/cmd/unregister/`.

pub mod certificate;
pub mod local_agent;
pub mod member_agent;
pub mod objects;

/// The agent's RBAC in the plane; the plane's admission checks the same objects.
pub use karmadactl_karmada_api::agent_rbac as plane_rbac;

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

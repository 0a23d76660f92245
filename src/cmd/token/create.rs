//! `token create`: a bootstrap token Secret in the plane, and optionally the `register`
//! command a member runs with it.

use base64::Engine;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use karmadactl_pki::token::{self, BootstrapToken, SECRET_NAMESPACE, TokenSecret};
use kube::Api;
use kube::api::PostParams;

use super::TokenCreateArgs;
use super::errors::TokenCommandError;
use crate::cli::Context;
use crate::membership::Connection;
use crate::membership::errors::classify;
use karmadactl_controllers::bootstrap_signer::{CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, KUBECONFIG_KEY};

pub fn run(args: TokenCreateArgs, ctx: &Context) -> anyhow::Result<()> {
    // Everything the user typed is checked before the kubeconfig is read.
    let ttl = super::super::parse_duration("ttl", &args.ttl)?;
    token::validate_usages(&args.usages)?;
    for group in &args.groups {
        token::validate_group(group)?;
    }
    let expiration = token::expiration_from_ttl(jiff::Timestamp::now(), ttl)?;
    args.karmada.resolve()?;
    let record = TokenSecret {
        token: BootstrapToken::generate()?,
        description: args.description.clone().unwrap_or_default(),
        expiration,
        usages: args.usages.clone(),
        groups: args.groups.clone(),
    };
    let line = super::runtime()?.block_on(async {
        let plane = args.karmada.connect().await?;
        // Found before the token is created, so a plane whose address or CA cannot be told
        // gets no token nobody can use.
        let register = match args.print_register_command {
            true => Some(register_target(&plane).await?),
            false => None,
        };
        create(&plane, &record).await?;
        if register.is_some() && record.usages.iter().any(|u| u == "signing") {
            wait_signed(&plane, record.token.id(), ctx).await;
        }
        let token = record.token.to_string();
        anyhow::Ok(match register {
            Some((endpoint, hashes)) => {
                crate::cmd::init::banner::register_command(ctx.parent(), &endpoint, &token, &hashes.join(","))
            }
            None => token,
        })
    })?;
    ctx.printer.line(&line)?;
    Ok(())
}

async fn create(plane: &Connection, record: &TokenSecret) -> anyhow::Result<()> {
    let api: Api<Secret> = Api::namespaced(plane.client.clone(), SECRET_NAMESPACE);
    let id = record.token.id();
    match api.create(&PostParams::default(), &record.to_secret()?).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(status)) if status.code == 409 => {
            Err(TokenCommandError::AlreadyExists { id: id.to_string() }.into())
        }
        Err(e) => {
            let what = format!("creating secret {SECRET_NAMESPACE}/{}", token::secret_name(id));
            Err(classify(&plane.target, what, e).into())
        }
    }
}

/// How long `--print-register-command` waits for the bootstrap signer.
const SIGN_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Waits until cluster-info carries the new token's signature, so the printed `register`
/// command works at once (init does the same). A plane that does not sign in time gets a
/// warning only: the token exists, and signing may just be slow.
async fn wait_signed(plane: &Connection, id: &str, ctx: &Context) {
    use crate::local_plane::client;
    if let Err(e) = client::wait_signed(&plane.client, id, SIGN_WAIT).await {
        ctx.printer.warn(&format!("{e}; 'register' with this token fails until the control plane signs it"));
    }
}

/// The endpoint (`host:port`) and CA pins a member registers with. They come from
/// `kube-public/cluster-info`, which is what `register` discovers and checks the pin against;
/// a plane without it falls back to the server and CA of the kubeconfig in use (upstream reads
/// only the kubeconfig, and only one named by an explicit `--kubeconfig`).
async fn register_target(plane: &Connection) -> anyhow::Result<(String, Vec<String>)> {
    let api: Api<ConfigMap> = Api::namespaced(plane.client.clone(), CLUSTER_INFO_NAMESPACE);
    let cluster_info = api
        .get_opt(CLUSTER_INFO_NAME)
        .await
        .map_err(|e| classify(&plane.target, format!("reading {CLUSTER_INFO_NAMESPACE}/{CLUSTER_INFO_NAME}"), e))?;
    let published = cluster_info.and_then(|cm| cm.data?.remove(KUBECONFIG_KEY));
    let (server, ca_pem) = match published {
        Some(text) => from_cluster_info(&text)?,
        None => {
            let ca = plane.cluster.certificate_authority_pem.clone().ok_or_else(|| {
                register_error(format!("the kubeconfig gives no CA for the server {}", plane.cluster.server))
            })?;
            (plane.cluster.server.clone(), ca)
        }
    };
    let ca_text = String::from_utf8_lossy(&ca_pem);
    let hashes = karmadactl_pki::ca_cert_hashes(&ca_text)?;
    if hashes.is_empty() {
        return Err(register_error("the CA bundle holds no certificate".into()).into());
    }
    Ok((endpoint(&server), hashes))
}

/// The server and CA of cluster-info's kubeconfig (its one cluster, named "").
fn from_cluster_info(text: &str) -> Result<(String, Vec<u8>), TokenCommandError> {
    let bad = |what: &str| register_error(format!("{CLUSTER_INFO_NAMESPACE}/{CLUSTER_INFO_NAME} {what}"));
    let config: kube::config::Kubeconfig =
        serde_saphyr::from_str(text).map_err(|e| bad(&format!("holds no valid kubeconfig: {e}")))?;
    let named = config.clusters.iter().find(|c| c.name.is_empty()).or(config.clusters.first());
    let cluster = named.and_then(|c| c.cluster.as_ref()).ok_or_else(|| bad("names no cluster"))?;
    let server = cluster.server.clone().filter(|s| !s.is_empty()).ok_or_else(|| bad("names no server"))?;
    let ca = cluster
        .certificate_authority_data
        .as_deref()
        .and_then(|data| base64::engine::general_purpose::STANDARD.decode(data.trim()).ok())
        .ok_or_else(|| bad("has no certificate-authority-data"))?;
    Ok((server, ca))
}

fn register_error(reason: String) -> TokenCommandError {
    TokenCommandError::RegisterCommand { reason }
}

/// `host:port` as upstream prints it: the server URL without `https://` (and without a
/// trailing slash, which `register` would not accept in an endpoint).
fn endpoint(server: &str) -> String {
    server.strip_prefix("https://").unwrap_or(server).trim_end_matches('/').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_controllers::bootstrap_signer::cluster_info_kubeconfig;

    #[test]
    fn endpoint_drops_the_scheme_and_a_trailing_slash() {
        assert_eq!(endpoint("https://10.0.0.1:6443"), "10.0.0.1:6443");
        assert_eq!(endpoint("https://10.0.0.1:6443/"), "10.0.0.1:6443");
    }

    #[test]
    fn cluster_info_gives_its_server_and_ca() {
        let text = cluster_info_kubeconfig("https://127.0.0.1:5443", "-----BEGIN CERTIFICATE-----\nx\n");
        let (server, ca) = from_cluster_info(&text).unwrap();
        assert_eq!(server, "https://127.0.0.1:5443");
        assert_eq!(ca, b"-----BEGIN CERTIFICATE-----\nx\n");
        assert!(from_cluster_info("apiVersion: v1\nkind: Config\nclusters: []\n").is_err());
    }
}

//! The member cluster of a scheduler estimator: upstream's checks that `--member-kubeconfig`
//! and `--member-context` reach it (nodes and pods can be listed), and the kubeconfig the
//! estimator's pod gets — only that context, with every certificate and token embedded.

use k8s_openapi::api::core::v1::{Node, Pod};
use kube::Api;
use kube::api::ListParams;

use super::server_message;
use crate::cmd::connection::ClusterConnection;
use crate::error::UsageError;
use crate::kubeconfig::{KubeconfigBuilder, ResolvedContext};

/// Checks the member kubeconfig as upstream does and returns the kubeconfig for the estimator.
pub async fn check(cluster: &str, path: &str, context: Option<&str>) -> anyhow::Result<String> {
    let context = context.filter(|c| !c.is_empty());
    let conn = ClusterConnection { kubeconfig: Some(path.to_string()), context: context.map(str::to_string) };
    let failed = |e: anyhow::Error| anyhow::anyhow!("failed to get member cluster config. error: {e:#}");
    let resolved = crate::cmd::connection::resolve(
        Some(path),
        &crate::kubeconfig::rules::host_context(context.unwrap_or_default()),
    )
    .map_err(failed)?;
    let kubeconfig = self_contained(&resolved)?;
    let (client, _) = crate::cmd::init::host::host_client(&conn).await.map_err(failed)?;
    let hint = "check the Role or ClusterRole of the user in --member-kubeconfig: the estimator lists nodes and pods.";
    let denied = |what: &str, e: kube::Error| {
        UsageError::with_hint(
            format!(
                "failed to get {what} from cluster {cluster} with member-kubeconfig and member-context. error: {}, Please check the Role or ClusterRole of the serviceAccount in your member-kubeconfig",
                server_message(&e)
            ),
            hint,
        )
    };
    Api::<Node>::all(client.clone()).list(&ListParams::default().limit(1)).await.map_err(|e| denied("nodes", e))?;
    Api::<Pod>::all(client).list(&ListParams::default().limit(1)).await.map_err(|e| denied("pods", e))?;
    Ok(kubeconfig)
}

/// One cluster, one user, one context, everything embedded: the pod has none of the files a
/// kubeconfig may point at, and the other contexts of the file are none of its business.
fn self_contained(resolved: &ResolvedContext) -> anyhow::Result<String> {
    let user = &resolved.user;
    let unusable = |how: String| {
        UsageError::with_hint(
            format!(
                "the user of context {} authenticates with {how}, which the scheduler estimator's pod cannot use",
                resolved.context_name
            ),
            "pass a --member-kubeconfig whose user has a client certificate or a token.",
        )
    };
    if let Some(command) = &user.exec_command {
        return Err(unusable(format!("the exec plugin {command:?}")).into());
    }
    if let Some(provider) = &user.auth_provider {
        return Err(unusable(format!("the auth provider {provider:?}")).into());
    }
    if user.username.is_some() || user.password.is_some() {
        return Err(unusable("a user name and password".into()).into());
    }
    let cluster = &resolved.cluster;
    let mut builder = KubeconfigBuilder::new(
        resolved.cluster_name.clone(),
        resolved.user_name.clone().unwrap_or_else(|| "anonymous".into()),
        cluster.server.clone(),
    )
    .context(resolved.context_name.clone())
    .insecure_skip_tls_verify(cluster.insecure_skip_tls_verify);
    if let Some(ca) = &cluster.certificate_authority_pem {
        builder = builder.certificate_authority(ca.clone());
    }
    if let Some(name) = &cluster.tls_server_name {
        builder = builder.tls_server_name(name.clone());
    }
    if let (Some(cert), Some(key)) = (&user.client_certificate_pem, &user.client_key_pem) {
        builder = builder.client_certificate(cert.clone(), key.clone());
    } else if let Some(token) = &user.token {
        builder = builder.token(token.clone());
    }
    Ok(crate::kubeconfig::to_yaml(&builder.build())?)
}

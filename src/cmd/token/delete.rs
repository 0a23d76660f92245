//! `token delete`: removes bootstrap tokens by ID or by whole token.

use k8s_openapi::api::core::v1::Secret;
use karmadactl_pki::token::{self, SECRET_NAMESPACE};
use kube::Api;
use kube::api::{DeleteParams, Preconditions};

use super::TokenDeleteArgs;
use super::errors::TokenCommandError;
use crate::cli::Context;
use crate::membership::errors::classify;

pub fn run(args: TokenDeleteArgs, ctx: &Context) -> anyhow::Result<()> {
    // Every argument is checked before any request; the same token named twice is deleted once.
    let mut ids: Vec<String> = Vec::new();
    for arg in &args.tokens {
        let id = token::token_id_from_arg(arg)?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    args.karmada.resolve()?;
    super::runtime()?.block_on(async {
        let plane = args.karmada.connect().await?;
        let api: Api<Secret> = Api::namespaced(plane.client.clone(), SECRET_NAMESPACE);
        // Upstream stops at the first missing token after deleting the ones before it; here all
        // are looked up first, so a typo in one argument deletes nothing.
        let mut found = Vec::with_capacity(ids.len());
        for id in &ids {
            let name = token::secret_name(id);
            let secret = api
                .get_opt(&name)
                .await
                .map_err(|e| classify(&plane.target, format!("reading secret {SECRET_NAMESPACE}/{name}"), e))?;
            let secret = secret.ok_or_else(|| TokenCommandError::NotFound { id: id.clone() })?;
            found.push((id, name, secret.metadata.uid));
        }
        for (id, name, uid) in found {
            // The uid precondition deletes exactly the Secret that was looked up above.
            let params = DeleteParams {
                preconditions: Some(Preconditions { uid, resource_version: None }),
                ..Default::default()
            };
            match api.delete(&name, &params).await {
                Ok(_) => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {
                    return Err(TokenCommandError::NotFound { id: id.clone() }.into());
                }
                Err(e) => {
                    return Err(classify(&plane.target, format!("deleting secret {SECRET_NAMESPACE}/{name}"), e).into());
                }
            }
            ctx.printer.line(&format!("bootstrap token {id:?} deleted"))?;
        }
        anyhow::Ok(())
    })
}

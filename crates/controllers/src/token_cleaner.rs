//! kube-controller-manager's `tokencleaner`: deletes bootstrap token Secrets whose
//! `expiration` has passed, so an expired token can neither authenticate nor be listed.
//!
//! Like upstream it reads only the `expiration` key: a Secret of the bootstrap-token type that
//! is otherwise malformed is still removed once its expiration passes. Each delete carries a uid
//! precondition, so a new Secret created under the same name in the meantime is never touched.

use std::time::Duration;

use futures::StreamExt;
use jiff::Timestamp;
use k8s_openapi::api::core::v1::Secret;
use kube::api::{DeleteParams, ListParams, Preconditions};
use kube::runtime::watcher;
use kube::{Api, Client};

use karmadactl_pki::token::{SECRET_NAMESPACE, SECRET_TYPE};

/// The data key holding the RFC 3339 expiry time.
const EXPIRATION_KEY: &str = "expiration";

/// Longest sleep between passes when no token expires sooner (covers missed events).
const RESYNC: Duration = Duration::from_secs(15);

/// Runs until the client's server goes away.
pub async fn run(client: Client) {
    let secrets: Api<Secret> = Api::namespaced(client, SECRET_NAMESPACE);
    let mut events =
        watcher(secrets.clone(), watcher::Config::default().fields(&format!("type={SECRET_TYPE}"))).boxed();
    let mut wait = Duration::ZERO;
    loop {
        tokio::select! {
            event = events.next() => if event.is_none() { return },
            _ = tokio::time::sleep(wait) => {},
        }
        wait = match clean(&secrets).await {
            Ok(next) => next.map_or(RESYNC, |at| until(at).min(RESYNC)),
            Err(e) => {
                tracing::debug!(error = %e, "token cleaner pass failed; retrying");
                Duration::from_millis(500)
            }
        };
    }
}

/// Deletes every expired token Secret; returns the earliest expiration still ahead.
async fn clean(secrets: &Api<Secret>) -> Result<Option<Timestamp>, kube::Error> {
    let listed = secrets.list(&ListParams::default().fields(&format!("type={SECRET_TYPE}"))).await?;
    let now = Timestamp::now();
    let mut next: Option<Timestamp> = None;
    for secret in &listed.items {
        let Some(expiration) = expiration(secret) else { continue };
        if expiration <= now {
            delete(secrets, secret).await;
        } else {
            next = Some(next.map_or(expiration, |n| n.min(expiration)));
        }
    }
    Ok(next)
}

/// The Secret's expiration, when it has one that parses (upstream ignores one that does not).
pub fn expiration(secret: &Secret) -> Option<Timestamp> {
    if secret.type_.as_deref() != Some(SECRET_TYPE) {
        return None;
    }
    let raw = secret.data.as_ref()?.get(EXPIRATION_KEY)?;
    std::str::from_utf8(&raw.0).ok()?.parse().ok()
}

/// How long until `at`, with a small margin so the pass after the wake sees it expired.
fn until(at: Timestamp) -> Duration {
    let left = at.duration_since(Timestamp::now());
    Duration::try_from(left).unwrap_or(Duration::ZERO) + Duration::from_millis(50)
}

async fn delete(api: &Api<Secret>, secret: &Secret) {
    let Some(name) = secret.metadata.name.as_deref() else { return };
    let params = DeleteParams {
        preconditions: Some(Preconditions { uid: secret.metadata.uid.clone(), resource_version: None }),
        ..Default::default()
    };
    match api.delete(name, &params).await {
        Ok(_) => tracing::info!(secret = name, "deleted expired bootstrap token"),
        Err(e) => tracing::debug!(secret = name, error = %e, "could not delete expired bootstrap token"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use k8s_openapi::ByteString;

    use super::*;

    fn secret(type_: &str, expiration: Option<&str>) -> Secret {
        let data =
            expiration.map(|e| BTreeMap::from([(EXPIRATION_KEY.to_string(), ByteString(e.as_bytes().to_vec()))]));
        Secret { type_: Some(type_.into()), data, ..Default::default() }
    }

    #[test]
    fn expiration_is_read_only_from_bootstrap_token_secrets() {
        let at: Timestamp = "2020-01-02T03:04:05Z".parse().unwrap();
        assert_eq!(expiration(&secret(SECRET_TYPE, Some("2020-01-02T03:04:05Z"))), Some(at));
        assert_eq!(expiration(&secret("Opaque", Some("2020-01-02T03:04:05Z"))), None);
        assert_eq!(expiration(&secret(SECRET_TYPE, None)), None);
        assert_eq!(expiration(&secret(SECRET_TYPE, Some("tomorrow"))), None);
    }
}

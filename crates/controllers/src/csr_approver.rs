//! karmada-controller-manager's `agentcsrapproving`: approves the client-certificate requests of
//! karmada-agents (and of `register`'s RBAC generator) when the requester may ask for them.
//!
//! A request is recognised only when it is for `kubernetes.io/kube-apiserver-client`, its
//! subject is O exactly `system:karmada:agents` with CN `system:karmada:agent:<…>`, it names no
//! SANs and it asks for exactly digital signature, key encipherment and client auth. Then a
//! SubjectAccessReview asks whether the requester (the `spec.username`/`groups` the API server
//! recorded) may `create certificatesigningrequests/selfclusteragent` (renewing its own
//! certificate) or `…/clusteragent`. Anything else is left for a human to approve or deny.
//!
//! Unlike upstream, a bootstrap-token requester gets an agent identity only for a cluster name
//! it may claim (`agent_registration`): a name held by another token, or a registered member's,
//! is denied. The RBAC generator's identity it may still get, for upstream `register`'s sake;
//! `rbac_generator_admission` confines what that identity can do.

use std::collections::BTreeSet;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::authorization::v1::{ResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec};
use k8s_openapi::api::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestCondition};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::api::{PostParams, ResourceExt};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client};

use karmadactl_pki::{CsrInfo, inspect_csr};

use karmadactl_karmada_api::agent_rbac::{AGENT_GROUP, AGENT_USER_PREFIX, RBAC_GENERATOR_USER};
pub use karmadactl_pki::signer::KUBE_APISERVER_CLIENT_SIGNER;
const BOOTSTRAPPERS: &str = "system:bootstrappers";
const AGENT_USAGES: [&str; 3] = ["digital signature", "key encipherment", "client auth"];

/// Runs until the client's server goes away.
pub async fn run(client: Client) {
    let csrs: Api<CertificateSigningRequest> = Api::all(client.clone());
    let reviews: Api<SubjectAccessReview> = Api::all(client.clone());
    let mut events = watcher(csrs.clone(), watcher::Config::default()).default_backoff().applied_objects().boxed();
    while let Some(event) = events.next().await {
        let csr = match event {
            Ok(csr) => csr,
            Err(e) => {
                tracing::debug!(error = %e, "csr approver watch error; the watcher retries");
                continue;
            }
        };
        if let Err(e) = approve_if_allowed(&client, &csrs, &reviews, &csr).await {
            tracing::warn!(csr = %csr.name_any(), error = %e, "csr approver: could not handle the request");
            // The next event for this CSR (or a relist) tries again; pause so a failing API
            // server is not hammered.
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Whether the request is already decided (approved, denied or failed) or issued.
pub fn is_settled(csr: &CertificateSigningRequest) -> bool {
    let Some(status) = csr.status.as_ref() else { return false };
    status.certificate.as_ref().is_some_and(|c| !c.0.is_empty())
        || status.conditions.iter().flatten().any(|c| matches!(c.type_.as_str(), "Approved" | "Denied" | "Failed"))
}

async fn approve_if_allowed(
    client: &Client,
    csrs: &Api<CertificateSigningRequest>,
    reviews: &Api<SubjectAccessReview>,
    csr: &CertificateSigningRequest,
) -> Result<(), kube::Error> {
    if is_settled(csr) || csr.spec.signer_name != KUBE_APISERVER_CLIENT_SIGNER {
        return Ok(());
    }
    let Ok(request) = std::str::from_utf8(&csr.spec.request.0) else { return Ok(()) };
    // A request that does not parse is not an agent's; the signer marks it Failed once approved.
    let Ok(info) = inspect_csr(request) else { return Ok(()) };
    let Some(subresource) = agent_subresource(csr, &info) else { return Ok(()) };
    if !allowed(reviews, csr, subresource).await? {
        tracing::info!(csr = %csr.name_any(), subresource, "recognised an agent CSR, but the requester may not have it approved");
        return Ok(());
    }
    let cluster = info.subject.common_name.strip_prefix(AGENT_USER_PREFIX).unwrap_or_default();
    if let Some(token_id) = bootstrap_token_id(csr)
        && info.subject.common_name != RBAC_GENERATOR_USER
        && let Err(why) = super::agent_registration::claim(client, cluster, token_id).await?
    {
        return decide(csrs, csr, "Denied", "ClusterNameTaken", &why).await;
    }
    decide(csrs, csr, "Approved", "AutoApproved", "Auto approving karmada-agent certificate after SubjectAccessReview.")
        .await
}

/// The token id of a bootstrap-token requester (`system:bootstrap:<id>`, or any member of a
/// `system:bootstrappers` group).
fn bootstrap_token_id(csr: &CertificateSigningRequest) -> Option<&str> {
    let user = csr.spec.username.as_deref().unwrap_or_default();
    let in_group =
        csr.spec.groups.iter().flatten().any(|g| g == BOOTSTRAPPERS || g.starts_with(&format!("{BOOTSTRAPPERS}:")));
    user.strip_prefix("system:bootstrap:").or(in_group.then_some(user))
}

async fn decide(
    csrs: &Api<CertificateSigningRequest>,
    csr: &CertificateSigningRequest,
    verdict: &str,
    reason: &str,
    message: &str,
) -> Result<(), kube::Error> {
    let mut decided = csr.clone();
    let status = decided.status.get_or_insert_with(Default::default);
    status.conditions.get_or_insert_with(Vec::new).push(CertificateSigningRequestCondition {
        type_: verdict.into(),
        status: "True".into(),
        reason: Some(reason.into()),
        message: Some(message.into()),
        last_update_time: Some(Time(jiff::Timestamp::now())),
        last_transition_time: Some(Time(jiff::Timestamp::now())),
    });
    match csrs.replace_subresource("approval", &csr.name_any(), &PostParams::default(), &decided).await {
        Ok(_) => {
            tracing::info!(csr = %csr.name_any(), verdict, message, "decided on a karmada-agent certificate request");
            Ok(())
        }
        // Changed meanwhile (approved by hand, say): the next event has the new version.
        Err(kube::Error::Api(e)) if e.code == 409 || e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}

/// The `certificatesigningrequests/<subresource>` the requester needs for this request to be
/// approved: `selfclusteragent` when it asks for its own name, else `clusteragent`; `None` when
/// it is not an agent's request at all.
pub fn agent_subresource(csr: &CertificateSigningRequest, info: &CsrInfo) -> Option<&'static str> {
    if !is_agent_request(&csr.spec.usages.clone().unwrap_or_default(), info) {
        return None;
    }
    if csr.spec.username.as_deref() == Some(info.subject.common_name.as_str()) {
        Some("selfclusteragent")
    } else {
        Some("clusteragent")
    }
}

/// The subject, SAN and usage rules of upstream's `ValidateAgentCSR`.
fn is_agent_request(usages: &[String], info: &CsrInfo) -> bool {
    let usages: BTreeSet<&str> = usages.iter().map(String::as_str).collect();
    info.subject.organizations == [AGENT_GROUP]
        && info.subject.common_name.starts_with(AGENT_USER_PREFIX)
        && info.dns_names.is_empty()
        && info.ip_addresses.is_empty()
        && info.email_addresses.is_empty()
        && info.uris.is_empty()
        && usages == AGENT_USAGES.into_iter().collect()
}

async fn allowed(
    reviews: &Api<SubjectAccessReview>,
    csr: &CertificateSigningRequest,
    subresource: &str,
) -> Result<bool, kube::Error> {
    let review = SubjectAccessReview {
        spec: SubjectAccessReviewSpec {
            user: csr.spec.username.clone(),
            uid: csr.spec.uid.clone(),
            groups: csr.spec.groups.clone(),
            extra: csr.spec.extra.clone(),
            resource_attributes: Some(ResourceAttributes {
                group: Some("certificates.k8s.io".into()),
                resource: Some("certificatesigningrequests".into()),
                subresource: Some(subresource.into()),
                verb: Some("create".into()),
                ..Default::default()
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let answer = reviews.create(&PostParams::default(), &review).await?;
    Ok(answer.status.is_some_and(|s| s.allowed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_pki::Subject;

    fn info(cn: &str, orgs: &[&str], dns: &[&str]) -> CsrInfo {
        CsrInfo {
            subject: Subject::new(cn).with_organizations(orgs.iter().copied()),
            dns_names: dns.iter().map(|s| s.to_string()).collect(),
            ip_addresses: vec![],
            email_addresses: vec![],
            uris: vec![],
            requests_ca: false,
            public_key_der: vec![],
        }
    }

    fn csr(username: &str, usages: &[&str]) -> CertificateSigningRequest {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "c"},
            "spec": {"signerName": KUBE_APISERVER_CLIENT_SIGNER, "request": "", "username": username, "usages": usages},
        }))
        .unwrap()
    }

    #[test]
    fn only_agent_subjects_without_sans_and_with_exactly_the_agent_usages_are_recognised() {
        let agent = info("system:karmada:agent:m1", &[AGENT_GROUP], &[]);
        let bootstrap = csr("system:bootstrap:abcdef", &AGENT_USAGES);
        assert_eq!(agent_subresource(&bootstrap, &agent), Some("clusteragent"));
        assert_eq!(agent_subresource(&csr("system:karmada:agent:m1", &AGENT_USAGES), &agent), Some("selfclusteragent"));
        for other in [
            info("system:karmada:agent:m1", &[AGENT_GROUP, "system:masters"], &[]),
            info("system:karmada:agent:m1", &["system:nodes"], &[]),
            info("system:node:m1", &[AGENT_GROUP], &[]),
            info("system:karmada:agent:m1", &[AGENT_GROUP], &["m1.example"]),
        ] {
            assert_eq!(agent_subresource(&bootstrap, &other), None, "{other:?}");
        }
        assert_eq!(agent_subresource(&csr("u", &["client auth"]), &agent), None);
        assert_eq!(
            agent_subresource(&csr("u", &["digital signature", "key encipherment", "server auth"]), &agent),
            None
        );
    }
}

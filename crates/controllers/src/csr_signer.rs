//! kube-controller-manager's `csrsigning` for `kubernetes.io/kube-apiserver-client`: issues
//! approved requests with the plane's CA, the CA the API server trusts for client
//! certificates, so the certificate authenticates as its subject (CN user, O groups).
//!
//! As Kubernetes: the subject and SANs come from the request, whose self-signature is checked;
//! usages must include client auth and may add digital signature and key encipherment, which
//! become the key usages; the lifetime is `spec.expirationSeconds` (at least 10 minutes) capped
//! at the plane's leaf validity and the CA's own expiry, with notBefore five minutes back for
//! clock skew. A request that cannot be signed gets a `Failed` condition saying why; one for
//! `O=system:masters` is never signed, however it got stored.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::ByteString;
use k8s_openapi::api::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestCondition};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_pki::{CertificateAuthority, ExtendedKeyUsage, KeyUsage, Validity};
use kube::api::{PostParams, ResourceExt};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client};

use super::csr_approver::KUBE_APISERVER_CLIENT_SIGNER;

/// Kubernetes refuses `expirationSeconds` below this.
const MIN_EXPIRATION: Duration = Duration::from_secs(600);
/// How far notBefore goes back, for members whose clocks run behind.
const BACKDATE: Duration = Duration::from_secs(5 * 60);
/// Below this lifetime the backdate is not taken out of it (as Kubernetes' signing policy).
const SHORT: Duration = Duration::from_secs(8 * 3600);

/// Runs until the client's server goes away. `max_validity` is the plane's leaf validity.
pub async fn run(client: Client, ca: Arc<CertificateAuthority>, max_validity: Duration) {
    let csrs: Api<CertificateSigningRequest> = Api::all(client);
    let mut events = watcher(csrs.clone(), watcher::Config::default()).default_backoff().applied_objects().boxed();
    while let Some(event) = events.next().await {
        let csr = match event {
            Ok(csr) => csr,
            Err(e) => {
                tracing::debug!(error = %e, "csr signer watch error; the watcher retries");
                continue;
            }
        };
        if let Err(e) = sign_if_approved(&csrs, &ca, max_validity, &csr).await {
            tracing::warn!(csr = %csr.name_any(), error = %e, "csr signer: could not write the result");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

fn has_condition(csr: &CertificateSigningRequest, type_: &str) -> bool {
    csr.status.as_ref().and_then(|s| s.conditions.as_ref()).is_some_and(|cs| cs.iter().any(|c| c.type_ == type_))
}

async fn sign_if_approved(
    csrs: &Api<CertificateSigningRequest>,
    ca: &CertificateAuthority,
    max_validity: Duration,
    csr: &CertificateSigningRequest,
) -> Result<(), kube::Error> {
    let issued = csr.status.as_ref().and_then(|s| s.certificate.as_ref()).is_some_and(|c| !c.0.is_empty());
    if issued
        || csr.spec.signer_name != KUBE_APISERVER_CLIENT_SIGNER
        || !has_condition(csr, "Approved")
        || has_condition(csr, "Denied")
        || has_condition(csr, "Failed")
    {
        return Ok(());
    }
    let mut result = csr.clone();
    let status = result.status.get_or_insert_with(Default::default);
    match sign(ca, max_validity, csr, Timestamp::now()) {
        Ok(cert) => status.certificate = Some(ByteString(cert.into_bytes())),
        Err(message) => {
            tracing::info!(csr = %csr.name_any(), %message, "csr signer: refused the request");
            status.conditions.get_or_insert_with(Vec::new).push(CertificateSigningRequestCondition {
                type_: "Failed".into(),
                status: "True".into(),
                reason: Some("SignerValidationFailure".into()),
                message: Some(message),
                last_update_time: Some(Time(Timestamp::now())),
                last_transition_time: Some(Time(Timestamp::now())),
            });
        }
    }
    match csrs.replace_status(&csr.name_any(), &PostParams::default(), &result).await {
        Ok(_) => Ok(()),
        // Changed meanwhile: the next event brings the new version.
        Err(kube::Error::Api(e)) if e.code == 409 || e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}

/// The PEM certificate for the request, or the message of the `Failed` condition.
fn sign(
    ca: &CertificateAuthority,
    max_validity: Duration,
    csr: &CertificateSigningRequest,
    now: Timestamp,
) -> Result<String, String> {
    let request = std::str::from_utf8(&csr.spec.request.0)
        .map_err(|_| "spec.request is not a PEM certificate request".to_string())?;
    // Admission refuses such requests; one stored some other way is still never issued.
    let info = karmadactl_pki::inspect_csr(request)
        .map_err(|e| format!("unable to sign the request: {}", karmadactl_apimachinery::with_causes(&e)))?;
    if karmadactl_pki::signer::requests_masters(&info.subject.organizations) {
        return Err(karmadactl_pki::signer::masters_refusal());
    }
    let key_usages = key_usages(&csr.spec.usages.clone().unwrap_or_default())?;
    let validity = validity(ca, max_validity, csr.spec.expiration_seconds, now)?;
    ca.sign_csr_with_key_usages(request, &validity, &key_usages, &[ExtendedKeyUsage::ClientAuth])
        .map_err(|e| format!("unable to sign the request: {}", karmadactl_apimachinery::with_causes(&e)))
}

/// The key usages for a client certificate's `spec.usages`, as Kubernetes validates them.
fn key_usages(usages: &[String]) -> Result<Vec<KeyUsage>, String> {
    let mut key_usages = Vec::new();
    let mut client_auth = false;
    for usage in usages {
        match usage.as_str() {
            "digital signature" => key_usages.push(KeyUsage::DigitalSignature),
            "key encipherment" => key_usages.push(KeyUsage::KeyEncipherment),
            "client auth" => client_auth = true,
            other => return Err(format!("invalid usage for client certificate: {other}")),
        }
    }
    if !client_auth {
        return Err("missing required usage for client certificate: client auth".into());
    }
    key_usages.dedup();
    Ok(key_usages)
}

fn validity(
    ca: &CertificateAuthority,
    max_validity: Duration,
    expiration_seconds: Option<i32>,
    now: Timestamp,
) -> Result<Validity, String> {
    let requested = expiration_seconds.map(|s| Duration::from_secs(u64::try_from(s).unwrap_or(0)));
    let ttl = requested.map_or(max_validity, |r| r.max(MIN_EXPIRATION).min(max_validity));
    let span = |d: Duration| SignedDuration::try_from(d).unwrap_or(SignedDuration::ZERO);
    let not_before = now - span(BACKDATE);
    let mut not_after = if ttl < SHORT { now + span(ttl) } else { not_before + span(ttl) };
    // Nothing the CA signs outlives it.
    not_after = not_after.min(ca.info().not_after);
    Validity::new(not_before, not_after).map_err(|e| format!("the CA cannot issue this certificate: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_pki::CaSpec;

    fn ca() -> CertificateAuthority {
        let validity = Validity::from_now(Duration::from_secs(10 * 365 * 86400)).unwrap();
        CertificateAuthority::generate(&CaSpec::new("plane", validity)).unwrap()
    }

    #[test]
    fn lifetimes_follow_expiration_seconds_within_the_minimum_and_the_plane_cap() {
        let ca = ca();
        let year = Duration::from_secs(365 * 86400);
        // Certificates carry whole seconds.
        let now = Timestamp::from_second(Timestamp::now().as_second()).unwrap();
        let v = validity(&ca, year, Some(3600), now).unwrap();
        assert_eq!(v.not_before(), now - SignedDuration::from_secs(300));
        assert_eq!(v.not_after(), now + SignedDuration::from_secs(3600));
        let v = validity(&ca, year, Some(60), now).unwrap();
        assert_eq!(v.not_after(), now + SignedDuration::from_secs(600));
        let v = validity(&ca, year, Some(i32::MAX), now).unwrap();
        assert_eq!(v.not_after(), v.not_before() + SignedDuration::from_secs(365 * 86400));
        let v = validity(&ca, year, None, now).unwrap();
        assert_eq!(v.not_after(), v.not_before() + SignedDuration::from_secs(365 * 86400));
    }

    #[test]
    fn a_stored_request_for_system_masters_is_never_signed() {
        let key = karmadactl_pki::PrivateKey::generate(Default::default()).unwrap();
        let request = |orgs: &[&str]| {
            let subject = karmadactl_pki::Subject::new("mallory").with_organizations(orgs.iter().copied());
            let pem = karmadactl_pki::create_csr(&key, &subject).unwrap();
            serde_json::from_value::<CertificateSigningRequest>(serde_json::json!({
                "metadata": {"name": "c"},
                "spec": {"signerName": KUBE_APISERVER_CLIENT_SIGNER, "usages": ["client auth"],
                         "request": base64::Engine::encode(&base64::engine::general_purpose::STANDARD, pem)},
            }))
            .unwrap()
        };
        let year = Duration::from_secs(365 * 86400);
        assert_eq!(
            sign(&ca(), year, &request(&["dev", "system:masters"]), Timestamp::now()).unwrap_err(),
            "use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed"
        );
        assert!(sign(&ca(), year, &request(&["dev"]), Timestamp::now()).unwrap().contains("BEGIN CERTIFICATE"));
        let mut garbage = request(&["dev"]);
        garbage.spec.request =
            ByteString(b"-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n".to_vec());
        let message = sign(&ca(), year, &garbage, Timestamp::now()).unwrap_err();
        assert!(
            message.starts_with("unable to sign the request: ") && message.contains("could not be parsed"),
            "{message}"
        );
    }

    #[test]
    fn client_usages_need_client_auth_and_allow_only_signature_and_encipherment() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            key_usages(&s(&["digital signature", "key encipherment", "client auth"])).unwrap(),
            vec![KeyUsage::DigitalSignature, KeyUsage::KeyEncipherment]
        );
        assert_eq!(key_usages(&s(&["client auth"])).unwrap(), vec![]);
        assert_eq!(
            key_usages(&s(&["digital signature"])).unwrap_err(),
            "missing required usage for client certificate: client auth"
        );
        assert_eq!(
            key_usages(&s(&["client auth", "server auth"])).unwrap_err(),
            "invalid usage for client certificate: server auth"
        );
    }
}

//! TLS bootstrap: a key made here, a CertificateSigningRequest for it in the plane, and the
//! certificate the plane signs once its approver (or an administrator) approves the request.

use std::time::{Duration, Instant};

use k8s_openapi::ByteString;
use k8s_openapi::api::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestSpec};
use kube::Client;
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};

use karmadactl_pki::{KeyAlgorithm, PrivateKey, Subject};

pub use karmadactl_karmada_api::agent_rbac::{AGENT_GROUP, AGENT_USER_PREFIX, RBAC_GENERATOR_USER};
pub use karmadactl_pki::signer::KUBE_APISERVER_CLIENT_SIGNER as SIGNER;
const POLL: Duration = Duration::from_millis(100);

/// A signed client certificate and its key, both PEM.
pub struct ClientCertificate {
    pub cert_pem: Vec<u8>,
    pub key_pem: Vec<u8>,
    /// The CSR object it came from.
    pub csr_name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    #[error("cannot make a key or signing request: {0}")]
    Pki(#[from] karmadactl_pki::PkiError),
    #[error("the control plane refused the certificate signing request {name}: {message}")]
    Refused { name: String, message: String },
    #[error("the certificate signing request {name} was {verdict}: {message}")]
    NotIssued { name: String, verdict: String, message: String },
    #[error(
        "the certificate signing request {name} was not signed within {seconds}s; approve it with 'kubectl certificate approve {name}' on the control plane, or check that the plane signs kube-apiserver-client requests"
    )]
    Timeout { name: String, seconds: u64 },
    #[error("talking to the control plane about {name}: {source}")]
    Api { name: String, source: kube::Error },
}

/// Asks for a client certificate for user `cn` in group `system:karmada:agents` and waits for it.
pub async fn request(
    bootstrap: &Client,
    name: &str,
    cn: &str,
    expiration_seconds: i32,
    timeout: Duration,
) -> Result<ClientCertificate, CertificateError> {
    let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256)?;
    let csr_pem = karmadactl_pki::create_csr(&key, &Subject::new(cn).with_organizations([AGENT_GROUP]))?;
    let csr = CertificateSigningRequest {
        metadata: ObjectMeta {
            name: Some(name.into()),
            labels: Some(
                [(karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM.to_string(), "true".to_string())].into(),
            ),
            ..Default::default()
        },
        spec: CertificateSigningRequestSpec {
            request: ByteString(csr_pem.into_bytes()),
            signer_name: SIGNER.into(),
            expiration_seconds: Some(expiration_seconds),
            usages: Some(vec!["digital signature".into(), "key encipherment".into(), "client auth".into()]),
            ..Default::default()
        },
        status: None,
    };
    let api: Api<CertificateSigningRequest> = Api::all(bootstrap.clone());
    let api_err = |source| CertificateError::Api { name: name.into(), source };
    match api.create(&PostParams::default(), &csr).await {
        Ok(_) => {}
        Err(kube::Error::Api(e)) if e.code == 401 || e.code == 403 || e.code == 422 => {
            return Err(CertificateError::Refused { name: name.into(), message: e.message });
        }
        Err(e) => return Err(api_err(e)),
    }
    let deadline = Instant::now() + timeout;
    loop {
        let current = api.get(name).await.map_err(api_err)?;
        let status = current.status.unwrap_or_default();
        for c in status.conditions.unwrap_or_default() {
            if (c.type_ == "Denied" || c.type_ == "Failed") && c.status == "True" {
                return Err(CertificateError::NotIssued {
                    name: name.into(),
                    verdict: c.type_.to_lowercase(),
                    message: c.message.unwrap_or_default(),
                });
            }
        }
        if let Some(cert) = status.certificate.filter(|c| !c.0.is_empty()) {
            return Ok(ClientCertificate {
                cert_pem: cert.0,
                key_pem: key.to_pem().into_bytes(),
                csr_name: name.into(),
            });
        }
        if Instant::now() >= deadline {
            return Err(CertificateError::Timeout { name: name.into(), seconds: timeout.as_secs() });
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Deletes a CSR, ignoring one that is already gone.
pub async fn delete(client: &Client, name: &str) -> Result<(), kube::Error> {
    let api: Api<CertificateSigningRequest> = Api::all(client.clone());
    match api.delete(name, &DeleteParams::default()).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}

/// Five random lowercase letters and digits, as upstream suffixes CSR names.
pub fn random_suffix() -> Result<String, CertificateError> {
    karmadactl_pki::token::random_chars(5).map_err(|_| CertificateError::Pki(karmadactl_pki::PkiError::Random))
}

//! TLS for the API server: rustls with the ring provider, TLS 1.2 and 1.3, HTTP/2 and
//! HTTP/1.1 by ALPN, and optional client certificates verified against the plane's CA (so
//! bearer tokens and anonymous requests still work, as with kube-apiserver).

use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

/// Why a TLS configuration could not be built.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A PEM certificate or key could not be read.
    #[error("the {what} is not valid PEM")]
    Pem {
        what: &'static str,
        #[source]
        source: rustls::pki_types::pem::Error,
    },
    /// rustls refused the configuration (e.g. key and certificate do not match).
    #[error("the TLS configuration was refused")]
    Config(#[source] rustls::Error),
    /// The client-certificate verifier could not be built from the CA.
    #[error("the client certificate verifier could not be built from the CA")]
    Verifier(#[source] rustls::server::VerifierBuilderError),
}

/// The server configuration for `cert_pem`/`key_pem`, accepting client certificates issued by
/// `client_ca_pem`.
pub fn server_config(
    cert_pem: &str,
    key_pem: &str,
    client_ca_pem: &str,
) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|source| TlsError::Pem { what: "serving certificate", source })?;
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes())
        .map_err(|source| TlsError::Pem { what: "serving key", source })?;
    let mut roots = RootCertStore::empty();
    for ca in CertificateDer::pem_slice_iter(client_ca_pem.as_bytes()) {
        let ca = ca.map_err(|source| TlsError::Pem { what: "client CA", source })?;
        roots.add(ca).map_err(TlsError::Config)?;
    }
    let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .allow_unauthenticated()
        .build()
        .map_err(TlsError::Verifier)?;
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(TlsError::Config)?
        .with_client_cert_verifier(verifier)
        .with_single_cert(certs, key)
        .map_err(TlsError::Config)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

//! Building a self-contained kubeconfig: one cluster, one user, one context, data embedded.

use std::fmt;

use base64::Engine as _;
use kube::config::{AuthInfo, Cluster, Context, Kubeconfig, NamedAuthInfo, NamedCluster, NamedContext, Preferences};

/// How the user of a built kubeconfig authenticates. `Debug` never shows the secret parts.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Credential {
    /// No credentials (anonymous, e.g. the insecure cluster-info fetch of `register`).
    #[default]
    None,
    /// A client certificate and its key, both PEM.
    ClientCertificate {
        /// PEM of the certificate (chain).
        cert_pem: Vec<u8>,
        /// PEM of the private key. Secret.
        key_pem: Vec<u8>,
    },
    /// A bearer token. Secret.
    Token(String),
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => f.write_str("None"),
            Self::ClientCertificate { cert_pem, .. } => {
                write!(f, "ClientCertificate {{ cert_pem: <{} bytes>, key_pem: <redacted> }}", cert_pem.len())
            }
            Self::Token(_) => f.write_str("Token(<redacted>)"),
        }
    }
}

/// Builds a kubeconfig with one cluster, one user and one context, everything embedded
/// (`certificate-authority-data`, `client-certificate-data`, `client-key-data` or `token`),
/// `current-context` set, `apiVersion: v1`, `kind: Config`.
///
/// ```
/// use karmadactl_kubeconfig::{KubeconfigBuilder, https_server_url};
/// let kc = KubeconfigBuilder::new("karmada-apiserver", "karmada-admin", https_server_url("::1", 5443))
///     .context("karmada-apiserver")
///     .token("abcdef.0123456789abcdef")
///     .build();
/// assert_eq!(kc.current_context.as_deref(), Some("karmada-apiserver"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KubeconfigBuilder {
    cluster_name: String,
    server: String,
    user_name: String,
    context_name: Option<String>,
    ca_pem: Option<Vec<u8>>,
    insecure_skip_tls_verify: bool,
    tls_server_name: Option<String>,
    credential: Credential,
    namespace: Option<String>,
}

impl KubeconfigBuilder {
    /// Starts a kubeconfig for `server`, with a cluster entry and a user entry of these names.
    /// The context is named `<user>@<cluster>` (kubeadm's convention) unless [`Self::context`] is set.
    pub fn new(cluster_name: impl Into<String>, user_name: impl Into<String>, server: impl Into<String>) -> Self {
        Self {
            cluster_name: cluster_name.into(),
            server: server.into(),
            user_name: user_name.into(),
            context_name: None,
            ca_pem: None,
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            credential: Credential::None,
            namespace: None,
        }
    }

    /// Names the context (also the `current-context`).
    pub fn context(mut self, name: impl Into<String>) -> Self {
        self.context_name = Some(name.into());
        self
    }

    /// Embeds the CA bundle (PEM) as `certificate-authority-data`.
    pub fn certificate_authority(mut self, ca_pem: impl Into<Vec<u8>>) -> Self {
        self.ca_pem = Some(ca_pem.into());
        self
    }

    /// Sets `insecure-skip-tls-verify`.
    pub fn insecure_skip_tls_verify(mut self, insecure: bool) -> Self {
        self.insecure_skip_tls_verify = insecure;
        self
    }

    /// Sets `tls-server-name`.
    pub fn tls_server_name(mut self, name: impl Into<String>) -> Self {
        self.tls_server_name = Some(name.into());
        self
    }

    /// Authenticates with a client certificate and key (PEM), embedded as `-data`.
    pub fn client_certificate(mut self, cert_pem: impl Into<Vec<u8>>, key_pem: impl Into<Vec<u8>>) -> Self {
        self.credential = Credential::ClientCertificate { cert_pem: cert_pem.into(), key_pem: key_pem.into() };
        self
    }

    /// Authenticates with a bearer token.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.credential = Credential::Token(token.into());
        self
    }

    /// Sets the credential directly.
    pub fn credential(mut self, credential: Credential) -> Self {
        self.credential = credential;
        self
    }

    /// Sets the context's default namespace.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// The context name this builder will use.
    pub fn context_name(&self) -> String {
        self.context_name.clone().unwrap_or_else(|| format!("{}@{}", self.user_name, self.cluster_name))
    }

    /// Produces the kubeconfig. Serialise it with [`to_yaml`](super::to_yaml) or
    /// [`write_file`](super::write_file) to get kubectl's key order.
    pub fn build(&self) -> Kubeconfig {
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
        let mut user = AuthInfo::default();
        match &self.credential {
            Credential::None => {}
            Credential::ClientCertificate { cert_pem, key_pem } => {
                user.client_certificate_data = Some(b64(cert_pem));
                user.client_key_data = Some(b64(key_pem).into());
            }
            Credential::Token(token) => user.token = Some(token.clone().into()),
        }
        let context_name = self.context_name();
        Kubeconfig {
            api_version: Some("v1".into()),
            kind: Some("Config".into()),
            preferences: Some(Preferences::default()),
            clusters: vec![NamedCluster {
                name: self.cluster_name.clone(),
                cluster: Some(Cluster {
                    server: Some(self.server.clone()),
                    certificate_authority_data: self.ca_pem.as_deref().map(b64),
                    insecure_skip_tls_verify: self.insecure_skip_tls_verify.then_some(true),
                    tls_server_name: self.tls_server_name.clone(),
                    ..Cluster::default()
                }),
                ..NamedCluster::default()
            }],
            auth_infos: vec![NamedAuthInfo {
                name: self.user_name.clone(),
                auth_info: Some(user),
                ..NamedAuthInfo::default()
            }],
            contexts: vec![NamedContext {
                name: context_name.clone(),
                context: Some(Context {
                    cluster: self.cluster_name.clone(),
                    user: Some(self.user_name.clone()),
                    namespace: self.namespace.clone(),
                    ..Context::default()
                }),
                ..NamedContext::default()
            }],
            current_context: Some(context_name),
            ..Kubeconfig::default()
        }
    }
}

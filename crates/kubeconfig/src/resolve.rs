//! Choosing a context and turning it into connection settings: server, CA, credentials.

use std::fmt;
use std::path::PathBuf;

use base64::Engine as _;
use kube::config::{AuthInfo, Cluster, Context, Kubeconfig};

use super::KubeconfigError;

/// Everything needed to connect with one context: the cluster, the credentials and the
/// default namespace. File references have been read and base64 data decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedContext {
    /// The context's name.
    pub context_name: String,
    /// The name of the context's cluster entry.
    pub cluster_name: String,
    /// Connection settings of that cluster.
    pub cluster: ResolvedCluster,
    /// The name of the context's user entry; `None` when the context names no user (anonymous).
    pub user_name: Option<String>,
    /// Credentials of that user (all empty for an anonymous context).
    pub user: ResolvedUser,
    /// The context's namespace, if it sets one.
    pub namespace: Option<String>,
}

/// Connection settings of a cluster entry. `Debug` shows the CA's size, not its bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct ResolvedCluster {
    /// The API server URL, e.g. `https://10.0.0.1:6443`.
    pub server: String,
    /// PEM bytes of the CA bundle, from `certificate-authority-data` (preferred, as in kubectl)
    /// or the `certificate-authority` file.
    pub certificate_authority_pem: Option<Vec<u8>>,
    /// `insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `tls-server-name`: the name to check the server certificate against.
    pub tls_server_name: Option<String>,
    /// `proxy-url`.
    pub proxy_url: Option<String>,
}

impl fmt::Debug for ResolvedCluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResolvedCluster")
            .field("server", &self.server)
            .field("certificate_authority_pem", &self.certificate_authority_pem.as_ref().map(|c| ByteCount(c.len())))
            .field("insecure_skip_tls_verify", &self.insecure_skip_tls_verify)
            .field("tls_server_name", &self.tls_server_name)
            .field("proxy_url", &self.proxy_url)
            .finish()
    }
}

/// Shows `<N bytes>` unquoted in `Debug` output.
struct ByteCount(usize);

impl fmt::Debug for ByteCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} bytes>", self.0)
    }
}

/// Credentials of a user entry. `Debug` never shows the secret values.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ResolvedUser {
    /// PEM bytes of the client certificate (`client-certificate-data` or `client-certificate`).
    pub client_certificate_pem: Option<Vec<u8>>,
    /// PEM bytes of the client key (`client-key-data` or `client-key`). Secret.
    pub client_key_pem: Option<Vec<u8>>,
    /// Bearer token (`token`, else the trimmed content of `tokenFile`). Secret.
    pub token: Option<String>,
    /// Basic-auth user name.
    pub username: Option<String>,
    /// Basic-auth password. Secret.
    pub password: Option<String>,
    /// Command of an exec credential plugin, which this tool does not run itself.
    pub exec_command: Option<String>,
    /// Name of an auth-provider plugin, which this tool does not support.
    pub auth_provider: Option<String>,
}

fn redacted<T>(v: &Option<T>) -> &'static str {
    if v.is_some() { "Some(<redacted>)" } else { "None" }
}

impl fmt::Debug for ResolvedUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResolvedUser")
            .field("client_certificate_pem", &self.client_certificate_pem.as_ref().map(|c| ByteCount(c.len())))
            .field("client_key_pem", &format_args!("{}", redacted(&self.client_key_pem)))
            .field("token", &format_args!("{}", redacted(&self.token)))
            .field("username", &self.username)
            .field("password", &format_args!("{}", redacted(&self.password)))
            .field("exec_command", &self.exec_command)
            .field("auth_provider", &self.auth_provider)
            .finish()
    }
}

/// Names of all contexts, in file order.
pub fn context_names(kc: &Kubeconfig) -> Vec<String> {
    kc.contexts.iter().map(|c| c.name.clone()).collect()
}

/// Finds a context: the named one, or the current context when `context` is `None` or empty
/// (kubectl treats `--context=""` as not given). Returns the context's name and body.
pub fn find_context<'a>(kc: &'a Kubeconfig, context: Option<&str>) -> Result<(&'a str, &'a Context), KubeconfigError> {
    let name = match context.filter(|c| !c.is_empty()) {
        Some(name) => name.to_string(),
        None => match kc.current_context.as_deref().filter(|c| !c.is_empty()) {
            Some(current) => current.to_string(),
            None => return Err(KubeconfigError::NoCurrentContext { available: context_names(kc) }),
        },
    };
    let named = kc
        .contexts
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| KubeconfigError::ContextNotFound { name: name.clone(), available: context_names(kc) })?;
    match &named.context {
        Some(body) => Ok((named.name.as_str(), body)),
        None => Err(KubeconfigError::ClusterNotSpecified { context: name }),
    }
}

/// The cluster entry of a context, with its name.
pub fn context_cluster<'a>(
    kc: &'a Kubeconfig,
    context_name: &str,
    ctx: &Context,
) -> Result<(&'a str, Cluster), KubeconfigError> {
    if ctx.cluster.is_empty() {
        return Err(KubeconfigError::ClusterNotSpecified { context: context_name.to_string() });
    }
    let named = kc.clusters.iter().find(|c| c.name == ctx.cluster).ok_or_else(|| KubeconfigError::ClusterNotFound {
        cluster: ctx.cluster.clone(),
        context: context_name.to_string(),
    })?;
    Ok((named.name.as_str(), named.cluster.clone().unwrap_or_default()))
}

/// Resolves a context (`None` or empty = the current context) into connection settings.
///
/// Errors: unknown context (the hint lists the available ones), no current context, a context
/// that names a missing cluster or user, a cluster without server, malformed base64 data,
/// unreadable referenced files, and half a client certificate pair.
pub fn resolve(kc: &Kubeconfig, context: Option<&str>) -> Result<ResolvedContext, KubeconfigError> {
    let (context_name, ctx) = find_context(kc, context)?;
    let (cluster_name, cluster) = context_cluster(kc, context_name, ctx)?;
    let cluster = resolve_cluster(cluster_name, &cluster)?;
    let user_name = ctx.user.clone().filter(|u| !u.is_empty());
    let user = match &user_name {
        None => ResolvedUser::default(),
        Some(name) => {
            let entry = kc.auth_infos.iter().find(|u| &u.name == name).ok_or_else(|| {
                KubeconfigError::UserNotFound { user: name.clone(), context: context_name.to_string() }
            })?;
            resolve_user(name, &entry.auth_info.clone().unwrap_or_default())?
        }
    };
    Ok(ResolvedContext {
        context_name: context_name.to_string(),
        cluster_name: cluster_name.to_string(),
        cluster,
        user_name,
        user,
        namespace: ctx.namespace.clone().filter(|n| !n.is_empty()),
    })
}

/// Resolves one cluster entry: checks the server and loads the CA (data wins over file).
pub fn resolve_cluster(name: &str, cluster: &Cluster) -> Result<ResolvedCluster, KubeconfigError> {
    let server = cluster
        .server
        .clone()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| KubeconfigError::NoServer { cluster: name.to_string() })?;
    let ca = DataOrFile {
        data_field: "certificate-authority-data",
        file_field: "certificate-authority",
        owner: "cluster",
        name,
    };
    Ok(ResolvedCluster {
        server,
        certificate_authority_pem: ca
            .load(cluster.certificate_authority_data.as_deref(), cluster.certificate_authority.as_deref())?,
        insecure_skip_tls_verify: cluster.insecure_skip_tls_verify.unwrap_or(false),
        tls_server_name: cluster.tls_server_name.clone().filter(|s| !s.is_empty()),
        proxy_url: cluster.proxy_url.clone().filter(|s| !s.is_empty()),
    })
}

/// Resolves one user entry: client certificate and key (data wins over file), token (wins
/// over `tokenFile`, as in client-go), basic auth, and plugin presence.
pub fn resolve_user(name: &str, auth: &AuthInfo) -> Result<ResolvedUser, KubeconfigError> {
    let secrets = ExposedSecrets::of(auth)?;
    let cert =
        DataOrFile { data_field: "client-certificate-data", file_field: "client-certificate", owner: "user", name }
            .load(auth.client_certificate_data.as_deref(), auth.client_certificate.as_deref())?;
    let key = DataOrFile { data_field: "client-key-data", file_field: "client-key", owner: "user", name }
        .load(secrets.client_key_data.as_deref(), auth.client_key.as_deref())?;
    let incomplete =
        |present, missing| KubeconfigError::IncompleteClientCertificate { user: name.to_string(), present, missing };
    match (&cert, &key) {
        (Some(_), None) => return Err(incomplete("certificate", "key")),
        (None, Some(_)) => return Err(incomplete("key", "certificate")),
        _ => {}
    }
    let token = match secrets.token.filter(|t| !t.is_empty()) {
        Some(token) => Some(token),
        None => match auth.token_file.as_deref().filter(|f| !f.is_empty()) {
            Some(file) => {
                let bytes = read_referenced("tokenFile", "user", name, file)?;
                Some(String::from_utf8_lossy(&bytes).trim().to_string())
            }
            None => None,
        },
    };
    Ok(ResolvedUser {
        client_certificate_pem: cert,
        client_key_pem: key,
        token,
        username: auth.username.clone().filter(|u| !u.is_empty()),
        password: secrets.password.filter(|p| !p.is_empty()),
        exec_command: auth.exec.as_ref().map(|e| e.command.clone().unwrap_or_default()),
        auth_provider: auth.auth_provider.as_ref().map(|p| p.name.clone()),
    })
}

/// The secret fields of kube's `AuthInfo` are `secrecy::SecretString`, whose accessor trait
/// lives in a crate this package does not depend on. kube's serializer exposes them, so they
/// are read back through a JSON value instead.
struct ExposedSecrets {
    token: Option<String>,
    password: Option<String>,
    client_key_data: Option<String>,
}

impl ExposedSecrets {
    fn of(auth: &AuthInfo) -> Result<Self, KubeconfigError> {
        // Encoding fails only for maps with non-string keys, which AuthInfo does not have.
        let value = serde_json::to_value(auth).map_err(|e| KubeconfigError::Encode { detail: e.to_string() })?;
        let get = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_string);
        Ok(Self { token: get("token"), password: get("password"), client_key_data: get("client-key-data") })
    }
}

/// A `<x>-data` / `<x>` pair of kubeconfig keys.
struct DataOrFile<'a> {
    data_field: &'static str,
    file_field: &'static str,
    owner: &'static str,
    name: &'a str,
}

impl DataOrFile<'_> {
    fn load(&self, data: Option<&str>, file: Option<&str>) -> Result<Option<Vec<u8>>, KubeconfigError> {
        if let Some(data) = data.filter(|d| !d.is_empty()) {
            return decode_base64(data).map(Some).ok_or_else(|| KubeconfigError::InvalidBase64 {
                field: self.data_field,
                owner: self.owner,
                name: self.name.to_string(),
            });
        }
        match file.filter(|f| !f.is_empty()) {
            Some(file) => read_referenced(self.file_field, self.owner, self.name, file).map(Some),
            None => Ok(None),
        }
    }
}

/// Standard base64 as Go's encoding/json decodes `[]byte`: line breaks are ignored. The
/// decoder's own error is dropped on purpose because it quotes the offending byte.
fn decode_base64(data: &str) -> Option<Vec<u8>> {
    let compact: String = data.chars().filter(|c| !matches!(c, '\r' | '\n' | ' ' | '\t')).collect();
    base64::engine::general_purpose::STANDARD.decode(compact).ok()
}

fn read_referenced(
    field: &'static str,
    owner: &'static str,
    name: &str,
    file: &str,
) -> Result<Vec<u8>, KubeconfigError> {
    std::fs::read(file).map_err(|source| KubeconfigError::ReadReferenced {
        field,
        owner,
        name: name.to_string(),
        path: PathBuf::from(file),
        source,
    })
}

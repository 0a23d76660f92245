//! The error type of the kubeconfig module, with a next step (`hint`) where one is known.

use std::path::PathBuf;

/// Errors from reading, merging, resolving or writing kubeconfig files.
///
/// Messages name files, contexts, clusters and users, never credentials: a token, a key or a
/// password never appears in a message, a hint or `Debug` output.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigError {
    /// No kubeconfig file was found anywhere kubectl would look.
    #[error("Missing or incomplete configuration info. No kubeconfig file was found{}", searched_suffix(.searched))]
    NoConfiguration {
        /// The paths that were looked at, in order.
        searched: Vec<PathBuf>,
    },
    /// The path given with `--kubeconfig` does not exist.
    #[error("the kubeconfig file \"{}\" does not exist", .path.display())]
    ExplicitPathMissing {
        /// The path as given.
        path: PathBuf,
    },
    /// A kubeconfig file exists but cannot be read.
    #[error("cannot read the kubeconfig file \"{}\"", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why reading failed.
        #[source]
        source: std::io::Error,
    },
    /// A kubeconfig file is not valid YAML or not shaped like a kubeconfig.
    #[error("the kubeconfig file \"{}\" cannot be parsed: {detail}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Parser message with location; quoted values are elided so no secret leaks.
        detail: String,
    },
    /// A kubeconfig file lists the same name twice (kubectl refuses such files too).
    #[error("the kubeconfig file \"{}\" defines {kind} \"{name}\" more than once", .path.display())]
    DuplicateName {
        /// The file.
        path: PathBuf,
        /// `cluster`, `user` or `context`.
        kind: &'static str,
        /// The repeated name.
        name: String,
    },
    /// The requested context is not in the kubeconfig.
    #[error("context \"{name}\" does not exist")]
    ContextNotFound {
        /// The context asked for.
        name: String,
        /// The contexts that do exist, for the hint.
        available: Vec<String>,
    },
    /// No context was requested and the kubeconfig has no `current-context`.
    #[error("no context was chosen and the kubeconfig has no current-context")]
    NoCurrentContext {
        /// The contexts that do exist, for the hint.
        available: Vec<String>,
    },
    /// A context names no cluster.
    #[error("context \"{context}\" does not name a cluster")]
    ClusterNotSpecified {
        /// The context.
        context: String,
    },
    /// A context refers to a cluster that is not in the kubeconfig.
    #[error("cluster \"{cluster}\" used by context \"{context}\" does not exist in the kubeconfig")]
    ClusterNotFound {
        /// The missing cluster.
        cluster: String,
        /// The context that refers to it.
        context: String,
    },
    /// A context refers to a user that is not in the kubeconfig.
    #[error("user \"{user}\" used by context \"{context}\" does not exist in the kubeconfig")]
    UserNotFound {
        /// The missing user.
        user: String,
        /// The context that refers to it.
        context: String,
    },
    /// A cluster entry has no `server`.
    #[error("cluster \"{cluster}\" has no server address")]
    NoServer {
        /// The cluster.
        cluster: String,
    },
    /// An embedded `*-data` field is not valid base64.
    #[error("the {field} of {owner} \"{name}\" is not valid base64")]
    InvalidBase64 {
        /// The kubeconfig key, e.g. `certificate-authority-data`.
        field: &'static str,
        /// `cluster` or `user`.
        owner: &'static str,
        /// The cluster or user name.
        name: String,
    },
    /// A file referenced by the kubeconfig (CA, client certificate or key, token file) cannot be read.
    #[error("cannot read the {field} file \"{}\" of {owner} \"{name}\"", .path.display())]
    ReadReferenced {
        /// The kubeconfig key, e.g. `certificate-authority`.
        field: &'static str,
        /// `cluster` or `user`.
        owner: &'static str,
        /// The cluster or user name.
        name: String,
        /// The referenced file (already resolved against the kubeconfig's directory).
        path: PathBuf,
        /// Why reading failed.
        #[source]
        source: std::io::Error,
    },
    /// A user has a client certificate without a key or the other way round.
    #[error("user \"{user}\" has a client {present} but no client {missing}")]
    IncompleteClientCertificate {
        /// The user.
        user: String,
        /// `certificate` or `key`.
        present: &'static str,
        /// `key` or `certificate`.
        missing: &'static str,
    },
    /// The kubeconfig could not be encoded as YAML.
    #[error("cannot encode the kubeconfig as YAML: {detail}")]
    Encode {
        /// The encoder's message.
        detail: String,
    },
    /// A directory for a kubeconfig could not be created.
    #[error("cannot create the directory \"{}\" for the kubeconfig", .path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why creating it failed.
        #[source]
        source: std::io::Error,
    },
    /// A kubeconfig file could not be written.
    #[error("cannot write the kubeconfig file \"{}\"", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why writing failed.
        #[source]
        source: std::io::Error,
    },
}

fn searched_suffix(searched: &[PathBuf]) -> String {
    if searched.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = searched.iter().map(|p| format!("\"{}\"", p.display())).collect();
        format!(" (looked at {})", list.join(", "))
    }
}

fn context_list(available: &[String]) -> String {
    if available.is_empty() {
        "the kubeconfig defines no contexts".to_string()
    } else {
        let list: Vec<String> = available.iter().map(|c| format!("\"{c}\"")).collect();
        format!("the available contexts are {}", list.join(", "))
    }
}

impl KubeconfigError {
    /// The next step for the user, when one is known.
    pub fn hint(&self) -> Option<String> {
        match self {
            Self::NoConfiguration { .. } => Some(
                "pass --kubeconfig <file>, or set KUBECONFIG to one or more kubeconfig files, \
                 or create ~/.kube/config."
                    .into(),
            ),
            Self::ExplicitPathMissing { .. } => Some(
                "check the --kubeconfig path, or leave the flag out to use KUBECONFIG or ~/.kube/config."
                    .into(),
            ),
            Self::Read { .. } => Some("check that the file is readable by this user.".into()),
            Self::Parse { .. } | Self::DuplicateName { .. } => Some(
                "fix the file, or check it with `kubectl config view --kubeconfig <file>`.".into(),
            ),
            Self::ContextNotFound { available, .. } => {
                Some(format!("{}; pick one of them, or leave the context flag out to use the current context.", context_list(available)))
            }
            Self::NoCurrentContext { available } => Some(format!(
                "{}; pass one with the context flag, or set a default with `kubectl config use-context <name>`.",
                context_list(available)
            )),
            Self::ClusterNotSpecified { .. } | Self::ClusterNotFound { .. } | Self::UserNotFound { .. } => {
                Some("fix the context in the kubeconfig, or choose another context.".into())
            }
            Self::NoServer { .. } => {
                Some("add a server URL such as https://host:6443 to the cluster entry.".into())
            }
            Self::InvalidBase64 { field, .. } => Some(format!(
                "{field} must hold the base64 encoding of a PEM file, for example the output of `base64 -w0 <file>`."
            )),
            Self::ReadReferenced { .. } => Some(
                "relative paths are resolved against the kubeconfig file's directory; check the path and its permissions."
                    .into(),
            ),
            Self::IncompleteClientCertificate { .. } => Some(
                "give both client-certificate(-data) and client-key(-data) for the user, or neither.".into(),
            ),
            Self::Encode { .. } => None,
            Self::CreateDir { .. } | Self::Write { .. } => {
                Some("check that the directory exists and is writable by this user.".into())
            }
        }
    }
}

impl crate::error::Hint for KubeconfigError {
    fn hint(&self) -> Option<String> {
        KubeconfigError::hint(self)
    }
}

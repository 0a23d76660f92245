//! Kubeconfig files: loading with kubectl's precedence and merge rules, choosing a context,
//! and writing self-contained kubeconfigs.
//!
//! * [`LoadRules`] finds and merges files (`--kubeconfig`, else `KUBECONFIG`, else
//!   `~/.kube/config`); [`LoadedKubeconfig::resolve`] / [`resolve`] turn a context into a
//!   [`ResolvedContext`] (server, CA bytes, credentials, namespace).
//! * The per-command rules for empty context flags live in [`rules`].
//! * [`KubeconfigBuilder`] builds a one-cluster kubeconfig; [`write_file`] writes it
//!   atomically with mode 0600 in kubectl's key order; [`merge_into_file`] adds entries to an
//!   existing file.
//!
//! It depends on no crate of this workspace but `karmada-api` (for the well-known names); the
//! commands read kubeconfigs with it and the control plane writes its admin kubeconfig with
//! it, so it must never depend on either.

#![forbid(unsafe_code)]

mod builder;
mod error;
mod load;
mod resolve;
pub mod rules;
mod url;
mod write;

pub use builder::{Credential, KubeconfigBuilder};
pub use error::KubeconfigError;
pub use load::{EntryKind, LoadRules, LoadedKubeconfig, merge_kubectl, parse, read_file};
pub use resolve::{
    ResolvedCluster, ResolvedContext, ResolvedUser, context_cluster, context_names, find_context, resolve,
    resolve_cluster, resolve_user,
};
pub use rules::{ContextChoice, RegisterTarget};
pub use url::https_server_url;
pub use write::{
    KUBECONFIG_DIR_MODE, KUBECONFIG_FILE_MODE, merge_entries, merge_into_file, to_yaml, write_file,
    write_file_with_mode,
};

/// The kubeconfig types of the kube crate, re-exported so callers need not name kube.
pub use kube::config::{AuthInfo, Cluster, Context, Kubeconfig, NamedAuthInfo, NamedCluster, NamedContext};

#[cfg(test)]
mod tests;

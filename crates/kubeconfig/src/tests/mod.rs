//! Unit tests of the kubeconfig module, one file per concern.

mod load;
mod resolve;
mod rules;
mod write;

use std::path::{Path, PathBuf};

/// Writes `text` to `dir/name` and returns the path.
fn put(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// A kubeconfig with one cluster/user/context, all named after `tag`, with a token.
fn simple(tag: &str, server: &str, current: Option<&str>) -> String {
    let current = current.map(|c| format!("current-context: {c}\n")).unwrap_or_default();
    format!(
        "apiVersion: v1\nkind: Config\n{current}clusters:\n- name: {tag}\n  cluster:\n    server: {server}\n\
         users:\n- name: {tag}\n  user:\n    token: token-{tag}\n\
         contexts:\n- name: {tag}\n  context:\n    cluster: {tag}\n    user: {tag}\n"
    )
}

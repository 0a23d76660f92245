//! Error classification: the one place where failures become exit codes and `hint:` lines.
//!
//! Modules define their own `thiserror` enums (with a `hint()` method where a next step is
//! known). Commands add context with `anyhow`. Here the chain is walked once to decide the exit
//! code and the hint, so every command reports failures the same way.

use std::fmt;

/// Exit codes of the binary. Documented in README.md; scripts depend on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// The command did what was asked.
    Success = 0,
    /// The command failed: invalid input, a refused or failed operation, an unreachable server.
    /// (Upstream karmadactl exits 1 for all of these, usage errors included; so do we.)
    Failure = 1,
    /// The command exists in the command tree but its behaviour is not built yet.
    NotBuilt = 2,
}

/// A usage error found by a command after parsing (wrong number of arguments, bad flag value).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    /// The sentence shown after `error:`.
    pub message: String,
    /// The next step shown after `hint:`.
    pub hint: Option<String>,
}

impl UsageError {
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into(), hint: None }
    }
    pub fn with_hint(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self { message: message.into(), hint: Some(hint.into()) }
    }
}

/// A command whose behaviour belongs to later work. Never reported as success.
#[derive(Debug, thiserror::Error)]
#[error("`{command}` is not built yet in this version of karmadactl")]
pub struct NotBuilt {
    /// The command path as the user typed it, e.g. `karmadactl join`.
    pub command: String,
    /// What the user can do instead, when there is something better than the README.
    pub instead: Option<String>,
}

/// What the top level prints and returns for a failed command.
pub struct Report {
    pub code: ExitCode,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

/// Walks the error chain once: the message is the chain joined by ": ", the hint and the exit
/// code come from the first typed error that knows them.
pub fn classify(err: &anyhow::Error) -> Report {
    let message = err.chain().map(|e| e.to_string()).collect::<Vec<_>>().join(": ");
    let mut code = ExitCode::Failure;
    let mut hint = None;
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<NotBuilt>() {
            code = ExitCode::NotBuilt;
            hint = Some(e.instead.clone().unwrap_or_else(|| {
                format!(
                    "see README.md for what this version can do; `{} --help` lists the flags it already accepts.",
                    e.command
                )
            }));
            break;
        }
        if let Some(e) = cause.downcast_ref::<UsageError>() {
            hint = e.hint.clone();
            break;
        }
        if let Some(e) = cause.downcast_ref::<crate::kubeconfig::KubeconfigError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<crate::membership::MembershipError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<crate::cmd::taint::TaintError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<karmadactl_pki::PkiError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<crate::cmd::token::errors::TokenCommandError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<karmadactl_pki::token::TokenError>() {
            hint = e.hint();
            break;
        }
        if cause.downcast_ref::<crate::output::OutputFormatError>().is_some() {
            hint = Some("choose one of the formats listed, e.g. -o json or -o yaml.".into());
            break;
        }
        if let Some(e) = cause.downcast_ref::<crate::controlplane::apiserver::ServerError>() {
            hint = e.hint();
            break;
        }
        if let Some(e) = cause.downcast_ref::<std::io::Error>() {
            hint = io_hint(e);
            break;
        }
    }
    Report { code, message, hint }
}

fn io_hint(e: &std::io::Error) -> Option<String> {
    match e.kind() {
        std::io::ErrorKind::NotFound => Some("check that the path exists and is spelled correctly.".into()),
        std::io::ErrorKind::PermissionDenied => {
            Some("check the file permissions, or run as a user that may read and write it.".into())
        }
        _ => None,
    }
}

/// An error with its causes joined by ": " (the plane reports errors the same way).
pub use karmadactl_apimachinery::with_causes;

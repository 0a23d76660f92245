//! Error classification: the one place where failures become exit codes and `hint:` lines.
//!
//! Modules define their own `thiserror` enums and implement [`Hint`] for them where a next step
//! or a particular exit code is known. Commands add context with `anyhow`. Here the chain is
//! walked once and each cause is asked for its hint and exit code, so every command reports
//! failures the same way.

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

impl Hint for UsageError {
    fn hint(&self) -> Option<String> {
        self.hint.clone()
    }
}

impl Hint for NotBuilt {
    fn hint(&self) -> Option<String> {
        Some(self.instead.clone().unwrap_or_else(|| {
            format!(
                "see README.md for what this version can do; `{} --help` lists the flags it already accepts.",
                self.command
            )
        }))
    }

    fn exit_code(&self) -> ExitCode {
        ExitCode::NotBuilt
    }
}

/// Failures for single objects, printed as kubectl's `CheckErr` prints its aggregate of them:
/// one line each and no `error:` before, the API server's answers as
/// `Error from server (NotFound): deployments.apps "x" not found` ([`from_server`]).
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct PerObject(pub Vec<String>);

/// A failure already worded the way kubectl words it (`Error from server (NotFound): …`, one
/// line per failed object): the commands that stand in for kubectl's print it as it is.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Verbatim(pub String);

impl Hint for Verbatim {
    fn hint(&self) -> Option<String> {
        None
    }

    fn bare(&self) -> bool {
        true
    }
}

/// kubectl's `StandardErrorMessage` for an API server's answer.
pub fn from_server(status: &kube::core::Status) -> String {
    match status.reason.as_str() {
        "" => format!("Error from server: {}", status.message),
        reason => format!("Error from server ({reason}): {}", status.message),
    }
}

impl Hint for PerObject {
    fn hint(&self) -> Option<String> {
        None
    }

    fn bare(&self) -> bool {
        true
    }
}

/// What the top level prints and returns for a failed command.
pub struct Report {
    pub code: ExitCode,
    pub message: String,
    pub hint: Option<String>,
    /// Printed without the `error: ` prefix (the message says what it is).
    pub bare: bool,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bare {
            f.write_str(self.message.trim_end_matches('\n'))?;
        } else {
            write!(f, "error: {}", self.message)?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

/// An error that knows what the user can do next and how the command should exit. Each error
/// type implements it beside its definition; [`crate::hints`] lists the types `classify` asks.
pub trait Hint: std::error::Error + 'static {
    /// The next step, shown after `hint:`.
    fn hint(&self) -> Option<String>;

    /// The exit code of a command that failed with this error.
    fn exit_code(&self) -> ExitCode {
        ExitCode::Failure
    }

    /// Whether the message stands alone, without `error: ` before it.
    fn bare(&self) -> bool {
        false
    }
}

/// Finds one error type's [`Hint`] in a cause of that type. Rust cannot ask a `dyn Error`
/// whether it implements a trait, so each type is tried by name through a probe.
pub type Probe = for<'a> fn(&'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Hint>;

/// The probe for the error type `E`.
pub fn probe<'a, E: Hint>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a dyn Hint> {
    cause.downcast_ref::<E>().map(|e| e as &dyn Hint)
}

/// Walks the error chain once: the message is the chain joined by ": ", the hint and the exit
/// code come from the first cause that knows them.
pub fn classify(err: &anyhow::Error) -> Report {
    classify_with(err, crate::hints::KNOWN)
}

fn classify_with(err: &anyhow::Error, probes: &[Probe]) -> Report {
    let message = err.chain().map(|e| e.to_string()).collect::<Vec<_>>().join(": ");
    let known = err.chain().find_map(|cause| probes.iter().find_map(|probe| probe(cause)));
    match known {
        // A message that stands alone is printed as its error words it, whatever context wraps it.
        Some(e) if e.bare() => Report { code: e.exit_code(), message: e.to_string(), hint: e.hint(), bare: true },
        Some(e) => Report { code: e.exit_code(), message, hint: e.hint(), bare: false },
        None => Report { code: ExitCode::Failure, message, hint: None, bare: false },
    }
}

/// An error with its causes joined by ": " (the plane reports errors the same way).
pub use karmadactl_apimachinery::with_causes;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("the widget is stuck")]
    struct Stuck;

    impl Hint for Stuck {
        fn hint(&self) -> Option<String> {
            Some("shake it.".into())
        }
        fn exit_code(&self) -> ExitCode {
            ExitCode::NotBuilt
        }
    }

    #[derive(Debug, thiserror::Error)]
    #[error("the lever is jammed")]
    struct Jammed(#[source] Stuck);

    impl Hint for Jammed {
        fn hint(&self) -> Option<String> {
            Some("see --help.".into())
        }
    }

    #[test]
    fn the_first_cause_that_knows_gives_the_hint_and_the_exit_code() {
        let err = anyhow::Error::new(Stuck).context("turning the widget");
        let report = classify_with(&err, &[probe::<UsageError>, probe::<Stuck>]);
        assert_eq!(report.to_string(), "error: turning the widget: the widget is stuck\nhint: shake it.");
        assert_eq!(report.code, ExitCode::NotBuilt);

        // An outer cause that knows wins over an inner one.
        let err = anyhow::Error::new(Jammed(Stuck));
        let report = classify_with(&err, &[probe::<Stuck>, probe::<Jammed>]);
        assert_eq!(report.to_string(), "error: the lever is jammed: the widget is stuck\nhint: see --help.");
        assert_eq!(report.code, ExitCode::Failure);
    }

    #[test]
    fn an_error_no_probe_knows_has_no_hint_and_fails_with_one() {
        let err = anyhow::anyhow!("plain");
        let report = classify_with(&err, &[probe::<Stuck>]);
        assert_eq!(report.to_string(), "error: plain");
        assert_eq!(report.code, ExitCode::Failure);
    }
}

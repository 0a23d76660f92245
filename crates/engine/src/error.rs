//! Why a reconcile failed, and the error policy that turns the reason into a queue decision:
//! retry after a backoff (the plane or a member is unreachable, busy or raced with another
//! writer) or wait until the object changes (what the user asked for fails the same way every
//! time), as kube-rs controllers answer `error_policy` with `Action::requeue` or
//! `Action::await_change`.
//!
//! Upstream's controllers requeue every error with controller-runtime's rate limiter; a
//! permanent error there is retried for as long as it lasts, at the limiter's ceiling. Here it
//! is reported (the Work's `Applied` condition, a binding's condition or event, the log) once
//! per change, and the object's next change, or a change to the member object it conflicts
//! with, queues it again.

use std::fmt;

/// A failed reconcile. The text is what users see in conditions and logs.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    /// A request to the plane's API server failed.
    #[error(transparent)]
    Plane(#[from] kube::Error),
    /// A request to a member failed; `doing` says what was asked ("reading Deployment nginx").
    #[error("{}", Prefixed(.doing.as_deref(), .source))]
    Member { doing: Option<String>, source: kube::Error },
    /// A member refused a write; only the member's own message is shown after `doing`.
    #[error("{doing}: {}", answer(.source))]
    MemberRefused { doing: String, source: kube::Error },
    /// No client for the member: its Cluster is gone, its credentials cannot be read, or it
    /// does not answer.
    #[error("{0}")]
    Unreachable(String),
    /// The plane does not serve the manifest's kind (yet: a CRD may still be coming).
    #[error("{0}")]
    NotServed(String),
    /// The member holds an object of the same name that Karmada does not manage, and the
    /// policy does not say to take it over.
    #[error("{0}")]
    Conflict(String),
    /// A manifest that cannot be turned into a request, whatever the member says.
    #[error("{0}")]
    InvalidManifest(String),
    /// The resource interpreter could not answer (a customization's script failed, or a
    /// webhook did not answer).
    #[error(transparent)]
    Interpreter(#[from] karmadactl_interpreter::InterpretError),
    /// A policy names objects (its `dependentOverrides`) that do not exist yet; their creation
    /// queues the template again.
    #[error("{0}")]
    WaitingForDependents(String),
}

/// What the queue does with a key whose reconcile failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Queue the key again after a growing delay.
    Backoff,
    /// Another writer changed the object since it was read (409): queue the key again after a
    /// short, growing delay. The other write's event is already on its way to the cache, so
    /// the retry reads the new object, as client-go's `RetryOnConflict` retries after 10 ms.
    Conflict,
    /// Leave the key until something queues it again (its object or a related one changed).
    AwaitChange,
}

impl ReconcileError {
    /// Whether the same reconcile fails the same way until the user changes an object.
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Plane(e) | Self::Member { source: e, .. } | Self::MemberRefused { source: e, .. } => permanent(e),
            Self::Unreachable(_) | Self::NotServed(_) => false,
            Self::Conflict(_) | Self::InvalidManifest(_) | Self::WaitingForDependents(_) => true,
            // A script fails the same way until the object or the customization changes, and
            // a change to either queues the object again; a webhook may answer next time.
            Self::Interpreter(e) => !matches!(e, karmadactl_interpreter::InterpretError::Webhook { .. }),
        }
    }
}

/// The engine's error policy, the same for every controller queue.
pub fn policy(e: &ReconcileError) -> Action {
    if e.is_permanent() {
        Action::AwaitChange
    } else if matches!(e, ReconcileError::Plane(kube::Error::Api(s)) if s.code == 409) {
        Action::Conflict
    } else {
        Action::Backoff
    }
}

/// A request that would be refused again as it stands: the server found the object malformed
/// or invalid (400, 422), too large (413) or in a form it does not accept (415), or the
/// request could not be built from it. Everything else (unreachable, timeouts, 401/403 until
/// credentials or RBAC are fixed, 404 until a namespace or CRD exists, 409 conflicts, 429,
/// 5xx) may pass on a later try.
fn permanent(e: &kube::Error) -> bool {
    match e {
        kube::Error::Api(s) => matches!(s.code, 400 | 413 | 415 | 422),
        kube::Error::SerdeError(_) | kube::Error::BuildRequest(_) => true,
        _ => false,
    }
}

/// The member's message for a status it answered, else the whole error.
fn answer(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => s.message.clone(),
        e => e.to_string(),
    }
}

/// `doing: error`, or the error alone.
struct Prefixed<'a>(Option<&'a str>, &'a kube::Error);

impl fmt::Display for Prefixed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(doing) => write!(f, "{doing}: {}", self.1),
            None => write!(f, "{}", self.1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: u16, message: &str) -> kube::Error {
        kube::Error::Api(Box::new(kube::core::Status::failure(message, "Reason").with_code(code)))
    }

    #[test]
    fn invalid_objects_wait_for_a_change_and_unavailable_servers_back_off() {
        for code in [400, 413, 415, 422] {
            assert_eq!(policy(&ReconcileError::Plane(status(code, "bad"))), Action::AwaitChange, "{code}");
        }
        for code in [401, 403, 404, 410, 429, 500, 503, 504] {
            assert_eq!(policy(&ReconcileError::Plane(status(code, "busy"))), Action::Backoff, "{code}");
        }
        // A conflict on the plane is retried soon: the cache is about to hold the other write.
        assert_eq!(policy(&ReconcileError::Plane(status(409, "changed"))), Action::Conflict);
        let member = ReconcileError::Member { doing: None, source: status(409, "changed") };
        assert_eq!(policy(&member), Action::Backoff, "a member's conflict is not the plane's cache");
        let refused =
            ReconcileError::MemberRefused { doing: "applying Deployment nginx".into(), source: status(422, "x") };
        assert_eq!(policy(&refused), Action::AwaitChange);
        assert_eq!(policy(&ReconcileError::Conflict("exists".into())), Action::AwaitChange);
        assert_eq!(policy(&ReconcileError::InvalidManifest("bad".into())), Action::AwaitChange);
        assert_eq!(policy(&ReconcileError::Unreachable("no route".into())), Action::Backoff);
        assert_eq!(policy(&ReconcileError::NotServed("the kind Foo is not served".into())), Action::Backoff);
    }

    #[test]
    fn member_errors_read_as_before() {
        let refused = ReconcileError::MemberRefused {
            doing: "applying Deployment nginx".into(),
            source: status(422, "spec.replicas: Invalid value: -1"),
        };
        assert_eq!(refused.to_string(), "applying Deployment nginx: spec.replicas: Invalid value: -1");
        let read =
            ReconcileError::Member { doing: Some("reading Deployment nginx".into()), source: status(503, "down") };
        let plain = ReconcileError::Member { doing: None, source: status(503, "down") };
        assert_eq!(read.to_string(), format!("reading Deployment nginx: {}", status(503, "down")));
        assert_eq!(plain.to_string(), status(503, "down").to_string());
    }
}

//! DeleteOptions' choice of what happens to an object's dependents: `propagationPolicy`
//! (Background, Foreground, Orphan) or the legacy `orphanDependents`, from the body or the query.

use karmadactl_apimachinery::ApiError;
use karmadactl_apimachinery::Cause;

/// The finalizer that keeps an owner until its blocking dependents are gone.
pub const FOREGROUND_FINALIZER: &str = "foregroundDeletion";
/// The finalizer that keeps an owner until its dependents no longer reference it.
pub const ORPHAN_FINALIZER: &str = "orphan";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    Background,
    Foreground,
    Orphan,
}

impl Propagation {
    /// The finalizer the garbage collector acts on for this policy.
    pub fn finalizer(self) -> Option<&'static str> {
        match self {
            Propagation::Background => None,
            Propagation::Foreground => Some(FOREGROUND_FINALIZER),
            Propagation::Orphan => Some(ORPHAN_FINALIZER),
        }
    }
}

/// The policy asked for, `None` when the client left it to the server (Background for a new
/// deletion; an object already being deleted keeps its garbage-collection finalizers).
pub fn resolve(
    body_policy: Option<&str>,
    body_orphan: Option<bool>,
    query_policy: Option<&str>,
    query_orphan: Option<&str>,
) -> Result<Option<Propagation>, ApiError> {
    let query_orphan = match query_orphan {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => return Err(ApiError::bad_request(format!("invalid value for orphanDependents: {other:?}"))),
    };
    let policy = body_policy.or(query_policy);
    let orphan = body_orphan.or(query_orphan);
    if let (Some(p), Some(_)) = (policy, orphan) {
        let cause =
            Cause::invalid("propagationPolicy", p, "orphanDependents and deletionPropagation cannot be both set");
        return Err(invalid(cause));
    }
    if let Some(orphan) = orphan {
        return Ok(Some(if orphan { Propagation::Orphan } else { Propagation::Background }));
    }
    match policy {
        None => Ok(None),
        Some("Background") => Ok(Some(Propagation::Background)),
        Some("Foreground") => Ok(Some(Propagation::Foreground)),
        Some("Orphan") => Ok(Some(Propagation::Orphan)),
        Some(other) => {
            Err(invalid(Cause::not_supported("propagationPolicy", other, &["Foreground", "Background", "Orphan"])))
        }
    }
}

/// kube-apiserver's rejection of DeleteOptions: 422 on `DeleteOptions.meta.k8s.io ""`.
fn invalid(cause: Cause) -> ApiError {
    ApiError::invalid("meta.k8s.io", "DeleteOptions", "", vec![cause])
}

/// The finalizers after a delete with `policy`: the policy's finalizer replaces the other one;
/// no policy keeps what the object has.
pub fn finalizers_after(current: &[String], policy: Option<Propagation>) -> Vec<String> {
    let Some(policy) = policy else { return current.to_vec() };
    let mut out: Vec<String> =
        current.iter().filter(|f| *f != FOREGROUND_FINALIZER && *f != ORPHAN_FINALIZER).cloned().collect();
    if let Some(f) = policy.finalizer() {
        out.push(f.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_wins_and_both_forms_conflict() {
        assert_eq!(resolve(Some("Orphan"), None, Some("Foreground"), None).unwrap(), Some(Propagation::Orphan));
        assert_eq!(resolve(None, None, None, Some("true")).unwrap(), Some(Propagation::Orphan));
        assert_eq!(resolve(None, Some(false), None, None).unwrap(), Some(Propagation::Background));
        assert_eq!(resolve(None, None, None, None).unwrap(), None);
        assert_eq!(resolve(Some("Foreground"), Some(true), None, None).unwrap_err().code, 422);
        let err = resolve(Some("Sideways"), None, None, None).unwrap_err();
        assert_eq!(err.code, 422);
        assert!(err.message.contains(r#"propagationPolicy: Unsupported value: "Sideways""#), "{}", err.message);
    }

    #[test]
    fn policy_finalizer_replaces_the_other() {
        let current = vec!["example.com/hold".to_string(), ORPHAN_FINALIZER.to_string()];
        assert_eq!(
            finalizers_after(&current, Some(Propagation::Foreground)),
            vec!["example.com/hold".to_string(), FOREGROUND_FINALIZER.to_string()]
        );
        assert_eq!(finalizers_after(&current, Some(Propagation::Background)), vec!["example.com/hold".to_string()]);
        assert_eq!(finalizers_after(&current, None), current);
    }
}

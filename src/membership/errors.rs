//! What can go wrong while a cluster joins or leaves, with a next step for each failure.
//!
//! Connection failures are classified by walking the error's source chain (kube → hyper →
//! io → rustls) so the message names the cause instead of a transport error.

use std::time::Duration;

use super::connect::Target;

/// Errors of join and unjoin. Each names the cluster side and the kubeconfig involved.
#[derive(Debug, thiserror::Error)]
pub enum MembershipError {
    /// The server's certificate does not chain to the CA in the kubeconfig.
    #[error("the {}'s certificate is not signed by the CA in {} (server {})", .0.side, .0.kubeconfig, .0.server)]
    UnknownCa(Target),
    /// The server's certificate is not valid for the address in the kubeconfig.
    #[error("the {}'s certificate is not valid for {} ({})", .0.side, .0.server, .1)]
    ServerCertificate(Target, String),
    /// The server refused our client certificate because it expired.
    #[error("the {} refused the client certificate of user {} in {}: the client certificate expired", .0.side, .0.user, .0.kubeconfig)]
    ClientCertificateExpired(Target),
    /// The server refused our client certificate for another reason (unknown CA, revoked, …).
    #[error("the {} refused the client certificate of user {} in {} ({})", .0.side, .0.user, .0.kubeconfig, .1)]
    ClientCertificateRefused(Target, String),
    /// Nothing answered at the server address, or the connection timed out.
    #[error("cannot reach {}: {}", .0.server, .1)]
    Unreachable(Target, String),
    /// 401: the credentials were not accepted.
    #[error("the {} at {} did not accept the credentials of user {} in {} (401 Unauthorized)", .0.side, .0.server, .0.user, .0.kubeconfig)]
    Unauthorized(Target),
    /// 403: authenticated, but not allowed to do what the command needs.
    #[error("{what} in the {} was forbidden (403): {message}", .target.side)]
    Forbidden { target: Target, what: String, message: String },
    /// Another request failed.
    #[error("{what} in the {} failed: {source}", .target.side)]
    Request {
        target: Target,
        what: String,
        #[source]
        source: kube::Error,
    },
    /// The kubeconfig could not be turned into a client.
    #[error("cannot build a client for the {} from {}: {}", .0.side, .0.kubeconfig, .1)]
    Client(Target, String),
    /// Upstream's refusal of a second registration of the same name or kube-system uid.
    #[error("the cluster ID {id} or the cluster name {name} has been registered")]
    AlreadyRegistered { id: String, name: String },
    /// The Cluster appeared between the duplicate check and the create.
    #[error("cluster({0}) already exist")]
    ClusterExists(String),
    /// The member's token controller did not fill a service-account token Secret in time.
    #[error("secret {namespace}/{name} in the member cluster got no token within {}s", timeout.as_secs())]
    TokenTimeout { namespace: String, name: String, timeout: Duration },
    /// unjoin of a cluster the plane does not know (upstream's message).
    #[error("no cluster object {0} found in karmada control Plane")]
    ClusterNotFound(String),
    /// unjoin of a Pull-mode cluster (upstream's message).
    #[error(
        "cluster {0} is a Pull mode member cluster, please use command `unregister` if you want to continue unregistering the cluster"
    )]
    PullMode(String),
    /// The Cluster was still there when `--wait` ran out.
    #[error("cluster {name} was not removed within {wait}; finalizers still on it: {}", finalizers_text(.finalizers))]
    DeleteTimeout { name: String, wait: String, finalizers: Vec<String> },
    /// A plane-side step failed and this run's objects were removed again.
    #[error("{cause}; the objects this run created in the Karmada control plane were removed again")]
    RolledBack { cause: Box<MembershipError> },
    /// A plane-side step failed and removing this run's objects failed too.
    #[error("{cause}; removing what this run created also failed, remove by hand: {}", .leftovers.join(", "))]
    RollbackFailed { cause: Box<MembershipError>, leftovers: Vec<String> },
}

fn finalizers_text(finalizers: &[String]) -> String {
    if finalizers.is_empty() { "none (deletion is still in progress)".into() } else { finalizers.join(", ") }
}

impl MembershipError {
    /// The next step for the user, shown after `hint:`.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            Self::UnknownCa(t) => format!(
                "check that {} belongs to the cluster at {}; its certificate-authority-data must be the CA that signed that API server's certificate.",
                t.kubeconfig, t.server
            ),
            Self::ServerCertificate(t, _) => {
                format!("use the address the API server's certificate names, or set tls-server-name in {}.", t.kubeconfig)
            }
            Self::ClientCertificateExpired(t) => {
                format!("renew the client certificate of user {} in {} and run the command again.", t.user, t.kubeconfig)
            }
            Self::ClientCertificateRefused(t, _) => {
                format!("use a client certificate signed by the CA of the cluster at {}.", t.server)
            }
            Self::Unreachable(t, _) => format!(
                "check that the API server at {} is running and reachable from this machine (server in {}).",
                t.server, t.kubeconfig
            ),
            Self::Unauthorized(t) => {
                format!("check the credentials of user {} in {}; they may be revoked or belong to another cluster.", t.user, t.kubeconfig)
            }
            Self::Forbidden { target, .. } => format!(
                "the user {} in {} needs cluster-admin rights in the {} for this command.",
                target.user, target.kubeconfig, target.side
            ),
            Self::AlreadyRegistered { .. } => {
                "run 'karmadactl get clusters' to see the registered clusters; unjoin the old one first, or pick another name for a different cluster.".into()
            }
            Self::ClusterExists(_) => "another join of this cluster ran at the same time; check 'kubectl get clusters'.".into(),
            Self::TokenTimeout { .. } => {
                "the member's kube-controller-manager (token controller) must be running to fill service-account token Secrets.".into()
            }
            Self::ClusterNotFound(_) => "run 'karmadactl get clusters' to see the registered clusters.".into(),
            Self::PullMode(_) => "run 'karmadactl unregister' against the member cluster instead.".into(),
            Self::DeleteTimeout { .. } => {
                "wait longer with --wait, or run again with --force to remove Karmada's finalizers from the cluster and its execution space.".into()
            }
            Self::RolledBack { cause } | Self::RollbackFailed { cause, .. } => return cause.hint(),
            Self::Request { .. } | Self::Client(..) => return None,
        })
    }

    /// True when the failure is about reaching or authenticating to a cluster (used by unjoin
    /// to treat a member that is gone as a warning under `--force`).
    pub fn is_connection(&self) -> bool {
        matches!(
            self,
            Self::UnknownCa(_)
                | Self::ServerCertificate(..)
                | Self::ClientCertificateExpired(_)
                | Self::ClientCertificateRefused(..)
                | Self::Unreachable(..)
                | Self::Unauthorized(_)
        )
    }
}

impl crate::error::Hint for MembershipError {
    fn hint(&self) -> Option<String> {
        MembershipError::hint(self)
    }
}

/// Turns a failed request into the most specific error its source chain allows.
pub fn classify(target: &Target, what: impl Into<String>, err: kube::Error) -> MembershipError {
    let what = what.into();
    if let kube::Error::Api(status) = &err {
        match status.code {
            401 => return MembershipError::Unauthorized(target.clone()),
            403 => {
                return MembershipError::Forbidden { target: target.clone(), what, message: status.message.clone() };
            }
            _ => {}
        }
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    while let Some(e) = cause {
        if let Some(found) = classify_one(target, e) {
            return found;
        }
        cause = e.source();
    }
    MembershipError::Request { target: target.clone(), what, source: err }
}

/// One link of the chain. `io::Error::source` skips the error it wraps, so that inner error is
/// looked at here too.
fn classify_one(target: &Target, e: &(dyn std::error::Error + 'static)) -> Option<MembershipError> {
    if let Some(tls) = e.downcast_ref::<rustls::Error>() {
        return classify_tls(target, tls);
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref()
            && let Some(found) = classify_one(target, inner)
        {
            return Some(found);
        }
        let reason = match io.kind() {
            std::io::ErrorKind::ConnectionRefused => "connection refused",
            std::io::ErrorKind::TimedOut => "connection timed out",
            std::io::ErrorKind::HostUnreachable => "host unreachable",
            std::io::ErrorKind::NetworkUnreachable => "network unreachable",
            std::io::ErrorKind::ConnectionReset => "connection reset by the server",
            _ => return None,
        };
        return Some(MembershipError::Unreachable(target.clone(), reason.into()));
    }
    // hyper-timeout reports its deadlines as a plain "elapsed" error without an io kind.
    if e.downcast_ref::<tokio::time::error::Elapsed>().is_some() {
        return Some(MembershipError::Unreachable(target.clone(), "timed out".into()));
    }
    let text = e.to_string();
    if text.contains("failed to lookup address") || text.contains("dns error") {
        return Some(MembershipError::Unreachable(target.clone(), text));
    }
    None
}

fn classify_tls(target: &Target, tls: &rustls::Error) -> Option<MembershipError> {
    use rustls::{AlertDescription as A, CertificateError as C};
    let t = target.clone();
    Some(match tls {
        rustls::Error::InvalidCertificate(C::UnknownIssuer | C::BadSignature | C::InvalidPurpose) => {
            MembershipError::UnknownCa(t)
        }
        rustls::Error::InvalidCertificate(c) => MembershipError::ServerCertificate(t, format!("{c:?}")),
        rustls::Error::AlertReceived(A::CertificateExpired) => MembershipError::ClientCertificateExpired(t),
        rustls::Error::AlertReceived(
            a @ (A::BadCertificate | A::UnknownCA | A::CertificateRevoked | A::CertificateUnknown | A::AccessDenied),
        ) => MembershipError::ClientCertificateRefused(t, format!("TLS alert {a:?}")),
        other => MembershipError::Unreachable(t, format!("TLS handshake failed: {other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::membership::Side;

    fn target() -> Target {
        Target {
            side: Side::Member,
            kubeconfig: "/m.kubeconfig".into(),
            server: "https://10.0.0.1:6443".into(),
            user: "admin".into(),
        }
    }

    /// A transport failure as kube reports it: a boxed service error around an io::Error.
    fn transport(inner: std::io::Error) -> kube::Error {
        kube::Error::Service(Box::new(inner))
    }

    fn api(code: u16) -> kube::Error {
        kube::Error::Api(Box::new(kube::core::Status::failure("nope", "Reason").with_code(code)))
    }

    #[test]
    fn tls_errors_inside_io_errors_are_found() {
        let unknown = std::io::Error::other(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer));
        assert!(matches!(classify(&target(), "x", transport(unknown)), MembershipError::UnknownCa(_)));
        let expired = std::io::Error::other(rustls::Error::AlertReceived(rustls::AlertDescription::CertificateExpired));
        let err = classify(&target(), "x", transport(expired));
        assert!(matches!(err, MembershipError::ClientCertificateExpired(_)));
        assert_eq!(
            err.to_string(),
            "the member cluster refused the client certificate of user admin in /m.kubeconfig: the client certificate expired"
        );
    }

    #[test]
    fn refused_connections_name_the_server() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let err = classify(&target(), "x", transport(refused));
        assert_eq!(err.to_string(), "cannot reach https://10.0.0.1:6443: connection refused");
        assert!(err.is_connection());
        assert!(err.hint().unwrap().contains("https://10.0.0.1:6443"));
    }

    #[test]
    fn status_codes_401_and_403_are_classified_and_others_kept() {
        assert!(matches!(classify(&target(), "x", api(401)), MembershipError::Unauthorized(_)));
        let forbidden = classify(&target(), "creating namespace karmada-cluster", api(403));
        assert_eq!(
            forbidden.to_string(),
            "creating namespace karmada-cluster in the member cluster was forbidden (403): nope"
        );
        assert!(matches!(classify(&target(), "x", api(500)), MembershipError::Request { .. }));
    }
}

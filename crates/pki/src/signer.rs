//! The Kubernetes client signer's rule that does not depend on who asks: nobody gets a
//! `system:masters` certificate from `kubernetes.io/kube-apiserver-client`. The API server's
//! CSR admission refuses such a request and the plane's signer refuses to sign one, with one
//! message, kube's.

/// The signer of client certificates for the API server (kube's name).
pub const KUBE_APISERVER_CLIENT_SIGNER: &str = "kubernetes.io/kube-apiserver-client";

/// The group whose members may do anything; a certificate naming it is an administrator's.
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// Whether a request's organizations (its groups once signed) include `system:masters`.
pub fn requests_masters(organizations: &[String]) -> bool {
    organizations.iter().any(|o| o == PRIVILEGED_GROUP)
}

/// kube's refusal of a `system:masters` request to the client signer.
pub fn masters_refusal() -> String {
    format!("use of {KUBE_APISERVER_CLIENT_SIGNER} signer with {PRIVILEGED_GROUP} group is not allowed")
}

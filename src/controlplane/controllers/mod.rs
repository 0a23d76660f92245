//! Control loops inside the plane. The API server's own caches (served CRDs, the RBAC
//! snapshot) follow the store directly, as kube-apiserver's do; everything that in Kubernetes
//! belongs to kube-controller-manager (service-account tokens) talks to the API server through
//! a client, like any other controller. The garbage collector is the exception: it needs every
//! resource, so it follows the store and makes each write conditional on the revision it read.

pub mod agent_registration;
pub mod bootstrap;
pub mod bootstrap_signer;
pub mod cluster;
pub mod crd;
pub mod csr_approver;
pub mod csr_signer;
pub mod follow;
pub mod gc;
mod gc_apply;
mod gc_graph;
pub mod karmada_bootstrap;
pub mod leader;
pub mod namespace;
pub mod rbac;
pub mod serviceaccount_token;
pub mod token_cleaner;

//! Controllers that are clients of the API server, like karmada-controller-manager's and
//! kube-controller-manager's: each talks to the plane through a `kube::Client` only and never
//! reads the server's internals (those loops live in `apiserver::loops`). The leader election
//! decides which replica runs them.
//!
//! It depends on `karmada-api`, `apimachinery` and `pki` of this workspace only (the CSR signer
//! signs with `pki`); the `plane` crate starts these controllers, and the CLI's agent and token
//! commands reuse the cluster probe and the bootstrap signer's names.

pub(crate) mod agent_registration;
pub mod bootstrap_signer;
pub mod cluster;
pub mod csr_approver;
pub mod csr_signer;
pub mod leader;
pub mod token_cleaner;

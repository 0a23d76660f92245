//! The error types that know a hint or an exit code, in the order `error::classify` asks a
//! cause for them, and the [`Hint`] implementations of errors defined outside this crate (the
//! layer crates' and `std::io`'s), which Rust allows only here. Every other error type
//! implements [`Hint`] beside its own definition.

use crate::error::{Hint, Probe, probe};

/// Every type that implements [`Hint`]. A cause is of at most one of them, so the order
/// matters only for readability.
pub(crate) const KNOWN: &[Probe] = &[
    probe::<crate::error::NotBuilt>,
    probe::<crate::error::UsageError>,
    probe::<crate::error::PerObject>,
    probe::<crate::error::Verbatim>,
    probe::<crate::kubeconfig::KubeconfigError>,
    probe::<crate::membership::MembershipError>,
    probe::<crate::cmd::taint::TaintError>,
    probe::<karmadactl_pki::PkiError>,
    probe::<crate::cmd::token::errors::TokenCommandError>,
    probe::<karmadactl_pki::token::TokenError>,
    probe::<crate::output::OutputFormatError>,
    probe::<karmadactl_apiserver::ServerError>,
    probe::<std::io::Error>,
];

impl Hint for karmadactl_kubeconfig::KubeconfigError {
    fn hint(&self) -> Option<String> {
        karmadactl_kubeconfig::KubeconfigError::hint(self)
    }
}

impl Hint for karmadactl_pki::PkiError {
    fn hint(&self) -> Option<String> {
        karmadactl_pki::PkiError::hint(self)
    }
}

impl Hint for karmadactl_pki::token::TokenError {
    fn hint(&self) -> Option<String> {
        karmadactl_pki::token::TokenError::hint(self)
    }
}

impl Hint for karmadactl_apiserver::ServerError {
    fn hint(&self) -> Option<String> {
        karmadactl_apiserver::ServerError::hint(self)
    }
}

impl Hint for std::io::Error {
    fn hint(&self) -> Option<String> {
        match self.kind() {
            std::io::ErrorKind::NotFound => Some("check that the path exists and is spelled correctly.".into()),
            std::io::ErrorKind::PermissionDenied => {
                Some("check the file permissions, or run as a user that may read and write it.".into())
            }
            _ => None,
        }
    }
}

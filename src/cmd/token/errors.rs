//! Failures of `token create|list|delete` that are about the tokens themselves (the request
//! failures are `MembershipError`s, classified by cause).

/// Errors of the token subcommands, each with a next step.
#[derive(Debug, thiserror::Error)]
pub enum TokenCommandError {
    /// The generated ID collided with an existing token (upstream's message).
    #[error("a token with id {id:?} already exists")]
    AlreadyExists { id: String },
    /// `token delete` of a token that is not there (upstream's wording, without the `err:`).
    #[error("failed to delete secret \"bootstrap-token-{id}\": secrets \"bootstrap-token-{id}\" not found")]
    NotFound { id: String },
    /// `--print-register-command` could not find the plane's address or CA.
    #[error("cannot print the register command: {reason}")]
    RegisterCommand { reason: String },
}

impl TokenCommandError {
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            Self::AlreadyExists { .. } => "run the command again; a new random token is generated each time.".into(),
            Self::NotFound { .. } => {
                "run 'karmadactl token list' to see the tokens; none of the given tokens was deleted.".into()
            }
            Self::RegisterCommand { .. } => {
                "check that the kubeconfig names the Karmada control plane's server and CA \
                 (certificate-authority or certificate-authority-data)."
                    .into()
            }
        })
    }
}

impl crate::error::Hint for TokenCommandError {
    fn hint(&self) -> Option<String> {
        TokenCommandError::hint(self)
    }
}

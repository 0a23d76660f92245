//! What can go wrong while cordoning or tainting clusters, with kubectl's and upstream's wording
//! and a next step for each failure.

/// Errors of cordon, uncordon and taint.
#[derive(Debug, thiserror::Error)]
pub enum TaintError {
    /// The command line breaks the `taint` grammar (order of arguments, resource type, flags).
    #[error("{0}")]
    Usage(String),
    /// A taint argument that kubectl's grammar rejects (key, value, effect, duplicates,
    /// a taint both added and removed).
    #[error("{0}")]
    InvalidSpec(String),
    /// The Cluster does not exist (the API server's NotFound message).
    #[error("clusters.cluster.karmada.io \"{0}\" not found")]
    ClusterNotFound(String),
    /// A taint being added exists with the same key and effect and `--overwrite` was not given.
    #[error("cluster {cluster} already has {keys} taint(s) with same effect(s) and --overwrite is false")]
    AlreadyExists { cluster: String, keys: String },
    /// Removals that match no taint of the cluster, as `taint "<key>[:<effect>]" not found`.
    #[error("{}", aggregate(.0))]
    TaintsNotFound(Vec<String>),
    /// The API server refused the change; the message is its Status message.
    #[error("{what}: {message}")]
    Rejected { what: String, message: String },
    /// The Cluster changed under every attempt to write it.
    #[error("cluster {0} kept changing while its taints were being written; gave up after {1} attempts")]
    KeptChanging(String, usize),
    /// A refusal on one of several clusters, naming it (kubectl's messages do not).
    #[error("cluster/{cluster}: {error}")]
    OnCluster { cluster: String, error: Box<TaintError> },
    /// Several clusters failed; each failure is listed, kubectl's aggregate style.
    #[error("{}", aggregate(&.0.iter().map(ToString::to_string).collect::<Vec<_>>()))]
    Several(Vec<TaintError>),
}

/// apimachinery's `NewAggregate(errs).Error()`: one message alone, several in brackets.
pub fn aggregate(messages: &[String]) -> String {
    match messages {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

impl TaintError {
    /// Several failures become one error (a single one stays itself).
    pub fn all(mut errors: Vec<TaintError>) -> Option<TaintError> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(Self::Several(errors)),
        }
    }

    /// The next step for the user, shown after `hint:`.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            Self::Usage(_) => {
                "name the clusters first, then the taints: 'karmadactl taint clusters NAME... KEY=VALUE:EFFECT...'; run 'karmadactl taint --help' for examples.".into()
            }
            Self::InvalidSpec(_) => {
                "write a taint as KEY=VALUE:EFFECT or KEY:EFFECT (EFFECT is NoSchedule, PreferNoSchedule or NoExecute); remove one with KEY:EFFECT- or KEY-.".into()
            }
            Self::ClusterNotFound(_) => "run 'kubectl get clusters' against the Karmada control plane to see the registered clusters.".into(),
            Self::AlreadyExists { .. } => {
                "add --overwrite to replace the existing value, or remove the taint first with KEY:EFFECT-.".into()
            }
            Self::TaintsNotFound(_) => {
                "run 'kubectl get cluster NAME -o jsonpath={.spec.taints}' against the Karmada control plane to see the cluster's taints.".into()
            }
            Self::Rejected { .. } => return None,
            Self::KeptChanging(..) => "run the command again.".into(),
            Self::OnCluster { error, .. } => return error.hint(),
            Self::Several(errors) => return errors.iter().find_map(Self::hint),
        })
    }
}

impl crate::error::Hint for TaintError {
    fn hint(&self) -> Option<String> {
        TaintError::hint(self)
    }
}

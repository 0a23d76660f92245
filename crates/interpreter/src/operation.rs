//! The interpreter operations, with the three names each goes by upstream: the operation
//! (`InterpretReplica`, as in webhook rules and `karmadactl interpret --operation`), the
//! customization's rule field (`replicaResource`) and the Lua function the rule's script
//! defines (`GetReplicas`).

use std::fmt;

/// One thing the interpreter can be asked about a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// The replicas and what each needs.
    InterpretReplica,
    /// The components of a multi-component workload and their replicas.
    InterpretComponent,
    /// A cluster's share written into the manifest.
    ReviseReplica,
    /// The member-side fields kept when the manifest is applied again.
    Retain,
    /// Members' statuses added up on the template.
    AggregateStatus,
    /// The status kept from a member's copy (upstream's ReflectStatus).
    InterpretStatus,
    /// Whether a member's copy is healthy.
    InterpretHealth,
    /// The objects the workload needs in the same clusters.
    InterpretDependency,
}

impl Operation {
    /// Every operation, in upstream's order.
    pub const ALL: [Operation; 8] = [
        Self::InterpretReplica,
        Self::InterpretComponent,
        Self::ReviseReplica,
        Self::Retain,
        Self::AggregateStatus,
        Self::InterpretStatus,
        Self::InterpretHealth,
        Self::InterpretDependency,
    ];

    /// The operation's name, as webhook rules and `--operation` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Self::InterpretReplica => "InterpretReplica",
            Self::InterpretComponent => "InterpretComponent",
            Self::ReviseReplica => "ReviseReplica",
            Self::Retain => "Retain",
            Self::AggregateStatus => "AggregateStatus",
            Self::InterpretStatus => "InterpretStatus",
            Self::InterpretHealth => "InterpretHealth",
            Self::InterpretDependency => "InterpretDependency",
        }
    }

    /// The operation named `name` (case-insensitively, as upstream's command accepts it).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.name().eq_ignore_ascii_case(name))
    }

    /// The field of `spec.customizations` that holds this operation's script.
    pub fn rule_field(self) -> &'static str {
        match self {
            Self::InterpretReplica => "replicaResource",
            Self::InterpretComponent => "componentResource",
            Self::ReviseReplica => "replicaRevision",
            Self::Retain => "retention",
            Self::AggregateStatus => "statusAggregation",
            Self::InterpretStatus => "statusReflection",
            Self::InterpretHealth => "healthInterpretation",
            Self::InterpretDependency => "dependencyInterpretation",
        }
    }

    /// The Lua function a rule's script must define.
    pub fn lua_function(self) -> &'static str {
        match self {
            Self::InterpretReplica => "GetReplicas",
            Self::InterpretComponent => "GetComponents",
            Self::ReviseReplica => "ReviseReplica",
            Self::Retain => "Retain",
            Self::AggregateStatus => "AggregateStatus",
            Self::InterpretStatus => "ReflectStatus",
            Self::InterpretHealth => "InterpretHealth",
            Self::InterpretDependency => "GetDependencies",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Operation;

    #[test]
    fn names_parse_back_whatever_the_case() {
        for op in Operation::ALL {
            assert_eq!(Operation::parse(op.name()), Some(op));
            assert_eq!(Operation::parse(&op.name().to_lowercase()), Some(op));
        }
        assert_eq!(Operation::parse("Replicas"), None);
    }
}

//! What every command that talks to the Karmada control plane and a member shares: clients
//! for both sides with bounded timeouts ([`connect`]), the failures classified with a next step
//! ([`errors`]), upstream's names for a member's objects, and the vocabulary join and unjoin
//! report in. The steps themselves live with their commands (`src/cmd/join/`,
//! `src/cmd/unjoin/`, `src/cmd/register/`).

pub mod connect;
pub mod errors;

use kube::api::PostParams;
use kube::{Api, Resource};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use connect::{Connection, Impersonation, Side, Target, connect};
pub use errors::MembershipError;

/// The kinds of object join creates and unjoin removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Namespace,
    ServiceAccount,
    Secret,
    ClusterRole,
    ClusterRoleBinding,
    Cluster,
}

impl Kind {
    /// kubectl's name for the resource, with the group for non-core kinds.
    pub fn resource(self) -> &'static str {
        match self {
            Self::Namespace => "namespace",
            Self::ServiceAccount => "serviceaccount",
            Self::Secret => "secret",
            Self::ClusterRole => "clusterrole.rbac.authorization.k8s.io",
            Self::ClusterRoleBinding => "clusterrolebinding.rbac.authorization.k8s.io",
            Self::Cluster => "cluster.cluster.karmada.io",
        }
    }
}

/// An object join creates or unjoin removes, named as kubectl names it (`secret/member1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRef {
    pub side: Side,
    pub kind: Kind,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    pub fn new(side: Side, kind: Kind, namespace: Option<&str>, name: impl Into<String>) -> Self {
        Self { side, kind, namespace: namespace.map(str::to_string), name: name.into() }
    }

    /// Where the object lives, for output lines.
    pub(crate) fn place(&self) -> String {
        let ns = self.namespace.as_ref().map(|n| format!(" in namespace {n}")).unwrap_or_default();
        format!("{ns} in the {}", self.side)
    }

    /// kubectl's deletion line (`cluster.cluster.karmada.io "member1" deleted`); objects in the
    /// member cluster say so.
    pub fn deleted_line(&self, dry_run: bool) -> String {
        let suffix = if dry_run { " (dry run)" } else { "" };
        match self.side {
            Side::Karmada => format!("{} \"{}\" deleted{suffix}", self.kind.resource(), self.name),
            Side::Member => {
                format!("{} \"{}\" deleted{suffix} from the member cluster", self.kind.resource(), self.name)
            }
        }
    }
}

/// One line of a dry-run plan: an object and whether the run would create it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub object: ObjectRef,
    pub exists: bool,
}

impl std::fmt::Display for Planned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.exists { "exists, left as is" } else { "would be created" };
        write!(f, "{}/{} {what}{}", self.object.kind.resource(), self.object.name, self.object.place())
    }
}

/// Progress reporting: one line per step (the command decides where it goes).
pub type Progress<'a> = &'a dyn Fn(&str);

/// The label Karmada puts on everything it creates for a member (`karmada.io/system=true`).
pub fn system_labels() -> std::collections::BTreeMap<String, String> {
    [(karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM.to_string(), "true".to_string())].into()
}

/// Upstream's names: the member's service account and its ClusterRole(Binding).
pub fn service_account_name(cluster: &str) -> String {
    format!("karmada-{cluster}")
}

pub const IMPERSONATOR_SERVICE_ACCOUNT: &str = "karmada-impersonator";

pub fn cluster_role_name(cluster: &str) -> String {
    format!("karmada-controller-manager:{}", service_account_name(cluster))
}

pub fn impersonator_secret_name(cluster: &str) -> String {
    format!("{cluster}-impersonator")
}

/// Creates `obj` unless an object of that name exists; returns whether it existed. A dry run
/// only reads.
pub async fn ensure<K>(api: &Api<K>, obj: &K, dry_run: bool, target: &Target) -> Result<bool, MembershipError>
where
    K: Resource<DynamicType = ()> + Clone + Serialize + DeserializeOwned + std::fmt::Debug,
{
    let name = obj.meta().name.clone().unwrap_or_default();
    let kind = K::kind(&());
    let what = format!("reading {kind} {name}");
    if api.get_opt(&name).await.map_err(|e| errors::classify(target, what, e))?.is_some() {
        return Ok(true);
    }
    if dry_run {
        return Ok(false);
    }
    match api.create(&PostParams::default(), obj).await {
        Ok(_) => Ok(false),
        // Someone created it in between: it exists, which is all "ensure" asks.
        Err(kube::Error::Api(s)) if s.code == 409 => Ok(true),
        Err(e) => Err(errors::classify(target, format!("creating {kind} {name}"), e)),
    }
}

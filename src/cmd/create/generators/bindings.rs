//! `create rolebinding NAME` and `create clusterrolebinding NAME`: the binding of a Role or
//! ClusterRole to users, groups and service accounts, as kubectl builds it.

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

const RBAC: &str = "rbac.authorization.k8s.io";

/// Create a role binding for a particular role or cluster role.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create rolebinding NAME --clusterrole=NAME|--role=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a role binding for user1, user2, and group1 using the admin cluster role\n  karmadactl create rolebinding admin --clusterrole=admin --user=user1 --user=user2 --group=group1\n\n  # Create a role binding for service account monitoring:sa-dev using the admin role\n  karmadactl create rolebinding admin-binding --role=admin --serviceaccount=monitoring:sa-dev"
)]
pub struct RoleBindingArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// ClusterRole this RoleBinding should reference
    #[arg(long, value_name = "NAME")]
    pub clusterrole: Option<String>,

    /// Role this RoleBinding should reference
    #[arg(long, value_name = "NAME")]
    pub role: Option<String>,

    #[command(flatten)]
    pub subjects: SubjectFlags,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// Create a cluster role binding for a particular cluster role.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create clusterrolebinding NAME --clusterrole=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a cluster role binding for user1, user2, and group1 using the cluster-admin cluster role\n  karmadactl create clusterrolebinding cluster-admin --clusterrole=cluster-admin --user=user1 --user=user2 --group=group1"
)]
pub struct ClusterRoleBindingArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// ClusterRole this ClusterRoleBinding should reference
    #[arg(long, value_name = "NAME")]
    pub clusterrole: Option<String>,

    #[command(flatten)]
    pub subjects: SubjectFlags,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// Who the binding grants the role to.
#[derive(Debug, Args)]
pub struct SubjectFlags {
    /// Usernames to bind to the role. The flag can be repeated to add multiple users.
    #[arg(long, value_name = "NAME")]
    pub user: Vec<String>,

    /// Groups to bind to the role. The flag can be repeated to add multiple groups.
    #[arg(long, value_name = "NAME")]
    pub group: Vec<String>,

    /// Service accounts to bind to the role, in the format <namespace>:<name>. The flag can be
    /// repeated to add multiple service accounts.
    #[arg(long, value_name = "NAMESPACE:NAME")]
    pub serviceaccount: Vec<String>,
}

impl SubjectFlags {
    /// Users, then groups, then service accounts, as kubectl lists them.
    fn subjects(&self) -> anyhow::Result<Vec<Value>> {
        let mut out = Vec::new();
        out.extend(self.user.iter().map(|u| json!({"kind": "User", "apiGroup": RBAC, "name": u})));
        out.extend(self.group.iter().map(|g| json!({"kind": "Group", "apiGroup": RBAC, "name": g})));
        for sa in &self.serviceaccount {
            match sa.split(':').collect::<Vec<_>>()[..] {
                [ns, name] if !ns.is_empty() && !name.is_empty() => {
                    out.push(json!({"kind": "ServiceAccount", "name": name, "namespace": ns}));
                }
                _ => anyhow::bail!("serviceaccount must be <namespace>:<name>"),
            }
        }
        Ok(out)
    }
}

fn binding(kind: &str, inputs: &Inputs, namespace: Option<&str>, role_ref: Value, subjects: Vec<Value>) -> Value {
    let mut object = typed(&format!("{RBAC}/v1"), kind, &inputs.name, namespace);
    if !subjects.is_empty() {
        object["subjects"] = Value::Array(subjects);
    }
    object["roleRef"] = role_ref;
    object
}

pub fn build_role_binding(args: &RoleBindingArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let role = args.role.clone().unwrap_or_default();
    let cluster_role = args.clusterrole.clone().unwrap_or_default();
    if role.is_empty() == cluster_role.is_empty() {
        anyhow::bail!("exactly one of clusterrole or role must be specified");
    }
    let role_ref = match role.is_empty() {
        false => json!({"apiGroup": RBAC, "kind": "Role", "name": role}),
        true => json!({"apiGroup": RBAC, "kind": "ClusterRole", "name": cluster_role}),
    };
    let object = binding("RoleBinding", inputs, inputs.object_namespace(), role_ref, args.subjects.subjects()?);
    Ok(Generated {
        resource: Resource::new(RBAC, "v1", "rolebindings", "RoleBinding", true),
        object,
        failure: Some("failed to create rolebinding: ".into()),
    })
}

/// cobra's check of the required flag, made before anything else.
pub fn check_required(args: &ClusterRoleBindingArgs) -> anyhow::Result<()> {
    if args.clusterrole.is_none() {
        anyhow::bail!("required flag(s) \"clusterrole\" not set");
    }
    Ok(())
}

pub fn build_cluster_role_binding(args: &ClusterRoleBindingArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let role_ref =
        json!({"apiGroup": RBAC, "kind": "ClusterRole", "name": args.clusterrole.clone().unwrap_or_default()});
    let object = binding("ClusterRoleBinding", inputs, None, role_ref, args.subjects.subjects()?);
    Ok(Generated {
        resource: Resource::new(RBAC, "v1", "clusterrolebindings", "ClusterRoleBinding", false),
        object,
        failure: Some("failed to create clusterrolebinding: ".into()),
    })
}

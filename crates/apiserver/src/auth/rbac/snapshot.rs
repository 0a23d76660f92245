//! RBAC objects indexed by subject, with every binding's role resolved ahead of time.

// Building is O(objects); a request then looks up its user name and groups in hash maps and
// only walks the rules of bindings that name it.

use std::collections::HashMap;
use std::sync::Arc;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject};

use crate::auth::authn::{UserInfo, service_account_username};

/// The rules a binding grants, or why they cannot be found (kube's lookup error text).
pub(super) type ResolvedRules = Result<Arc<[PolicyRule]>, String>;

/// An immutable view of all Roles, ClusterRoles and their bindings. Rebuild it when any of
/// them changes; [`super::authorize`] only reads it.
#[derive(Debug, Default)]
pub struct RbacSnapshot {
    cluster: BindingSet,
    namespaced: HashMap<String, BindingSet>,
}

/// The bindings of one scope (all ClusterRoleBindings, or one namespace's RoleBindings).
#[derive(Debug, Default)]
pub(super) struct BindingSet {
    /// In binding name order, so results and error texts are deterministic.
    rules: Vec<ResolvedRules>,
    by_user: HashMap<String, Vec<usize>>,
    by_group: HashMap<String, Vec<usize>>,
}

impl BindingSet {
    /// The rules of every binding with a subject matching `user`, each binding once, in name order.
    pub(super) fn applicable<'a>(&'a self, user: &UserInfo) -> impl Iterator<Item = &'a ResolvedRules> + use<'a> {
        let mut hits: Vec<usize> = Vec::new();
        hits.extend(self.by_user.get(&user.name).into_iter().flatten());
        for group in &user.groups {
            hits.extend(self.by_group.get(group).into_iter().flatten());
        }
        hits.sort_unstable();
        hits.dedup();
        hits.into_iter().map(move |i| &self.rules[i])
    }

    fn insert(&mut self, namespace: &str, subjects: &[Subject], rules: ResolvedRules) {
        let index = self.rules.len();
        self.rules.push(rules);
        for subject in subjects {
            let key = match subject.kind.as_str() {
                "User" => Some((&mut self.by_user, subject.name.clone())),
                "Group" => Some((&mut self.by_group, subject.name.clone())),
                // A ServiceAccount subject is its user name; without a namespace (which a
                // RoleBinding supplies) it names nobody.
                "ServiceAccount" => {
                    let ns = subject.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(namespace);
                    (!ns.is_empty()).then(|| (&mut self.by_user, service_account_username(ns, &subject.name)))
                }
                _ => None,
            };
            if let Some((map, key)) = key {
                let entry = map.entry(key).or_default();
                // Two subjects of one binding may name the same user; the binding counts once.
                if entry.last() != Some(&index) {
                    entry.push(index);
                }
            }
        }
    }
}

impl RbacSnapshot {
    /// Indexes the objects. Bindings pointing at missing roles are kept: they grant nothing,
    /// but their error shows in denial reasons, as upstream.
    pub fn new(
        roles: Vec<Role>,
        cluster_roles: Vec<ClusterRole>,
        role_bindings: Vec<RoleBinding>,
        cluster_role_bindings: Vec<ClusterRoleBinding>,
    ) -> Self {
        let rules_of = |rules: Option<Vec<PolicyRule>>| -> Arc<[PolicyRule]> { rules.unwrap_or_default().into() };
        let cluster_roles: HashMap<String, Arc<[PolicyRule]>> =
            cluster_roles.into_iter().map(|r| (r.metadata.name.unwrap_or_default(), rules_of(r.rules))).collect();
        let roles: HashMap<(String, String), Arc<[PolicyRule]>> = roles
            .into_iter()
            .map(|r| {
                ((r.metadata.namespace.unwrap_or_default(), r.metadata.name.unwrap_or_default()), rules_of(r.rules))
            })
            .collect();
        let resolve = |role_ref: &RoleRef, namespace: &str| -> ResolvedRules {
            match role_ref.kind.as_str() {
                "Role" => roles
                    .get(&(namespace.to_owned(), role_ref.name.clone()))
                    .cloned()
                    .ok_or_else(|| format!("role.rbac.authorization.k8s.io {:?} not found", role_ref.name)),
                "ClusterRole" => cluster_roles
                    .get(&role_ref.name)
                    .cloned()
                    .ok_or_else(|| format!("clusterrole.rbac.authorization.k8s.io {:?} not found", role_ref.name)),
                other => Err(format!("unsupported role reference kind: {other:?}")),
            }
        };

        let mut snapshot = RbacSnapshot::default();
        let mut crbs = cluster_role_bindings;
        crbs.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        for binding in crbs {
            let rules = resolve(&binding.role_ref, "");
            snapshot.cluster.insert("", binding.subjects.as_deref().unwrap_or_default(), rules);
        }
        let mut rbs = role_bindings;
        rbs.sort_by(|a, b| (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name)));
        for binding in rbs {
            let namespace = binding.metadata.namespace.clone().unwrap_or_default();
            let rules = resolve(&binding.role_ref, &namespace);
            let set = snapshot.namespaced.entry(namespace.clone()).or_default();
            set.insert(&namespace, binding.subjects.as_deref().unwrap_or_default(), rules);
        }
        snapshot
    }

    /// All ClusterRoleBindings.
    pub(super) fn cluster_bindings(&self) -> &BindingSet {
        &self.cluster
    }

    /// The RoleBindings of `namespace`, if it has any.
    pub(super) fn namespace_bindings(&self, namespace: &str) -> Option<&BindingSet> {
        self.namespaced.get(namespace)
    }
}

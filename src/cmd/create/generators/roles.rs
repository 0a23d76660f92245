//! `create role NAME` and `create clusterrole NAME`: one rule per API group of the named
//! resources (resolved through discovery, as kubectl's mapper resolves them), or a
//! ClusterRole's non-resource URLs or aggregation rule, as kubectl builds them.

use std::collections::BTreeMap;

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::{Resource, Served};

const RBAC: &str = "rbac.authorization.k8s.io";

const RESOURCE_VERBS: &[&str] = &[
    "*",
    "get",
    "delete",
    "list",
    "create",
    "update",
    "patch",
    "watch",
    "proxy",
    "deletecollection",
    "use",
    "bind",
    "escalate",
    "impersonate",
];
const NON_RESOURCE_VERBS: &[&str] = &["*", "get", "post", "put", "delete", "patch", "head", "options"];

/// Verbs that only apply to some resources: (verb, [(group, resource)]).
const SPECIAL_VERBS: &[(&str, &[(&str, &str)])] = &[
    ("use", &[("policy", "podsecuritypolicies"), ("extensions", "podsecuritypolicies")]),
    ("bind", &[(RBAC, "roles"), (RBAC, "clusterroles")]),
    ("escalate", &[(RBAC, "roles"), (RBAC, "clusterroles")]),
    ("impersonate", &[("", "users"), ("", "serviceaccounts"), ("", "groups"), ("authentication.k8s.io", "userextras")]),
];

/// The rule flags of both commands.
#[derive(Debug, Args)]
pub struct RuleFlags {
    /// Verb that applies to the resources contained in the rule
    #[arg(long, value_delimiter = ',', value_name = "VERB")]
    pub verb: Vec<String>,

    /// Resource that the rule applies to
    #[arg(long, value_delimiter = ',', value_name = "RESOURCE")]
    pub resource: Vec<String>,

    /// Resource in the white list that the rule applies to, repeat this flag for multiple items
    #[arg(long, value_name = "NAME")]
    pub resource_name: Vec<String>,
}

/// Create a role with single rule.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create role NAME --verb=verb --resource=resource.group/subresource [--resource-name=resourcename] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a role named \"pod-reader\" that allows user to perform \"get\", \"watch\" and \"list\" on pods\n  karmadactl create role pod-reader --verb=get --verb=list --verb=watch --resource=pods\n\n  # Create a role named \"pod-reader\" with ResourceName specified\n  karmadactl create role pod-reader --verb=get --resource=pods --resource-name=readablepod --resource-name=anotherpod\n\n  # Create a role named \"foo\" with API Group specified\n  karmadactl create role foo --verb=get,list,watch --resource=rs.apps\n\n  # Create a role named \"foo\" with SubResource specified\n  karmadactl create role foo --verb=get,list,watch --resource=pods,pods/status"
)]
pub struct RoleArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub rule: RuleFlags,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// Create a cluster role.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create clusterrole NAME --verb=verb --resource=resource.group [--resource-name=resourcename] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a cluster role named \"pod-reader\" that allows user to perform \"get\", \"watch\" and \"list\" on pods\n  karmadactl create clusterrole pod-reader --verb=get,list,watch --resource=pods\n\n  # Create a cluster role named \"pod-reader\" with ResourceName specified\n  karmadactl create clusterrole pod-reader --verb=get --resource=pods --resource-name=readablepod --resource-name=anotherpod\n\n  # Create a cluster role named \"foo\" with API Group specified\n  karmadactl create clusterrole foo --verb=get,list,watch --resource=rs.apps\n\n  # Create a cluster role named \"foo\" with SubResource specified\n  karmadactl create clusterrole foo --verb=get,list,watch --resource=pods,pods/status\n\n  # Create a cluster role name \"foo\" with NonResourceURL specified\n  karmadactl create clusterrole \"foo\" --verb=get --non-resource-url=/logs/*\n\n  # Create a cluster role name \"monitoring\" with AggregationRule specified\n  karmadactl create clusterrole monitoring --aggregation-rule=\"rbac.example.com/aggregate-to-monitoring=true\""
)]
pub struct ClusterRoleArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub rule: RuleFlags,

    /// A partial url that user should have access to.
    #[arg(long, value_delimiter = ',', value_name = "URL")]
    pub non_resource_url: Vec<String>,

    /// An aggregation label selector for combining ClusterRoles.
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub aggregation_rule: Vec<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// One `--resource`: resource, group, subresource.
#[derive(Debug, Clone, PartialEq)]
struct ResourceSpec {
    resource: String,
    group: String,
    subresource: String,
}

fn dedup(items: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.contains(i) {
            out.push(i.clone());
        }
    }
    out
}

/// The rule's inputs as kubectl's `Complete` reads them.
struct Rule {
    verbs: Vec<String>,
    resources: Vec<ResourceSpec>,
    names: Vec<String>,
}

impl RuleFlags {
    fn complete(&self) -> Rule {
        let verbs = if self.verb.iter().any(|v| v == "*") { vec!["*".to_string()] } else { dedup(&self.verb) };
        let mut resources = Vec::new();
        for r in &self.resource {
            let (main, sub) = r.split_once('/').unwrap_or((r, ""));
            let (resource, group) = main.split_once('.').unwrap_or((main, ""));
            let spec = ResourceSpec { resource: resource.into(), group: group.into(), subresource: sub.into() };
            if resource == "*" && !main.contains('.') && !r.contains('/') {
                resources = vec![spec];
                break;
            }
            resources.push(spec);
        }
        Rule { verbs, resources, names: dedup(&self.resource_name) }
    }
}

/// kubectl's `mapper.ResourceFor`: the served resource and its group, or the spec as given.
fn resolve(served: &Served, r: &ResourceSpec) -> (String, String) {
    let arg = if r.group.is_empty() { r.resource.clone() } else { format!("{}.{}", r.resource, r.group) };
    match served.resolve(&arg) {
        Ok(found) => (found.group, found.plural),
        Err(_) => (r.group.clone(), r.resource.clone()),
    }
}

/// kubectl's warnings for verbs it does not know, on stderr.
fn warn_verbs(verbs: &[String], ctx: &crate::cli::Context) {
    for v in verbs.iter().filter(|v| !RESOURCE_VERBS.contains(&v.as_str())) {
        ctx.printer.progress(&format!("Warning: '{v}' is not a standard resource verb"));
    }
}

/// kubectl's `validateResource` (roles only).
fn validate_resources(rule: &Rule, served: &Served) -> anyhow::Result<()> {
    for r in &rule.resources {
        if r.resource.is_empty() {
            anyhow::bail!("resource must be specified if apiGroup/subresource specified");
        }
        if r.resource == "*" {
            return Ok(());
        }
        let (group, resource) = resolve(served, r);
        for v in &rule.verbs {
            if let Some((_, allowed)) = SPECIAL_VERBS.iter().find(|(s, _)| s == v)
                && !allowed.iter().any(|(g, res)| *g == group && *res == resource)
            {
                anyhow::bail!("can not perform '{v}' on '{resource}' in group '{group}'");
            }
        }
    }
    Ok(())
}

/// kubectl's `generateResourcePolicyRules`: one rule per group (groups sorted), then one for
/// the non-resource URLs.
fn policy_rules(served: &Served, rule: &Rule, urls: &[String]) -> Vec<Value> {
    let mut by_group: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &rule.resources {
        let (group, mut resource) = resolve(served, r);
        if !r.subresource.is_empty() {
            resource = format!("{resource}/{}", r.subresource);
        }
        let list = by_group.entry(group).or_default();
        if !list.contains(&resource) {
            list.push(resource);
        }
    }
    let mut rules = Vec::new();
    for (group, resources) in by_group {
        let mut r = json!({"verbs": rule.verbs, "apiGroups": [group], "resources": resources});
        if !rule.names.is_empty() {
            r["resourceNames"] = json!(rule.names);
        }
        rules.push(r);
    }
    if !urls.is_empty() {
        rules.push(json!({"verbs": rule.verbs, "nonResourceURLs": urls}));
    }
    rules
}

/// Checks and builds the Role.
pub fn build_role(
    args: &RoleArgs,
    served: &Served,
    inputs: &Inputs,
    ctx: &crate::cli::Context,
) -> anyhow::Result<Generated> {
    let rule = args.rule.complete();
    if rule.verbs.is_empty() {
        anyhow::bail!("at least one verb must be specified");
    }
    warn_verbs(&rule.verbs, ctx);
    if rule.resources.is_empty() {
        anyhow::bail!("at least one resource must be specified");
    }
    validate_resources(&rule, served)?;
    let mut object = typed(&format!("{RBAC}/v1"), "Role", &inputs.name, inputs.object_namespace());
    object["rules"] = Value::Array(policy_rules(served, &rule, &[]));
    Ok(Generated { resource: Resource::new(RBAC, "v1", "roles", "Role", true), object, failure: None })
}

/// cliflag's `MapStringString`: `k=v` pairs separated by commas, the last value of a key wins.
fn aggregation_labels(values: &[String]) -> anyhow::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for value in values {
        for pair in value.split(',').filter(|p| !p.is_empty()) {
            let Some((k, v)) = pair.split_once('=') else {
                anyhow::bail!(
                    "invalid argument \"{value}\" for \"--aggregation-rule\" flag: malformed pair, expect string=string"
                );
            };
            out.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    Ok(out)
}

/// kubectl's `Validate` for cluster roles, before anything is read.
pub fn validate_cluster_role(args: &ClusterRoleArgs, ctx: &crate::cli::Context) -> anyhow::Result<()> {
    let rule = args.rule.complete();
    let urls = dedup(&args.non_resource_url);
    if !aggregation_labels(&args.aggregation_rule)?.is_empty() {
        if !urls.is_empty() || !rule.verbs.is_empty() || !rule.resources.is_empty() || !rule.names.is_empty() {
            anyhow::bail!(
                "aggregation rule must be specified without nonResourceURLs, verbs, resources or resourceNames"
            );
        }
        return Ok(());
    }
    if rule.verbs.is_empty() {
        anyhow::bail!("at least one verb must be specified");
    }
    if rule.resources.is_empty() && urls.is_empty() {
        anyhow::bail!("one of resource or nonResourceURL must be specified");
    }
    if !rule.resources.is_empty() {
        warn_verbs(&rule.verbs, ctx);
    }
    if !urls.is_empty() {
        if let Some(v) = rule.verbs.iter().find(|v| !NON_RESOURCE_VERBS.contains(&v.as_str())) {
            anyhow::bail!("invalid verb: '{v}' for nonResourceURL");
        }
        for url in urls.iter().filter(|u| *u != "*") {
            if !url.starts_with('/') {
                anyhow::bail!("nonResourceURL should start with /");
            }
            if url[..url.len() - 1].contains('*') {
                anyhow::bail!("nonResourceURL only supports wildcard matches when '*' is at the end");
            }
        }
    }
    Ok(())
}

pub fn build_cluster_role(args: &ClusterRoleArgs, served: &Served, inputs: &Inputs) -> anyhow::Result<Generated> {
    let labels = aggregation_labels(&args.aggregation_rule)?;
    let mut object = typed(&format!("{RBAC}/v1"), "ClusterRole", &inputs.name, None);
    if labels.is_empty() {
        let rules = policy_rules(served, &args.rule.complete(), &dedup(&args.non_resource_url));
        object["rules"] = Value::Array(rules);
    } else {
        object["rules"] = Value::Null;
        object["aggregationRule"] = json!({"clusterRoleSelectors": [{"matchLabels": labels}]});
    }
    Ok(Generated { resource: Resource::new(RBAC, "v1", "clusterroles", "ClusterRole", false), object, failure: None })
}

/// The resources the plane serves, for resolving `--resource`.
pub fn discover(connection: &crate::cmd::create::Connection) -> anyhow::Result<Served> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let (client, _, _) = connection.connect().await?;
        crate::cmd::objects::discover(&client).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_split_into_resource_group_and_subresource() {
        let flags = RuleFlags {
            verb: vec!["get".into(), "get".into(), "list".into()],
            resource: vec!["pods".into(), "rs.apps".into(), "pods/status".into()],
            resource_name: vec![],
        };
        let rule = flags.complete();
        assert_eq!(rule.verbs, vec!["get", "list"]);
        assert_eq!(
            rule.resources[1],
            ResourceSpec { resource: "rs".into(), group: "apps".into(), subresource: String::new() }
        );
        assert_eq!(rule.resources[2].subresource, "status");
    }

    #[test]
    fn aggregation_rules_are_pairs() {
        let labels = aggregation_labels(&["a=b,c=d".into()]).unwrap();
        assert_eq!(labels.len(), 2);
        assert!(aggregation_labels(&["ab".into()]).is_err());
    }
}

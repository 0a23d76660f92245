//! `promote`: adopt an object that already runs in a member cluster. The object is read from
//! the member (through its own kubeconfig, or the plane's cluster proxy), turned into a
//! resource template with conflict resolution Overwrite, and created in the plane together
//! with a policy pinning it to that member; the plane's execution controller then takes the
//! live object over in place.

use anyhow::{Context as _, anyhow, bail};
use karmadactl_karmada_api::cluster::Cluster;
use serde_json::Value;

use super::prepare::{self, Selected};
use crate::cmd::get::discovery::{self, Resource};
use crate::output::OutputFormat;
use karmadactl_engine::dependencies_distributor;

/// What to promote and how.
#[derive(Debug, Clone)]
pub struct Request {
    pub type_arg: String,
    pub name: String,
    pub namespace: String,
    pub cluster: String,
    pub dependencies: bool,
    pub auto_create_policy: bool,
    pub policy_name: Option<String>,
    pub output: Option<OutputFormat>,
    pub dry_run: bool,
}

/// Where the member is read from.
pub enum Member {
    /// A kubeconfig context for the member itself.
    Direct(Box<kube::Config>),
    /// Through the plane's `clusters/<c>/proxy`.
    Proxy,
}

/// Runs `promote`; `out` receives stdout text as upstream prints it, `warn` warnings.
pub async fn run(
    plane: kube::Config,
    member: Member,
    req: &Request,
    out: &mut dyn FnMut(&str),
    warn: &mut dyn FnMut(&str),
) -> anyhow::Result<()> {
    let plane_client = kube::Client::try_from(plane.clone())?;
    // The Cluster must exist whichever way the member is reached: the policy targets it.
    kube::Api::<Cluster>::all(plane_client.clone()).get(&req.cluster).await.map_err(|e| match e {
        kube::Error::Api(s) => anyhow!("{}", s.message),
        other => anyhow!(
            "cannot reach the Karmada control plane at {}: {}",
            plane.cluster_url,
            crate::error::with_causes(&other)
        ),
    })?;
    let member_client = match member {
        Member::Direct(cfg) => kube::Client::try_from(*cfg)?,
        Member::Proxy => {
            let mut cfg = plane.clone();
            let base = plane.cluster_url.to_string();
            let url = format!(
                "{}/apis/cluster.karmada.io/v1alpha1/clusters/{}/proxy",
                base.trim_end_matches('/'),
                req.cluster
            );
            cfg.cluster_url = url.parse()?;
            kube::Client::try_from(cfg)?
        }
    };
    let c = &req.cluster;
    let member_served = discovery::discover(&member_client)
        .await
        .map_err(|e| anyhow!("failed to get resource in cluster({c}). err: {}", crate::error::with_causes(&e)))?;
    let member_res = member_served
        .resolve(&req.type_arg)
        .map_err(|e| anyhow!("failed to get resource in cluster({c}). err: {e}"))?;
    let live = match get(&member_client, &member_res, &req.namespace, &req.name).await? {
        Some(v) => v,
        None => bail!(
            "failed to get resource in cluster({c}). err: the {} or {} don't exist in cluster({c})",
            req.type_arg,
            req.name
        ),
    };
    let plane_served = discovery::discover(&plane_client).await.context("cannot read the control plane's discovery")?;
    let plane_res = plane_served
        .0
        .iter()
        .filter(|r| r.group == member_res.group && r.kind == member_res.kind)
        .max_by_key(|r| r.version == member_res.version)
        .cloned()
        .ok_or_else(|| {
            anyhow!(
                "no matches for kind \"{}\" in group \"{}\" in the Karmada control plane",
                member_res.kind,
                member_res.group
            )
        })?;
    let mut template = prepare::template(live);
    template["apiVersion"] = api_version(&plane_res).into();
    let namespace = if plane_res.namespaced { req.namespace.as_str() } else { "" };
    let selected =
        Selected { api_version: &api_version(&plane_res), kind: &plane_res.kind, name: &req.name, namespace };
    let policy_name = prepare::policy_name(req.policy_name.as_deref(), &selected);
    let policy = req.auto_create_policy.then(|| prepare::policy(&policy_name, &selected, c, req.dependencies));

    if let Some(format) = req.output {
        out(&crate::output::to_format(format, &template)?);
        if let Some(p) = &policy {
            if format == OutputFormat::Yaml {
                out("---\n");
            }
            out(&crate::output::to_format(format, p)?);
        }
        return Ok(());
    }
    if req.dry_run {
        return Ok(());
    }
    let gvr = gvr_string(&plane_res);
    let shown = format!("{}/{}", namespace, req.name);
    let shown_promoted = if namespace.is_empty() { req.name.clone() } else { shown.clone() };
    if get(&plane_client, &plane_res, namespace, &req.name).await?.is_some() {
        bail!(
            "Resource \"{gvr}\"({shown_promoted}) already exist in karmada control plane, you can edit PropagationPolicy and OverridePolicy to propagate it"
        );
    }
    if req.dependencies {
        promote_dependencies(&member_client, &plane_client, &template, namespace, out, warn).await?;
    }
    create(&plane_client, &plane_res, namespace, &template).await.map_err(api_message)?;
    out(&format!("ResourceTemplate ({shown}) is created successfully\n"));
    if let Some(p) = &policy {
        let (res, line, exists) = if namespace.is_empty() {
            (
                policy_resource("clusterpropagationpolicies", "ClusterPropagationPolicy", false),
                format!("ClusterPropagationPolicy {policy_name} is created successfully\n"),
                format!(
                    "the ClusterPropagationPolicy({policy_name}) already exist, please edit it to propagate resource"
                ),
            )
        } else {
            (
                policy_resource("propagationpolicies", "PropagationPolicy", true),
                format!("PropagationPolicy ({namespace}/{policy_name}) is created successfully\n"),
                format!(
                    "the PropagationPolicy({namespace}/{policy_name}) already exist, please edit it to propagate resource"
                ),
            )
        };
        match create(&plane_client, &res, namespace, p).await {
            Ok(()) => out(&line),
            Err(kube::Error::Api(s)) if s.code == 409 => bail!("{exists}"),
            Err(e) => return Err(api_message(e)),
        }
    }
    out(&format!("Resource \"{gvr}\"({shown_promoted}) is promoted successfully\n"));
    Ok(())
}

/// `-d`: the ConfigMaps, Secrets, ServiceAccount and PVCs the workload refers to, created in
/// the plane without a policy of their own (the workload's policy carries them with
/// `propagateDeps`). One already in the plane stops the step without failing, after removing
/// what this run created, as upstream does; any other failure removes them too and fails.
async fn promote_dependencies(
    member: &kube::Client,
    plane: &kube::Client,
    template: &Value,
    namespace: &str,
    out: &mut dyn FnMut(&str),
    warn: &mut dyn FnMut(&str),
) -> anyhow::Result<()> {
    let mut created: Vec<(Resource, String)> = Vec::new();
    // The built-in interpreter's answer: what a pod template refers to.
    let target = karmadactl_interpreter::Target::of(template);
    let references = if karmadactl_interpreter::native::hook_enabled(
        &target,
        karmadactl_interpreter::Operation::InterpretDependency,
    ) {
        karmadactl_interpreter::native::dependencies(template)?
    } else {
        Vec::new()
    };
    for (kind, name) in dependencies_distributor::followed(&references, namespace) {
        let res = core_resource(&kind);
        let gvr = gvr_string(&res);
        let outcome: anyhow::Result<bool> = async {
            let Some(live) = get(member, &res, namespace, &name).await? else {
                bail!("dependency {gvr}({namespace}/{name}) does not exist in the member cluster");
            };
            if get(plane, &res, namespace, &name).await?.is_some() {
                return Ok(false);
            }
            create(plane, &res, namespace, &prepare::template(live)).await.map_err(api_message)?;
            Ok(true)
        }
        .await;
        match outcome {
            Ok(true) => {
                out(&format!("Dependency resource \"{gvr}\"({namespace}/{name}) is promoted successfully\n"));
                created.push((res, name));
            }
            Ok(false) => {
                warn(&format!(
                    "dependency {gvr}({namespace}/{name}) already exists in the Karmada control plane; \
                     the dependencies promoted in this run were removed again and no more are promoted"
                ));
                revert(plane, &created, namespace).await;
                return Ok(());
            }
            Err(e) => {
                revert(plane, &created, namespace).await;
                return Err(e);
            }
        }
    }
    Ok(())
}

async fn revert(plane: &kube::Client, created: &[(Resource, String)], namespace: &str) {
    for (res, name) in created {
        let path = format!("{}/{name}", collection(res, namespace));
        if let Ok(req) = http::Request::delete(path).body(Vec::new()) {
            let _ = plane.request_text(req).await;
        }
    }
}

/// `.../namespaces/<ns>/<plural>`, or `.../<plural>` for cluster-scoped resources.
fn collection(r: &Resource, namespace: &str) -> String {
    if r.namespaced {
        format!("{}/namespaces/{namespace}/{}", r.base_path(), r.plural)
    } else {
        format!("{}/{}", r.base_path(), r.plural)
    }
}

fn core_resource(kind: &str) -> Resource {
    let plural = format!("{}s", kind.to_lowercase());
    Resource::new("", "v1", &plural, kind, true)
}

fn policy_resource(plural: &str, kind: &str, namespaced: bool) -> Resource {
    Resource::new("policy.karmada.io", "v1alpha1", plural, kind, namespaced)
}

fn api_version(r: &Resource) -> String {
    if r.group.is_empty() { r.version.clone() } else { format!("{}/{}", r.group, r.version) }
}

/// Go's `GroupVersionResource.String()`: `apps/v1, Resource=deployments`.
fn gvr_string(r: &Resource) -> String {
    format!("{}/{}, Resource={}", r.group, r.version, r.plural)
}

/// The object, `None` when the server says it does not exist.
async fn get(client: &kube::Client, r: &Resource, namespace: &str, name: &str) -> anyhow::Result<Option<Value>> {
    let path = format!("{}/{name}", collection(r, namespace));
    let req = http::Request::get(path).body(Vec::new())?;
    match client.request::<Value>(req).await {
        Ok(v) => Ok(Some(v)),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        Err(e) => Err(api_message(e)),
    }
}

async fn create(client: &kube::Client, r: &Resource, namespace: &str, object: &Value) -> Result<(), kube::Error> {
    let path = collection(r, namespace);
    let body = serde_json::to_vec(object).map_err(kube::Error::SerdeError)?;
    let req = http::Request::post(path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(body)
        .map_err(kube::Error::HttpError)?;
    client.request::<Value>(req).await.map(|_| ())
}

/// The server's own message for API errors, the cause chain for the rest.
fn api_message(e: kube::Error) -> anyhow::Error {
    match e {
        kube::Error::Api(s) => anyhow!("{}", s.message),
        other => anyhow!("{}", crate::error::with_causes(&other)),
    }
}

//! `unregister` (§9 of the spec): the Cluster is marked deleted, its Works go (the agent removes
//! their member copies), then the Cluster, then the agent and its RBAC on both sides. Every step treats "already gone" as done,
//! so a run that was interrupted can simply be run again.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::certificates::v1::CertificateSigningRequest;
use k8s_openapi::api::core::v1::{Namespace, Secret};
use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::api::{Api, DeleteParams, ListParams};
use kube::{Client, ResourceExt};

use crate::membership::MembershipError;
use crate::pull::local_agent;
use crate::pull::objects::{self, ObjectId};
use crate::pull::plane_rbac;

#[derive(Debug, Clone)]
pub struct UnregisterOptions {
    pub cluster_name: String,
    /// The agent's namespace in the member.
    pub namespace: String,
    pub agent_name: String,
    pub cluster_namespace: String,
    pub wait: Duration,
    pub dry_run: bool,
    pub agent_dir: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum UnregisterError {
    #[error(
        "cannot find the agent's credentials for the control plane: no Deployment {namespace}/{agent} in the member and no local agent in {dir}"
    )]
    NoAgent { namespace: String, agent: String, dir: String },
    #[error(
        "cluster {0} is a Push mode member cluster, please use command `unjoin` if you want to continue unjoining the cluster"
    )]
    PushMode(String),
    #[error("the Works in {namespace} were not removed within {seconds}s ({left} left); is the agent running?")]
    WorksRemain { namespace: String, seconds: u64, left: usize },
    #[error("cluster {name} was not removed within {seconds}s")]
    ClusterRemains { name: String, seconds: u64 },
}

/// The plane client: from `--karmada-config` when given, else the agent's own credentials
/// (from its Deployment's Secret in the member, or from the local agent's directory).
pub async fn karmada_client(
    member: &Client,
    explicit: Option<Client>,
    opts: &UnregisterOptions,
) -> anyhow::Result<Client> {
    if let Some(c) = explicit {
        return Ok(c);
    }
    if let Some(kubeconfig) = kubeconfig_from_deployment(member, opts).await? {
        return crate::pull::client_from(&kubeconfig).await;
    }
    let path = local_agent::kubeconfig_path(&opts.agent_dir);
    if let Some(kc) = crate::kubeconfig::read_file(&path)? {
        return crate::pull::client_from(&kc).await;
    }
    Err(UnregisterError::NoAgent {
        namespace: opts.namespace.clone(),
        agent: opts.agent_name.clone(),
        dir: opts.agent_dir.display().to_string(),
    }
    .into())
}

/// Upstream's lookup: the `--karmada-kubeconfig=<dir>/<file>` argument of container 0, the
/// volume mounted at `<dir>`, its Secret, and `<file>` in it.
async fn kubeconfig_from_deployment(
    member: &Client,
    opts: &UnregisterOptions,
) -> anyhow::Result<Option<kube::config::Kubeconfig>> {
    let deployments: Api<Deployment> = Api::namespaced(member.clone(), &opts.namespace);
    let Some(d) = deployments.get_opt(&opts.agent_name).await? else {
        return Ok(None);
    };
    let spec = d.spec.and_then(|s| s.template.spec).unwrap_or_default();
    let Some(container) = spec.containers.first() else { return Ok(None) };
    let args = container.command.iter().flatten().chain(container.args.iter().flatten());
    let Some(path) = args.filter_map(|a| a.strip_prefix("--karmada-kubeconfig=")).next() else {
        return Ok(None);
    };
    let path = std::path::Path::new(path);
    let (Some(dir), Some(file)) = (path.parent(), path.file_name()) else { return Ok(None) };
    let mount = container
        .volume_mounts
        .iter()
        .flatten()
        .find(|m| std::path::Path::new(m.mount_path.trim_end_matches('/')) == dir);
    let Some(mount) = mount else { return Ok(None) };
    let secret_name = spec
        .volumes
        .iter()
        .flatten()
        .find(|v| v.name == mount.name)
        .and_then(|v| v.secret.as_ref()?.secret_name.clone());
    let Some(secret_name) = secret_name else { return Ok(None) };
    let secrets: Api<Secret> = Api::namespaced(member.clone(), &opts.namespace);
    let Some(secret) = secrets.get_opt(&secret_name).await? else { return Ok(None) };
    let Some(data) = secret.data.and_then(|d| d.get(&file.to_string_lossy().into_owned()).cloned()) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&data.0).into_owned();
    Ok(Some(kube::config::Kubeconfig::from_yaml(&text)?))
}

/// Runs the removal; `admin` is the `--karmada-config` client (only it may delete the
/// agent's RBAC in the plane).
pub async fn unregister(
    member: &Client,
    karmada: &Client,
    admin: bool,
    opts: &UnregisterOptions,
    out: &dyn Fn(&str),
) -> anyhow::Result<()> {
    let name = &opts.cluster_name;
    let clusters: Api<Cluster> = Api::all(karmada.clone());
    let cluster = clusters.get_opt(name).await?;
    let local = local_agent::kubeconfig_path(&opts.agent_dir).exists();
    let deployed =
        objects::exists(member, &ObjectId::new("Deployment", Some(&opts.namespace), &opts.agent_name)).await?;
    match &cluster {
        Some(c) if c.spec.sync_mode == ClusterSyncMode::Push => {
            return Err(UnregisterError::PushMode(name.clone()).into());
        }
        // Nothing left of it anywhere: there is nothing to unregister.
        None if !local && !deployed => return Err(MembershipError::ClusterNotFound(name.clone()).into()),
        _ => {}
    }
    if opts.dry_run {
        return Ok(());
    }
    let deadline = Instant::now() + opts.wait;
    if cluster.is_some() {
        // The Cluster is deleted first: its deletionTimestamp is what keeps the scheduler and
        // the binding controller from giving it new Works, which deleting the Works first (as
        // upstream does) would have them re-create for as long as a policy targets it. The
        // execution namespace, and the agent's Role in it, stay until the Works are gone.
        match clusters.delete(name, &DeleteParams::default()).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => return Err(e.into()),
        }
        delete_works(karmada, name, deadline, opts.wait).await?;
        while clusters.get_opt(name).await?.is_some() {
            if Instant::now() >= deadline {
                return Err(UnregisterError::ClusterRemains { name: name.clone(), seconds: opts.wait.as_secs() }.into());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        out(&format!("cluster.cluster.karmada.io \"{name}\" deleted"));
    }
    if let Some(pid) = local_agent::running_pid(&opts.agent_dir) {
        crate::local_plane::process::stop(pid, Duration::from_secs(5))?;
        out(&format!("local karmada agent (pid {pid}) stopped"));
    }
    let rbac = plane_rbac_ids(name, &opts.cluster_namespace);
    if admin {
        for id in &rbac {
            if objects::delete(karmada, id).await? {
                out(&format!("{id} deleted"));
            }
        }
        delete_agent_csrs(karmada, name).await?;
        delete_execution_space(karmada, name).await?;
    } else {
        let names = rbac.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        tracing::warn!(
            "the agent's RBAC in the control plane was left in place ({names}); pass --karmada-config with an administrator's kubeconfig to remove it"
        );
        eprintln!(
            "warning: the agent's RBAC in the control plane was left in place ({names}); run again with --karmada-config <admin kubeconfig> to remove it"
        );
    }
    for id in member_ids(name, opts) {
        if objects::delete(member, &id).await? {
            out(&format!("{id} deleted from the member cluster"));
        }
    }
    local_agent::remove(&opts.agent_dir)?;
    Ok(())
}

async fn delete_works(karmada: &Client, cluster: &str, deadline: Instant, wait: Duration) -> anyhow::Result<()> {
    let space = wellknown::execution_space(cluster);
    let works: Api<Work> = Api::namespaced(karmada.clone(), &space);
    loop {
        let list = match works.list(&ListParams::default()).await {
            Ok(l) => l.items,
            Err(kube::Error::Api(e)) if e.code == 404 => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        if list.is_empty() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(
                UnregisterError::WorksRemain { namespace: space, seconds: wait.as_secs(), left: list.len() }.into()
            );
        }
        for w in list.iter().filter(|w| w.metadata.deletion_timestamp.is_none()) {
            match works.delete(&w.name_any(), &DeleteParams::default()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e.into()),
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn plane_rbac_ids(cluster: &str, cluster_namespace: &str) -> Vec<ObjectId> {
    let es = wellknown::execution_space(cluster);
    let cr = plane_rbac::cluster_role_name(cluster);
    let secret_role = plane_rbac::secret_role_name(cluster);
    let work_role = plane_rbac::work_role_name(cluster);
    vec![
        ObjectId::new("ClusterRole", None, &cr),
        ObjectId::new("ClusterRoleBinding", None, &cr),
        ObjectId::new("Role", Some(cluster_namespace), &secret_role),
        ObjectId::new("RoleBinding", Some(cluster_namespace), &secret_role),
        ObjectId::new("Role", Some(&es), &work_role),
        ObjectId::new("RoleBinding", Some(&es), &work_role),
    ]
}

/// The execution namespace register made for this cluster (marked so); one the cluster
/// controller made is removed by it with the Cluster.
async fn delete_execution_space(karmada: &Client, cluster: &str) -> anyhow::Result<()> {
    let api: Api<Namespace> = Api::all(karmada.clone());
    let name = wellknown::execution_space(cluster);
    let Some(ns) = api.get_opt(&name).await? else { return Ok(()) };
    if ns.annotations().get(plane_rbac::REGISTERED_FOR_ANNOTATION).map(String::as_str) != Some(cluster) {
        return Ok(());
    }
    let pre = kube::api::Preconditions { uid: ns.uid(), resource_version: None };
    match api.delete(&name, &DeleteParams { preconditions: Some(pre), ..Default::default() }).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The agent's certificate requests: those that ask for the agent's user, which proves they
/// are this cluster's.
async fn delete_agent_csrs(karmada: &Client, cluster: &str) -> anyhow::Result<()> {
    let api: Api<CertificateSigningRequest> = Api::all(karmada.clone());
    let user = plane_rbac::agent_user(cluster);
    for csr in api.list(&ListParams::default()).await? {
        let pem = String::from_utf8_lossy(&csr.spec.request.0).into_owned();
        let asks_for_agent = karmadactl_pki::inspect_csr(&pem).is_ok_and(|info| info.subject.common_name == user);
        if asks_for_agent {
            match api.delete(&csr.name_any(), &DeleteParams::default()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// §9 step 7, in upstream's order.
pub fn member_ids(cluster: &str, opts: &UnregisterOptions) -> Vec<ObjectId> {
    let cn = Some(opts.cluster_namespace.as_str());
    let ns = Some(opts.namespace.as_str());
    let sa = crate::membership::service_account_name(cluster);
    let cr = crate::membership::cluster_role_name(cluster);
    vec![
        ObjectId::new("ServiceAccount", cn, &sa),
        ObjectId::new("ClusterRole", None, &cr),
        ObjectId::new("ClusterRoleBinding", None, &cr),
        ObjectId::new("Secret", cn, &sa),
        ObjectId::new("ServiceAccount", cn, "karmada-impersonator"),
        ObjectId::new("Secret", cn, "karmada-impersonator"),
        ObjectId::new("Namespace", None, &opts.cluster_namespace),
        ObjectId::new("Deployment", ns, crate::pull::member_agent::AGENT_NAME),
        ObjectId::new("ServiceAccount", ns, crate::pull::member_agent::AGENT_SERVICE_ACCOUNT),
        ObjectId::new("ClusterRole", None, crate::pull::member_agent::AGENT_NAME),
        ObjectId::new("ClusterRoleBinding", None, crate::pull::member_agent::AGENT_NAME),
        ObjectId::new("Secret", ns, crate::pull::member_agent::KUBECONFIG_SECRET),
    ]
}

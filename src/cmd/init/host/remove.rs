//! What deinit removes from a host cluster: only objects that carry both upstream's
//! `karmada.io/bootstrapping` label and this tool's installation label (so nothing someone
//! else made is touched), etcd's data unless asked to keep it, the etcd node label init set,
//! and, if asked, the namespace init created.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Namespace, Node};
use karmadactl_karmada_api::wellknown::{LABEL_BOOTSTRAPPING, LABEL_ETCD_NODE, LABEL_INSTALLED_BY};
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

use super::apply::api_resource;
pub use super::host_objects::INSTALLED_BY_INIT;

/// The image of the Job that empties etcd's hostPath directory on its node.
pub const CLEANUP_IMAGE: &str = "docker.io/library/busybox:1.36";
/// Name of that Job.
pub const CLEANUP_JOB: &str = "karmada-etcd-data-cleanup";
const CLEANUP_TIMEOUT: Duration = Duration::from_secs(120);

/// Kinds deleted, in upstream's order (PVCs after, as they hold etcd's data).
const KINDS: [(&str, &str); 5] = [
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("v1", "Service"),
    ("v1", "Secret"),
    ("v1", "PersistentVolumeClaim"),
];

#[derive(Debug, thiserror::Error)]
pub enum RemoveError {
    #[error("namespace {0} does not exist in the host cluster")]
    NoNamespace(String),
    #[error("cannot {action}: {source}")]
    Api {
        action: String,
        #[source]
        source: kube::Error,
    },
}

fn api_err(action: impl Into<String>) -> impl FnOnce(kube::Error) -> RemoveError {
    let action = action.into();
    move |source| RemoveError::Api { action, source }
}

/// etcd's hostPath directory and the node it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataCleanup {
    pub path: String,
    pub node_selector: Value,
}

#[derive(Debug, Clone)]
pub struct Removal {
    pub namespace: String,
    /// (apiVersion, kind, name), in deletion order.
    pub objects: Vec<(String, String, String)>,
    pub data: Option<DataCleanup>,
    /// `--purge-namespace` and the namespace carries the installation label.
    pub delete_namespace: bool,
    /// `--purge-namespace` was given but the namespace was not created by init.
    pub namespace_not_ours: bool,
    pub etcd_nodes: Vec<String>,
}

/// The label selector of everything init created.
pub fn selector() -> String {
    format!("{LABEL_BOOTSTRAPPING},{LABEL_INSTALLED_BY}={INSTALLED_BY_INIT}")
}

/// Looks at the host and decides what to remove; changes nothing.
pub async fn plan(
    client: &Client,
    namespace: &str,
    purge_namespace: bool,
    keep_data: bool,
) -> Result<Removal, RemoveError> {
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = namespaces
        .get_opt(namespace)
        .await
        .map_err(api_err(format!("read namespace {namespace}")))?
        .ok_or_else(|| RemoveError::NoNamespace(namespace.to_string()))?;
    let ours = ns.labels().get(LABEL_INSTALLED_BY).is_some_and(|v| v == INSTALLED_BY_INIT);
    let params = ListParams::default().labels(&selector());
    let mut objects = Vec::new();
    let mut data = None;
    for (api_version, kind) in KINDS {
        if kind == "PersistentVolumeClaim" && keep_data {
            continue;
        }
        let (ar, _) = api_resource(api_version, kind).expect("known kinds");
        let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), namespace, &ar);
        let list = match api.list(&params).await {
            Ok(list) => list.items,
            // A cluster that does not serve the kind (a minimal API server without PVCs) has none.
            Err(kube::Error::Api(e)) if e.code == 404 => Vec::new(),
            Err(e) => return Err(api_err(format!("list {kind}s in {namespace}"))(e)),
        };
        for obj in list {
            if kind == "StatefulSet" && !keep_data {
                data = data.or_else(|| host_path_data(&obj.data));
            }
            objects.push((api_version.to_string(), kind.to_string(), obj.name_any()));
        }
    }
    let nodes: Api<Node> = Api::all(client.clone());
    let etcd_nodes = nodes
        .list(&ListParams::default().labels(&format!("{LABEL_ETCD_NODE}=")))
        .await
        .map_err(api_err("list the etcd nodes"))?
        .items
        .iter()
        .map(|n| n.name_any())
        .collect();
    Ok(Removal {
        namespace: namespace.to_string(),
        objects,
        data,
        delete_namespace: purge_namespace && ours,
        namespace_not_ours: purge_namespace && !ours,
        etcd_nodes,
    })
}

/// The etcd StatefulSet's hostPath data volume, if it has one.
fn host_path_data(sts: &Value) -> Option<DataCleanup> {
    let pod = &sts["spec"]["template"]["spec"];
    let path = pod["volumes"].as_array()?.iter().find(|v| v["name"] == "etcd-data")?["hostPath"]["path"].as_str()?;
    Some(DataCleanup { path: path.to_string(), node_selector: pod["nodeSelector"].clone() })
}

impl Removal {
    /// One line per step, as deinit prints them.
    pub fn describe(&self) -> Vec<String> {
        let mut lines: Vec<String> =
            self.objects.iter().map(|(_, kind, name)| format!("delete {kind} \"{}/{name}\"", self.namespace)).collect();
        if let Some(d) = &self.data {
            lines.push(format!(
                "delete etcd's data in {} on the node selected by {} (Job {}/{CLEANUP_JOB}, image {CLEANUP_IMAGE})",
                d.path, d.node_selector, self.namespace
            ));
        }
        if self.delete_namespace {
            lines.push(format!("delete Namespace \"{}\"", self.namespace));
        }
        for node in &self.etcd_nodes {
            lines.push(format!("remove node \"{node}\" labels \"{LABEL_ETCD_NODE}\""));
        }
        lines
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty() && self.data.is_none() && !self.delete_namespace && self.etcd_nodes.is_empty()
    }

    /// Carries out the plan; `progress` gets a line per finished step, `warn` the steps that
    /// could not be finished but do not stop the rest.
    pub async fn execute(
        &self,
        client: &Client,
        progress: &dyn Fn(&str),
        warn: &dyn Fn(&str),
    ) -> Result<(), RemoveError> {
        let ns = &self.namespace;
        for (api_version, kind, name) in &self.objects {
            let (ar, _) = api_resource(api_version, kind).expect("known kinds");
            let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), ns, &ar);
            match api.delete(name, &DeleteParams::background()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(api_err(format!("delete {kind} {ns}/{name}"))(e)),
            }
            progress(&format!("deleted {kind} \"{ns}/{name}\""));
        }
        if let Some(data) = &self.data {
            match self.clean_data(client, data).await {
                Ok(()) => progress(&format!("deleted etcd's data in {}", data.path)),
                Err(why) => warn(&format!(
                    "etcd's data in {} was not deleted ({why}); delete it on the node yourself",
                    data.path
                )),
            }
        }
        if self.delete_namespace {
            let api: Api<Namespace> = Api::all(client.clone());
            match api.delete(ns, &DeleteParams::background()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(api_err(format!("delete namespace {ns}"))(e)),
            }
            progress(&format!("deleted Namespace \"{ns}\""));
        }
        let nodes: Api<Node> = Api::all(client.clone());
        for node in &self.etcd_nodes {
            let patch = json!({"metadata": {"labels": {LABEL_ETCD_NODE: null}}});
            nodes
                .patch(node, &PatchParams::default(), &Patch::Merge(&patch))
                .await
                .map_err(api_err(format!("remove the {LABEL_ETCD_NODE} label from node {node}")))?;
            progress(&format!("removed node \"{node}\" labels \"{LABEL_ETCD_NODE}\""));
        }
        Ok(())
    }

    /// Runs a Job on etcd's node that empties the hostPath directory, waits for it, and
    /// deletes it again.
    async fn clean_data(&self, client: &Client, data: &DataCleanup) -> Result<(), String> {
        let ns = &self.namespace;
        let (ar, _) = api_resource("batch/v1", "Job").expect("known kind");
        let jobs: Api<DynamicObject> = Api::namespaced_with(client.clone(), ns, &ar);
        let job: DynamicObject = serde_json::from_value(json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": CLEANUP_JOB, "namespace": ns,
                         "labels": {LABEL_BOOTSTRAPPING: "app-defaults", LABEL_INSTALLED_BY: INSTALLED_BY_INIT}},
            "spec": {"backoffLimit": 2, "template": {"spec": {
                "restartPolicy": "Never",
                "automountServiceAccountToken": false,
                "nodeSelector": data.node_selector,
                "tolerations": [{"operator": "Exists"}],
                "containers": [{"name": "cleanup", "image": CLEANUP_IMAGE,
                    "command": ["find", "/data", "-mindepth", "1", "-delete"],
                    "volumeMounts": [{"name": "data", "mountPath": "/data"}]}],
                "volumes": [{"name": "data", "hostPath": {"path": data.path, "type": "Directory"}}],
            }}},
        }))
        .map_err(|e| e.to_string())?;
        match jobs.create(&PostParams::default(), &job).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 409 => {}
            Err(e) => return Err(format!("the cleanup Job could not be created: {e}")),
        }
        let start = Instant::now();
        let outcome = loop {
            let current = jobs.get_opt(CLEANUP_JOB).await.map_err(|e| e.to_string())?;
            let status = current.map(|j| j.data["status"].clone()).unwrap_or_default();
            if status["succeeded"].as_i64().unwrap_or(0) >= 1 {
                break Ok(());
            }
            let failed = status["conditions"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c["type"] == "Failed" && c["status"] == "True"));
            if failed {
                break Err(format!("the cleanup Job {ns}/{CLEANUP_JOB} failed"));
            }
            if start.elapsed() >= CLEANUP_TIMEOUT {
                break Err(format!(
                    "the cleanup Job {ns}/{CLEANUP_JOB} did not finish within {}s",
                    CLEANUP_TIMEOUT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        };
        let _ = jobs.delete(CLEANUP_JOB, &DeleteParams::background()).await;
        outcome
    }
}

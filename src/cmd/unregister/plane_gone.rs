//! `unregister` when the control plane cannot be reached: telling that apart from a refusal,
//! and what `--force` can still remove without it (the local agent and its files, the agent's
//! objects in the member). The plane's side stays as it is: nothing can reach it.

use kube::Client;

use super::steps::{UnregisterOptions, member_ids};
use crate::pull::local_agent;
use crate::pull::objects::{self, ObjectId};

/// Why the plane cannot be reached, or `None` when it answers (any API answer, a refusal
/// included, proves it is there).
pub async fn plane_unreachable(plane: &Client) -> Option<String> {
    match plane.apiserver_version().await {
        Ok(_) | Err(kube::Error::Api(_)) => None,
        // What happened ("tcp connect error: Connection refused"), without the layers that
        // only name the client's plumbing.
        Err(e) => {
            let mut text = crate::error::with_causes(&e);
            for layer in ["ServiceError: ", "client error (Connect): "] {
                while let Some(rest) = text.strip_prefix(layer) {
                    text = rest.to_string();
                }
            }
            Some(text)
        }
    }
}

/// What is left of the registration on this machine and in the member.
pub struct LocalSide {
    /// The local agent's pid, if it runs, and its directory, if register wrote one.
    agent: Option<(Option<u32>, std::path::PathBuf)>,
    member: Vec<ObjectId>,
}

impl LocalSide {
    pub async fn find(member: &Client, opts: &UnregisterOptions) -> anyhow::Result<LocalSide> {
        let dir = &opts.agent_dir;
        let pid = local_agent::running_pid(dir);
        let agent = (pid.is_some() || local_agent::kubeconfig_path(dir).exists()).then(|| (pid, dir.clone()));
        let mut present = vec![];
        for id in member_ids(&opts.cluster_name, opts) {
            if objects::exists(member, &id).await? {
                present.push(id);
            }
        }
        Ok(LocalSide { agent, member: present })
    }

    pub fn is_empty(&self) -> bool {
        self.agent.is_none() && self.member.is_empty()
    }

    /// The plan, one line a step.
    pub fn steps(&self) -> Vec<String> {
        let mut steps = vec![];
        match &self.agent {
            Some((Some(pid), dir)) => {
                steps.push(format!("stop the local agent (pid {pid}) and delete its files in {}", dir.display()))
            }
            Some((None, dir)) => steps.push(format!("delete the local agent's files in {}", dir.display())),
            None => {}
        }
        steps.extend(self.member.iter().map(|id| format!("delete {id} from the member cluster")));
        steps
    }

    pub async fn remove(self, member: &Client, out: &dyn Fn(&str)) -> anyhow::Result<()> {
        if let Some((pid, dir)) = &self.agent {
            local_agent::remove(dir)?;
            match pid {
                Some(pid) => out(&format!("local karmada agent (pid {pid}) stopped and {} removed", dir.display())),
                None => out(&format!("{} removed", dir.display())),
            }
        }
        for id in &self.member {
            if objects::delete(member, id).await? {
                out(&format!("{id} deleted from the member cluster"));
            }
        }
        Ok(())
    }
}

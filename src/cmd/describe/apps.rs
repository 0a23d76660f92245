//! kubectl's describers for the apps group: Deployment (with its old and new ReplicaSets),
//! ReplicaSet, StatefulSet and DaemonSet, each with the pods it controls counted by phase and
//! its pod template, then events.

use serde_json::Value;

use super::events::Events;
use super::go_format::{self, rfc1123z};
use super::prefix_writer::PrefixWriter;
use super::targets::Failure;
use super::{Settings, list, meta, pod_template};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn number(v: &Value) -> i64 {
    v.as_i64().unwrap_or_default()
}

/// `getPodStatusForController`: the pods matching `selector` that `owner` controls, counted as
/// running, waiting (pending), succeeded and failed.
async fn pod_counts(settings: &Settings<'_>, owner: &Value, selector: &str) -> Result<[usize; 4], Failure> {
    let metadata = &owner["metadata"];
    let path = format!("/api/v1/namespaces/{}/pods", text(&metadata["namespace"]));
    let pods = list::items(settings.client, &path, &[("labelSelector", selector)], settings.chunk_size).await?;
    let mut counts = [0; 4];
    for pod in pods.iter().filter(|p| go_format::controller_uid(p) == metadata["uid"].as_str()) {
        match text(&pod["status"]["phase"]) {
            "Running" => counts[0] += 1,
            "Pending" => counts[1] += 1,
            "Succeeded" => counts[2] += 1,
            "Failed" => counts[3] += 1,
            _ => {}
        }
    }
    Ok(counts)
}

fn pods_status([running, waiting, succeeded, failed]: [usize; 4]) -> String {
    format!("{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed")
}

/// The selector of a workload, or the describe failure kubectl reports for a bad one.
fn selector(object: &Value) -> Result<String, Failure> {
    go_format::selector(&object["spec"]["selector"]).map_err(Failure::Other)
}

/// `Type Status Reason` conditions of a workload.
fn conditions(w: &mut PrefixWriter, object: &Value) {
    let list = object["status"]["conditions"].as_array().map(Vec::as_slice).unwrap_or_default();
    if list.is_empty() {
        return;
    }
    w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
    w.write(1, "----\t------\t------\n");
    for c in list {
        w.write(1, &format!("{} \t{}\t{}\n", text(&c["type"]), text(&c["status"]), text(&c["reason"])));
    }
}

fn name_lines(w: &mut PrefixWriter, object: &Value) {
    w.write(0, &format!("Name:\t{}\n", text(&object["metadata"]["name"])));
    w.write(0, &format!("Namespace:\t{}\n", text(&object["metadata"]["namespace"])));
}

fn metadata_lines(w: &mut PrefixWriter, object: &Value) {
    let metadata = &object["metadata"];
    meta::labels(w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(w, "Annotations", &meta::string_map(metadata.get("annotations")));
}

pub async fn deployment(settings: &Settings<'_>, d: &Value, events: Option<&Events>) -> Result<String, Failure> {
    let selector = selector(d)?;
    // ReplicaSets that cannot be listed leave the ReplicaSet lines out, as kubectl does.
    let (old, new) = replica_sets(settings, d, &selector).await.unwrap_or_default();
    let (spec, status) = (&d["spec"], &d["status"]);
    let mut w = PrefixWriter::new();
    name_lines(&mut w, d);
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z(&d["metadata"]["creationTimestamp"])));
    metadata_lines(&mut w, d);
    w.write(0, &format!("Selector:\t{selector}\n"));
    w.write(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            number(&spec["replicas"]),
            number(&status["updatedReplicas"]),
            number(&status["replicas"]),
            number(&status["availableReplicas"]),
            number(&status["unavailableReplicas"])
        ),
    );
    let strategy = &spec["strategy"];
    w.write(0, &format!("StrategyType:\t{}\n", text(&strategy["type"])));
    w.write(0, &format!("MinReadySeconds:\t{}\n", number(&spec["minReadySeconds"])));
    if let Some(ru) = strategy.get("rollingUpdate").filter(|r| r.is_object()) {
        w.write(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                go_format::int_or_string(&ru["maxUnavailable"]),
                go_format::int_or_string(&ru["maxSurge"])
            ),
        );
    }
    pod_template::describe(&mut w, &spec["template"]);
    conditions(&mut w, d);
    if !old.is_empty() || new.is_some() {
        w.write(0, &format!("OldReplicaSets:\t{}\n", replica_set_list(&old)));
        w.write(0, &format!("NewReplicaSet:\t{}\n", replica_set_list(new.as_slice())));
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    Ok(w.finish())
}

/// `GetAllReplicaSetsInChunks`: the ReplicaSets the Deployment controls, oldest first, split
/// into the old ones and the new one (the oldest whose template is the Deployment's).
async fn replica_sets(
    settings: &Settings<'_>,
    d: &Value,
    selector: &str,
) -> Result<(Vec<Value>, Option<Value>), Failure> {
    let metadata = &d["metadata"];
    let path = format!("/apis/apps/v1/namespaces/{}/replicasets", text(&metadata["namespace"]));
    let mut owned: Vec<Value> =
        list::items(settings.client, &path, &[("labelSelector", selector)], settings.chunk_size)
            .await?
            .into_iter()
            .filter(|rs| go_format::controller_uid(rs) == metadata["uid"].as_str())
            .collect();
    owned.sort_by(|a, b| {
        let key = |rs: &Value| {
            let created = rs["metadata"]["creationTimestamp"].as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok());
            (created, text(&rs["metadata"]["name"]).to_string())
        };
        key(a).cmp(&key(b))
    });
    let wanted = without_hash(&d["spec"]["template"]);
    let new = owned.iter().position(|rs| without_hash(&rs["spec"]["template"]) == wanted).map(|i| owned.remove(i));
    Ok((owned, new))
}

/// A pod template without the `pod-template-hash` label (and without an emptied label map), as
/// kubectl compares a ReplicaSet's template with its Deployment's.
fn without_hash(template: &Value) -> Value {
    let mut t = template.clone();
    if let Some(labels) = t["metadata"]["labels"].as_object_mut() {
        labels.remove("pod-template-hash");
        if labels.is_empty() {
            t["metadata"].as_object_mut().map(|m| m.remove("labels"));
        }
    }
    t
}

/// `printReplicaSetsByLabels`.
fn replica_set_list(list: &[Value]) -> String {
    let shown: Vec<String> = list
        .iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                text(&rs["metadata"]["name"]),
                number(&rs["status"]["replicas"]),
                number(&rs["spec"]["replicas"])
            )
        })
        .collect();
    if shown.is_empty() { "<none>".into() } else { shown.join(", ") }
}

pub async fn replica_set(settings: &Settings<'_>, rs: &Value, events: Option<&Events>) -> Result<String, Failure> {
    let selector = selector(rs)?;
    let counts = pod_counts(settings, rs, &selector).await;
    let mut w = PrefixWriter::new();
    name_lines(&mut w, rs);
    w.write(0, &format!("Selector:\t{}\n", go_format::format_selector(&rs["spec"]["selector"])));
    metadata_lines(&mut w, rs);
    if let Some(owner) = go_format::controller(rs) {
        w.write(0, &format!("Controlled By:\t{owner}\n"));
    }
    w.write(
        0,
        &format!(
            "Replicas:\t{} current / {} desired\n",
            number(&rs["status"]["replicas"]),
            number(&rs["spec"]["replicas"])
        ),
    );
    match counts {
        Ok(counts) => w.write(0, &format!("Pods Status:\t{}\n", pods_status(counts))),
        Err(e) => w.write(0, &format!("Pods Status:\terror in fetching pods: {}\n", e.text())),
    }
    pod_template::describe(&mut w, &rs["spec"]["template"]);
    conditions(&mut w, rs);
    if let Some(events) = events {
        events.write(&mut w);
    }
    Ok(w.finish())
}

pub async fn stateful_set(settings: &Settings<'_>, s: &Value, events: Option<&Events>) -> Result<String, Failure> {
    let selector = selector(s)?;
    let counts = pod_counts(settings, s, &selector).await?;
    let spec = &s["spec"];
    let mut w = PrefixWriter::new();
    name_lines(&mut w, s);
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z(&s["metadata"]["creationTimestamp"])));
    w.write(0, &format!("Selector:\t{selector}\n"));
    metadata_lines(&mut w, s);
    w.write(
        0,
        &format!("Replicas:\t{} desired | {} total\n", number(&spec["replicas"]), number(&s["status"]["replicas"])),
    );
    let strategy = &spec["updateStrategy"];
    w.write(0, &format!("Update Strategy:\t{}\n", text(&strategy["type"])));
    let ru = &strategy["rollingUpdate"];
    if let Some(partition) = ru["partition"].as_i64() {
        w.write(1, &format!("Partition:\t{partition}\n"));
        if !ru["maxUnavailable"].is_null() {
            w.write(1, &format!("MaxUnavailable:\t{}\n", go_format::int_or_string(&ru["maxUnavailable"])));
        }
    }
    w.write(0, &format!("Pods Status:\t{}\n", pods_status(counts)));
    pod_template::describe(&mut w, &spec["template"]);
    claim_templates(&mut w, &spec["volumeClaimTemplates"]);
    if let Some(events) = events {
        events.write(&mut w);
    }
    Ok(w.finish())
}

/// `describeVolumeClaimTemplates`.
fn claim_templates(w: &mut PrefixWriter, templates: &Value) {
    let templates = templates.as_array().map(Vec::as_slice).unwrap_or_default();
    if templates.is_empty() {
        w.write(0, "Volume Claims:\t<none>\n");
        return;
    }
    w.write(0, "Volume Claims:\n");
    for pvc in templates {
        let (metadata, spec) = (&pvc["metadata"], &pvc["spec"]);
        w.write(1, &format!("Name:\t{}\n", text(&metadata["name"])));
        // The class annotation kubectl still honours wins over the field.
        let class = metadata["annotations"]["volume.beta.kubernetes.io/storage-class"]
            .as_str()
            .unwrap_or_else(|| text(&spec["storageClassName"]));
        w.write(1, &format!("StorageClass:\t{class}\n"));
        meta::labels_with_indent(w, "  ", "Labels", &meta::string_map(metadata.get("labels")));
        meta::labels_with_indent(w, "  ", "Annotations", &meta::string_map(metadata.get("annotations")));
        match spec["resources"]["requests"]["storage"].as_str() {
            Some(q) => w.write(1, &format!("Capacity:\t{}\n", go_format::quantity(q))),
            None => w.write(1, "Capacity:\t<default>\n"),
        }
        let modes: Vec<&str> = spec["accessModes"].as_array().into_iter().flatten().map(text).collect();
        w.write(1, &format!("Access Modes:\t[{}]\n", modes.join(" ")));
    }
}

pub async fn daemon_set(settings: &Settings<'_>, ds: &Value, events: Option<&Events>) -> Result<String, Failure> {
    let selector = selector(ds)?;
    let counts = pod_counts(settings, ds, &selector).await?;
    let status = &ds["status"];
    let mut w = PrefixWriter::new();
    name_lines(&mut w, ds);
    w.write(0, &format!("Selector:\t{selector}\n"));
    let node_selector = go_format::format_labels(&ds["spec"]["template"]["spec"]["nodeSelector"]);
    w.write(0, &format!("Node-Selector:\t{node_selector}\n"));
    metadata_lines(&mut w, ds);
    for (label, field) in [
        ("Desired Number of Nodes Scheduled", "desiredNumberScheduled"),
        ("Current Number of Nodes Scheduled", "currentNumberScheduled"),
        ("Number of Nodes Scheduled with Up-to-date Pods", "updatedNumberScheduled"),
        ("Number of Nodes Scheduled with Available Pods", "numberAvailable"),
        ("Number of Nodes Misscheduled", "numberMisscheduled"),
    ] {
        w.write(0, &format!("{label}: {}\n", number(&status[field])));
    }
    w.write(0, &format!("Pods Status:\t{}\n", pods_status(counts)));
    pod_template::describe(&mut w, &ds["spec"]["template"]);
    if let Some(events) = events {
        events.write(&mut w);
    }
    Ok(w.finish())
}

//! kubectl's describers for core configuration kinds: Namespace (with its resource quotas and
//! limit ranges), ConfigMap, Secret (sizes only, never values, except a service account
//! token) and ServiceAccount (its secrets and tokens).
//!
//! kubectl walks Go maps here, so the order of data keys and of quota resources changes from
//! run to run; these print them in key order.

use base64::Engine;
use serde_json::Value;

use super::events::Events;
use super::meta;
use super::prefix_writer::PrefixWriter;
use super::targets::Failure;
use super::{Settings, list};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// Name, namespace, labels and annotations, as most describers start.
fn header(w: &mut PrefixWriter, object: &Value, namespaced: bool) {
    let metadata = &object["metadata"];
    w.write(0, &format!("Name:\t{}\n", text(&metadata["name"])));
    if namespaced {
        w.write(0, &format!("Namespace:\t{}\n", text(&metadata["namespace"])));
    }
    meta::labels(w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(w, "Annotations", &meta::string_map(metadata.get("annotations")));
}

/// A list the server may not serve (404: the section is left out, as kubectl leaves it out).
async fn optional_list(settings: &Settings<'_>, path: &str) -> Result<Option<Vec<Value>>, Failure> {
    match list::items(settings.client, path, &[], settings.chunk_size).await {
        Ok(items) => Ok(Some(items)),
        Err(f) if f.is_not_found() => Ok(None),
        Err(f) => Err(f),
    }
}

pub async fn namespace(settings: &Settings<'_>, ns: &Value) -> Result<String, Failure> {
    let name = text(&ns["metadata"]["name"]);
    let quotas = optional_list(settings, &format!("/api/v1/namespaces/{name}/resourcequotas")).await?;
    let limits = optional_list(settings, &format!("/api/v1/namespaces/{name}/limitranges")).await?;
    let mut w = PrefixWriter::new();
    header(&mut w, ns, false);
    w.write(0, &format!("Status:\t{}\n", text(&ns["status"]["phase"])));
    let conditions = ns["status"]["conditions"].as_array().cloned().unwrap_or_default();
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t------------------\t------\t-------\n");
        for c in &conditions {
            w.write(
                1,
                &format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    text(&c["type"]),
                    text(&c["status"]),
                    super::go_format::rfc1123z(&c["lastTransitionTime"]),
                    text(&c["reason"]),
                    text(&c["message"])
                ),
            );
        }
    }
    if let Some(quotas) = quotas {
        w.write(0, "\n");
        resource_quotas(&mut w, quotas);
    }
    if let Some(limits) = limits {
        w.write(0, "\n");
        limit_ranges(&mut w, &limits);
    }
    Ok(w.finish())
}

/// `DescribeResourceQuotas`.
fn resource_quotas(w: &mut PrefixWriter, mut quotas: Vec<Value>) {
    if quotas.is_empty() {
        w.write(0, "No resource quota.\n");
        return;
    }
    quotas.sort_by(|a, b| text(&a["metadata"]["name"]).cmp(text(&b["metadata"]["name"])));
    w.write(0, "Resource Quotas\n");
    for q in &quotas {
        w.write(1, &format!("Name:\t{}\n", text(&q["metadata"]["name"])));
        let mut scopes: Vec<&str> = q["spec"]["scopes"].as_array().into_iter().flatten().map(text).collect();
        if !scopes.is_empty() {
            scopes.sort();
            w.write(1, &format!("Scopes:\t{}\n", scopes.join(", ")));
            for scope in &scopes {
                if let Some(help) = quota_scope_help(scope) {
                    w.write(1, &format!("* {help}\n"));
                }
            }
        }
        w.write(1, "Resource\tUsed\tHard\n");
        w.write(1, "--------\t---\t---\n");
        for (resource, hard) in meta::string_map(q["status"].get("hard")) {
            let used = q["status"]["used"][&resource].as_str().unwrap_or("0").to_string();
            w.write(1, &format!("{resource}\t{used}\t{hard}\n"));
        }
    }
}

fn quota_scope_help(scope: &str) -> Option<&'static str> {
    Some(match scope {
        "Terminating" => {
            "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system."
        }
        "NotTerminating" => {
            "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate."
        }
        "BestEffort" => {
            "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service."
        }
        "NotBestEffort" => {
            "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service."
        }
        _ => return None,
    })
}

/// `DescribeLimitRanges`.
fn limit_ranges(w: &mut PrefixWriter, ranges: &[Value]) {
    if ranges.is_empty() {
        w.write(0, "No LimitRange resource.\n");
        return;
    }
    w.write(0, "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n");
    w.write(0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    for range in ranges {
        for item in range["spec"]["limits"].as_array().into_iter().flatten() {
            let fields = ["min", "max", "defaultRequest", "default", "maxLimitRequestRatio"];
            let mut resources: Vec<&String> =
                fields.iter().filter_map(|f| item[*f].as_object()).flat_map(|m| m.keys()).collect();
            resources.sort();
            resources.dedup();
            for resource in resources {
                let cell = |f: &str| item[f][resource.as_str()].as_str().unwrap_or("-").to_string();
                w.write(
                    0,
                    &format!(
                        " {}\t{resource}\t{}\t{}\t{}\t{}\t{}\n",
                        text(&item["type"]),
                        cell("min"),
                        cell("max"),
                        cell("defaultRequest"),
                        cell("default"),
                        cell("maxLimitRequestRatio")
                    ),
                );
            }
        }
    }
}

pub fn config_map(cm: &Value, events: Option<&Events>) -> String {
    let mut w = PrefixWriter::new();
    header(&mut w, cm, true);
    w.write(0, "\nData\n====\n");
    for (k, v) in meta::string_map(cm.get("data")) {
        w.write(0, &format!("{k}:\n----\n"));
        w.write(0, &format!("{v}\n"));
        w.write(0, "\n");
    }
    w.write(0, "\nBinaryData\n====\n");
    for (k, v) in meta::string_map(cm.get("binaryData")) {
        w.write(0, &format!("{k}: {} bytes\n", decoded_len(&v)));
    }
    w.write(0, "\n");
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

/// The size of a base64 value once decoded (what kubectl counts).
fn decoded_len(v: &str) -> usize {
    base64::engine::general_purpose::STANDARD.decode(v).map(|b| b.len()).unwrap_or(0)
}

pub fn secret(secret: &Value) -> String {
    let mut w = PrefixWriter::new();
    header(&mut w, secret, true);
    let kind = text(&secret["type"]);
    w.write(0, &format!("\nType:\t{kind}\n"));
    w.write(0, "\nData\n====\n");
    for (k, v) in meta::string_map(secret.get("data")) {
        if k == "token" && kind == "kubernetes.io/service-account-token" {
            let token = base64::engine::general_purpose::STANDARD.decode(&v).unwrap_or_default();
            w.write(0, &format!("{k}:\t{}\n", String::from_utf8_lossy(&token)));
        } else {
            w.write(0, &format!("{k}:\t{} bytes\n", decoded_len(&v)));
        }
    }
    w.finish()
}

pub async fn service_account(settings: &Settings<'_>, sa: &Value, events: Option<&Events>) -> String {
    let name = text(&sa["metadata"]["name"]);
    let namespace = text(&sa["metadata"]["namespace"]);
    let uid = text(&sa["metadata"]["uid"]);
    let names = |field: &str| -> Vec<String> {
        sa[field].as_array().into_iter().flatten().map(|s| text(&s["name"]).to_string()).collect()
    };
    let (pull, mount) = (names("imagePullSecrets"), names("secrets"));
    let mut tokens = Vec::new();
    let mut missing = Vec::new();
    // Secrets that cannot be listed are not reported as missing, as kubectl tolerates it.
    let path = format!("/api/v1/namespaces/{namespace}/secrets");
    if let Ok(secrets) = list::items(settings.client, &path, &[], settings.chunk_size).await {
        let existing: Vec<&str> = secrets.iter().map(|s| text(&s["metadata"]["name"])).collect();
        for s in &secrets {
            let annotations = &s["metadata"]["annotations"];
            if text(&s["type"]) == "kubernetes.io/service-account-token"
                && text(&annotations["kubernetes.io/service-account.name"]) == name
                && text(&annotations["kubernetes.io/service-account.uid"]) == uid
            {
                tokens.push(text(&s["metadata"]["name"]).to_string());
            }
        }
        missing = pull.iter().chain(&mount).filter(|n| !existing.contains(&n.as_str())).cloned().collect();
    }
    let mut w = PrefixWriter::new();
    header(&mut w, sa, true);
    for (title, list) in
        [("Image pull secrets:", &pull), ("Mountable secrets: ", &mount), ("Tokens:            ", &tokens)]
    {
        if list.is_empty() {
            w.write(0, &format!("{title}\t<none>\n"));
            continue;
        }
        let mut prefix = title;
        for n in list {
            let note = if missing.contains(n) { " (not found)" } else { "" };
            w.write(0, &format!("{prefix}\t{n}{note}\n"));
            prefix = "                   ";
        }
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // The plane serves neither ResourceQuota nor LimitRange, so these sections are checked here
    // against the layout kubectl 1.33's DescribeResourceQuotas and DescribeLimitRanges write.
    #[test]
    fn quotas_in_name_order_with_scope_help_and_unused_resources_as_zero() {
        let quotas = vec![
            json!({"metadata": {"name": "pods-only"}, "spec": {"scopes": ["NotTerminating", "BestEffort"]},
                   "status": {"hard": {"pods": "10"}, "used": {"pods": "2"}}}),
            json!({"metadata": {"name": "compute"},
                   "status": {"hard": {"requests.memory": "1Gi", "requests.cpu": "1"}, "used": {"requests.cpu": "500m"}}}),
        ];
        let mut w = PrefixWriter::new();
        resource_quotas(&mut w, quotas);
        assert_eq!(
            w.finish(),
            concat!(
                "Resource Quotas\n",
                "  Name:            compute\n",
                "  Resource         Used  Hard\n",
                "  --------         ---   ---\n",
                "  requests.cpu     500m  1\n",
                "  requests.memory  0     1Gi\n",
                "  Name:            pods-only\n",
                "  Scopes:          BestEffort, NotTerminating\n",
                "  * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.\n",
                "  * Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.\n",
                "  Resource  Used  Hard\n",
                "  --------  ---   ---\n",
                "  pods      2     10\n",
            )
        );
        let mut w = PrefixWriter::new();
        resource_quotas(&mut w, Vec::new());
        assert_eq!(w.finish(), "No resource quota.\n");
    }

    #[test]
    fn limit_ranges_one_row_per_type_and_resource_with_dashes_for_unset() {
        let ranges = vec![json!({"spec": {"limits": [
            {"type": "Container", "max": {"cpu": "2"}, "defaultRequest": {"memory": "64Mi"}},
            {"type": "Pod", "maxLimitRequestRatio": {"memory": "4"}},
        ]}})];
        let mut w = PrefixWriter::new();
        limit_ranges(&mut w, &ranges);
        assert_eq!(
            w.finish(),
            concat!(
                "Resource Limits\n",
                " Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio\n",
                " ----       --------  ---  ---  ---------------  -------------  -----------------------\n",
                " Container  cpu       -    2    -                -              -\n",
                " Container  memory    -    -    64Mi             -              -\n",
                " Pod        memory    -    -    -                -              4\n",
            )
        );
        let mut w = PrefixWriter::new();
        limit_ranges(&mut w, &[]);
        assert_eq!(w.finish(), "No LimitRange resource.\n");
    }
}

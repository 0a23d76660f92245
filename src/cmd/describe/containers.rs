//! kubectl's `describeContainers`: each container of a pod or pod template with its image,
//! ports, command, state (for a pod), resources, probes, environment and mounts.

use serde_json::Value;

use super::go_format::{self, bool_word, int_or_string, rfc1123z};
use super::prefix_writer::PrefixWriter;

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn items(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// `label` ("Containers", "Init Containers"), the containers, their statuses (a pod's; none for
/// a template), the pod for `fieldRef` values, and the template's indent.
pub fn describe(
    w: &mut PrefixWriter,
    label: &str,
    containers: &Value,
    statuses: Option<&Value>,
    pod: Option<&Value>,
    space: &str,
) {
    let containers = items(containers);
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.write(0, &format!("{space}{label}:{none}\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in containers {
        let name = text(&c["name"]);
        let status = statuses.map(items).unwrap_or_default().iter().find(|s| text(&s["name"]) == name);
        w.write(1, &format!("{name_indent}{name}:\n"));
        if let Some(s) = status {
            w.write(2, &format!("Container ID:\t{}\n", text(&s["containerID"])));
        }
        w.write(2, &format!("Image:\t{}\n", text(&c["image"])));
        if let Some(s) = status {
            w.write(2, &format!("Image ID:\t{}\n", text(&s["imageID"])));
        }
        ports(w, &c["ports"]);
        seccomp(w, &c["securityContext"]["seccompProfile"], 2);
        command(w, c);
        if let Some(s) = status {
            state(w, "State", &s["state"]);
            if s["lastState"].get("terminated").is_some() {
                state(w, "Last State", &s["lastState"]);
            }
            w.write(2, &format!("Ready:\t{}\n", bool_word(s["ready"].as_bool().unwrap_or(false))));
            w.write(2, &format!("Restart Count:\t{}\n", s["restartCount"].as_i64().unwrap_or_default()));
        }
        resources(w, &c["resources"], 2);
        for (title, field) in
            [("Liveness", "livenessProbe"), ("Readiness", "readinessProbe"), ("Startup", "startupProbe")]
        {
            if c[field].is_object() {
                w.write(2, &format!("{title}:\t{}\n", probe(&c[field])));
            }
        }
        if !items(&c["envFrom"]).is_empty() {
            env_from(w, &c["envFrom"]);
        }
        env(w, c, pod);
        mounts(w, c);
    }
}

fn ports(w: &mut PrefixWriter, ports: &Value) {
    let list = |port_field: &str| -> String {
        items(ports)
            .iter()
            .map(|p| format!("{}/{}", p[port_field].as_i64().unwrap_or_default(), text(&p["protocol"])))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (one, many, field) in [("Port", "Ports", "containerPort"), ("Host Port", "Host Ports", "hostPort")] {
        let shown = list(field);
        if shown.contains(',') {
            w.write(2, &format!("{many}:\t{shown}\n"));
        } else {
            w.write(2, &format!("{one}:\t{}\n", if shown.is_empty() { "<none>" } else { &shown }));
        }
    }
}

/// A seccomp profile line (pod level 0, container level 2), with the localhost profile under it.
pub fn seccomp(w: &mut PrefixWriter, profile: &Value, level: usize) {
    if !profile.is_object() {
        return;
    }
    let kind = text(&profile["type"]);
    w.write(level, &format!("SeccompProfile:\t{kind}\n"));
    if kind == "Localhost" {
        let inner = if level == 0 { 0 } else { level + 1 };
        w.write(inner, &format!("LocalhostProfile:\t{}\n", text(&profile["localhostProfile"])));
    }
}

fn command(w: &mut PrefixWriter, c: &Value) {
    for (title, field) in [("Command", "command"), ("Args", "args")] {
        let words = items(&c[field]);
        if words.is_empty() {
            continue;
        }
        w.write(2, &format!("{title}:\n"));
        for word in words {
            for line in text(word).split('\n') {
                w.write(3, &format!("{line}\n"));
            }
        }
    }
}

/// `describeStatus`.
fn state(w: &mut PrefixWriter, title: &str, state: &Value) {
    if let Some(running) = state.get("running") {
        w.write(2, &format!("{title}:\tRunning\n"));
        w.write(3, &format!("Started:\t{}\n", rfc1123z(&running["startedAt"])));
    } else if let Some(waiting) = state.get("waiting") {
        w.write(2, &format!("{title}:\tWaiting\n"));
        if let Some(reason) = waiting["reason"].as_str().filter(|r| !r.is_empty()) {
            w.write(3, &format!("Reason:\t{reason}\n"));
        }
    } else if let Some(t) = state.get("terminated") {
        w.write(2, &format!("{title}:\tTerminated\n"));
        for (label, field) in [("Reason", "reason"), ("Message", "message")] {
            if let Some(v) = t[field].as_str().filter(|v| !v.is_empty()) {
                w.write(3, &format!("{label}:\t{v}\n"));
            }
        }
        w.write(3, &format!("Exit Code:\t{}\n", t["exitCode"].as_i64().unwrap_or_default()));
        if let Some(signal) = t["signal"].as_i64().filter(|s| *s > 0) {
            w.write(3, &format!("Signal:\t{signal}\n"));
        }
        w.write(3, &format!("Started:\t{}\n", rfc1123z(&t["startedAt"])));
        w.write(3, &format!("Finished:\t{}\n", rfc1123z(&t["finishedAt"])));
    } else {
        w.write(2, &format!("{title}:\tWaiting\n"));
    }
}

/// `describeResources`: limits then requests, each in resource-name order.
pub fn resources(w: &mut PrefixWriter, resources: &Value, level: usize) {
    for (title, field) in [("Limits", "limits"), ("Requests", "requests")] {
        let list = super::meta::string_map(resources.get(field));
        if list.is_empty() {
            continue;
        }
        w.write(level, &format!("{title}:\n"));
        for (name, q) in list {
            w.write(level + 1, &format!("{name}:\t{}\n", go_format::quantity(&q)));
        }
    }
}

/// `DescribeProbe`.
fn probe(p: &Value) -> String {
    let n = |f: &str| p[f].as_i64().unwrap_or_default();
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        n("initialDelaySeconds"),
        n("timeoutSeconds"),
        n("periodSeconds"),
        n("successThreshold"),
        n("failureThreshold")
    );
    if let Some(exec) = p.get("exec") {
        let words: Vec<&str> = items(&exec["command"]).iter().map(text).collect();
        return format!("exec [{}] {attrs}", words.join(" "));
    }
    if let Some(get) = p.get("httpGet") {
        let scheme = text(&get["scheme"]).to_lowercase();
        let port = int_or_string(&get["port"]);
        let host = text(&get["host"]);
        // net.JoinHostPort brackets an IPv6 host.
        let authority = match host.contains(':') {
            true => format!("[{host}]:{port}"),
            false => format!("{host}:{port}"),
        };
        let path = text(&get["path"]);
        let path = if path.is_empty() || path.starts_with('/') { path.to_string() } else { format!("/{path}") };
        let url =
            if scheme.is_empty() { format!("//{authority}{path}") } else { format!("{scheme}://{authority}{path}") };
        return format!("http-get {url} {attrs}");
    }
    if let Some(tcp) = p.get("tcpSocket") {
        return format!("tcp-socket {}:{} {attrs}", text(&tcp["host"]), int_or_string(&tcp["port"]));
    }
    if let Some(grpc) = p.get("grpc") {
        return format!("grpc <pod>:{} {} {attrs}", grpc["port"].as_i64().unwrap_or_default(), text(&grpc["service"]));
    }
    format!("unknown {attrs}")
}

fn env_from(w: &mut PrefixWriter, list: &Value) {
    w.write(2, "Environment Variables from:\n");
    for e in items(list) {
        let (from, source) = match (e.get("configMapRef"), e.get("secretRef")) {
            (Some(r), _) => ("ConfigMap", r),
            (None, Some(r)) => ("Secret", r),
            (None, None) => ("", &Value::Null),
        };
        let optional = source["optional"].as_bool().unwrap_or(false);
        let name = text(&source["name"]);
        match text(&e["prefix"]) {
            "" => w.write(3, &format!("{name}\t{from}\tOptional: {optional}\n")),
            prefix => w.write(3, &format!("{name}\t{from} with prefix '{prefix}'\tOptional: {optional}\n")),
        }
    }
}

fn env(w: &mut PrefixWriter, c: &Value, pod: Option<&Value>) {
    let vars = items(&c["env"]);
    w.write(2, &format!("Environment:{}\n", if vars.is_empty() { "\t<none>" } else { "" }));
    for e in vars {
        let name = text(&e["name"]);
        let Some(from) = e.get("valueFrom").filter(|v| v.is_object()) else {
            for (i, line) in text(&e["value"]).split('\n').enumerate() {
                match i {
                    0 => w.write(3, &format!("{name}:\t{line}\n")),
                    _ => w.write(3, &format!("\t{line}\n")),
                }
            }
            continue;
        };
        if let Some(f) = from.get("fieldRef") {
            let value = pod.map(|p| field_value(p, text(&f["fieldPath"]))).unwrap_or_default();
            w.write(3, &format!("{name}:\t{value} ({}:{})\n", text(&f["apiVersion"]), text(&f["fieldPath"])));
        } else if let Some(r) = from.get("resourceFieldRef") {
            let resource = text(&r["resource"]);
            let mut value = resource_value(c, r);
            if value == "0" && (resource == "limits.cpu" || resource == "limits.memory") {
                value = "node allocatable".into();
            }
            w.write(3, &format!("{name}:\t{value} ({resource})\n"));
        } else if let Some(k) = from.get("secretKeyRef") {
            let optional = k["optional"].as_bool().unwrap_or(false);
            w.write(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {optional}\n",
                    text(&k["key"]),
                    text(&k["name"])
                ),
            );
        } else if let Some(k) = from.get("configMapKeyRef") {
            let optional = k["optional"].as_bool().unwrap_or(false);
            w.write(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {optional}\n",
                    text(&k["key"]),
                    text(&k["name"])
                ),
            );
        }
    }
}

/// The value kubectl shows for a `fieldRef`: its scheme converts only `metadata.name` and
/// `metadata.namespace` field labels (it has no Pod-specific conversion), so every other path
/// is shown empty.
fn field_value(pod: &Value, path: &str) -> String {
    match path {
        "metadata.name" | "metadata.namespace" => text(&pod["metadata"][&path["metadata.".len()..]]).to_string(),
        _ => String::new(),
    }
}

/// `ExtractContainerResourceValue`: the container's request or limit in units of the divisor
/// (rounded up), `0` when unset.
fn resource_value(c: &Value, r: &Value) -> String {
    let resource = text(&r["resource"]);
    let Some((kind, name)) = resource.split_once('.') else { return String::new() };
    if !matches!(kind, "limits" | "requests") {
        return String::new();
    }
    let amount = go_format::quantity_of(&c["resources"][kind][name]);
    let divisor = go_format::quantity_of(&r["divisor"]);
    let per = |unit: i128| if divisor.is_zero() { unit } else { divisor.nanos() };
    let (have, unit) = match name {
        "cpu" => (amount.nanos(), per(1_000_000_000)),
        "memory" | "ephemeral-storage" => (amount.nanos(), per(1_000_000_000)),
        _ => return String::new(),
    };
    if unit <= 0 {
        return String::new();
    }
    // Go rounds CPU up to whole divisor units, and memory too.
    ((have + unit - 1).div_euclid(unit)).to_string()
}

fn mounts(w: &mut PrefixWriter, c: &Value) {
    let mut list: Vec<&Value> = items(&c["volumeMounts"]).iter().collect();
    let none = if list.is_empty() { "\t<none>" } else { "" };
    w.write(2, &format!("Mounts:{none}\n"));
    list.sort_by(|a, b| text(&a["mountPath"]).cmp(text(&b["mountPath"])));
    for m in list {
        let mut flags =
            vec![if m["readOnly"].as_bool().unwrap_or(false) { "ro".to_string() } else { "rw".to_string() }];
        if let Some(sub) = m["subPath"].as_str().filter(|s| !s.is_empty()) {
            flags.push(format!("path={}", karmadactl_apimachinery::go_quote(sub)));
        }
        w.write(3, &format!("{} from {} ({})\n", text(&m["mountPath"]), text(&m["name"]), flags.join(",")));
    }
    let mut devices: Vec<&Value> = items(&c["volumeDevices"]).iter().collect();
    if !devices.is_empty() {
        // kubectl marks this line by whether there are mounts, not devices.
        w.write(2, &format!("Devices:{none}\n"));
        devices.sort_by(|a, b| text(&a["devicePath"]).cmp(text(&b["devicePath"])));
        for d in devices {
            w.write(3, &format!("{} from {}\n", text(&d["devicePath"]), text(&d["name"])));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::probe;

    #[test]
    fn probes_read_as_kubectl_writes_them() {
        let http = json!({"httpGet": {"path": "healthz", "port": 8080, "scheme": "HTTPS", "host": "::1"},
                          "periodSeconds": 5, "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3});
        assert_eq!(
            probe(&http),
            "http-get https://[::1]:8080/healthz delay=0s timeout=1s period=5s #success=1 #failure=3"
        );
        let tcp = json!({"tcpSocket": {"port": "http"}});
        assert_eq!(probe(&tcp), "tcp-socket :http delay=0s timeout=0s period=0s #success=0 #failure=0");
        let exec = json!({"exec": {"command": ["cat", "/tmp/ok"]}});
        assert!(probe(&exec).starts_with("exec [cat /tmp/ok] delay=0s"));
        assert!(probe(&json!({})).starts_with("unknown delay=0s"));
    }
}

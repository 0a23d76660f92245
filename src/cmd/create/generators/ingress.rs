//! `create ingress NAME --rule --default-backend`: a networking.k8s.io/v1 Ingress, as kubectl
//! builds it (rules sharing a host share its paths, `tls` rules grouped by secret).

use clap::Args;
use serde_json::{Map, Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create an ingress with the specified name.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create ingress NAME --rule=host/path=service:port[,tls[=secret]] ",
    after_help = "Examples:\n  # Create a single ingress called 'simple' that directs requests to foo.com/bar to svc\n  # svc1:8080 with a TLS secret \"my-cert\"\n  karmadactl create ingress simple --rule=\"foo.com/bar=svc1:8080,tls=my-cert\"\n\n  # Create a catch all ingress of \"/path\" pointing to service svc:port and Ingress Class as \"otheringress\"\n  karmadactl create ingress catch-all --class=otheringress --rule=\"/path=svc:port\"\n\n  # Create an ingress with two annotations: ingress.annotation1 and ingress.annotations2\n  karmadactl create ingress annotated --class=default --rule=\"foo.com/bar=svc:port\" \\\n  --annotation ingress.annotation1=foo \\\n  --annotation ingress.annotation2=bla\n\n  # Create an ingress with the same host and multiple paths\n  karmadactl create ingress multipath --class=default \\\n  --rule=\"foo.com/=svc:port\" \\\n  --rule=\"foo.com/admin/=svcadmin:portadmin\"\n\n  # Create an ingress with multiple hosts and the pathType as Prefix\n  karmadactl create ingress ingress1 --class=default \\\n  --rule=\"foo.com/path*=svc:8080\" \\\n  --rule=\"bar.com/admin*=svc2:http\"\n\n  # Create an ingress with TLS enabled using the default ingress certificate and different path types\n  karmadactl create ingress ingtls --class=default \\\n  --rule=\"foo.com/=svc:https,tls\" \\\n  --rule=\"foo.com/path/subpath*=othersvc:8080\"\n\n  # Create an ingress with TLS enabled using a specific secret and pathType as Prefix\n  karmadactl create ingress ingsecret --class=default \\\n  --rule=\"foo.com/*=svc:8080,tls=secret1\"\n\n  # Create an ingress with a default backend\n  karmadactl create ingress ingdefault --class=default \\\n  --default-backend=defaultsvc:http \\\n  --rule=\"foo.com/*=svc:8080,tls=secret1\""
)]
pub struct IngressArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Ingress Class to be used
    #[arg(long, default_value = "", value_name = "CLASS")]
    pub class: String,

    /// Rule in format host/path=service:port[,tls=secretname]. Paths containing the leading
    /// character '*' are considered pathType=Prefix. tls argument is optional.
    #[arg(long, value_name = "RULE")]
    pub rule: Vec<String>,

    /// Default service for backend, in format of svcname:port
    #[arg(long, default_value = "", value_name = "SERVICE:PORT")]
    pub default_backend: String,

    /// Annotation to insert in the ingress object, in the format annotation=value
    #[arg(long, value_name = "KEY=VALUE")]
    pub annotation: Vec<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// A character of Go's `[\w\-]` (ASCII letters, digits, `_`, `-`).
fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// kubectl's rule regex, `^([\w*\-.]*)(/.*)=([\w\-]+):([\w\-]+)` followed by anything (its
/// optional tls group lets any tail match).
fn rule_matches(rule: &str) -> bool {
    let Some(slash) = rule.find('/') else { return false };
    if !rule[..slash].chars().all(|c| word(c) || c == '*' || c == '.') {
        return false;
    }
    let path = &rule[slash..];
    // `.` does not match a newline, so the `=` must come before any.
    let line = path.split('\n').next().unwrap_or_default();
    line.match_indices('=').any(|(at, _)| {
        let service = &path[at + 1..];
        let name = service.chars().take_while(|c| word(*c)).count();
        name > 0 && service[name..].strip_prefix(':').is_some_and(|port| port.starts_with(word))
    })
}

/// kubectl's `Validate`.
pub fn validate(args: &IngressArgs) -> anyhow::Result<()> {
    if args.default_backend.is_empty() && args.rule.is_empty() {
        anyhow::bail!(
            "not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)"
        );
    }
    if let Some(rule) = args.rule.iter().find(|r| !rule_matches(r)) {
        anyhow::bail!("rule {rule} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]");
    }
    if let Some(annotation) = args.annotation.iter().find(|a| !a.contains('=')) {
        anyhow::bail!("annotation {annotation} is invalid and should be in format key=[value]");
    }
    if !args.default_backend.is_empty() && args.default_backend.split(':').count() != 2 {
        anyhow::bail!("default-backend should be in format servicename:serviceport");
    }
    Ok(())
}

/// kubectl's `buildIngressBackendSvc`: `name:port`, a numeric port by number.
fn backend(service: &str) -> Value {
    let mut parts = service.split(':');
    let name = parts.next().unwrap_or_default();
    let port = parts.next().unwrap_or_default();
    let port = match port.parse::<i64>() {
        Ok(n) => json!({"number": n as i32}),
        Err(_) => json!({"name": port}),
    };
    json!({"service": {"name": name, "port": port}})
}

/// kubectl's `buildHTTPIngressPath`: `path=service:port`, a trailing `*` meaning Prefix.
fn http_path(path_service: &str) -> Value {
    let mut parts = path_service.split('=');
    let path = format!("/{}", parts.next().unwrap_or_default());
    let service = parts.next().unwrap_or_default();
    let (path, path_type) = match path.strip_suffix('*') {
        Some(prefix) => (prefix.to_string(), "Prefix"),
        None => (path, "Exact"),
    };
    json!({"path": path, "pathType": path_type, "backend": backend(service)})
}

/// kubectl's `buildTLSRules`: one entry per secret, each host once.
fn tls(rules: &[String]) -> Vec<Value> {
    let mut seen: Vec<&str> = Vec::new();
    let mut entries: Vec<(Vec<String>, String)> = Vec::new();
    for rule in rules {
        let parts: Vec<&str> = rule.split(',').collect();
        let [_, tls] = parts[..] else { continue };
        let host = rule.split('/').next().unwrap_or_default();
        let secret = tls.split('=').nth(1).unwrap_or_default().to_string();
        if seen.contains(&host) {
            continue;
        }
        seen.push(host);
        if let Some(entry) = entries.iter_mut().find(|(_, s)| *s == secret) {
            entry.0.push(host.to_string());
            continue;
        }
        let hosts = if host.is_empty() { vec![] } else { vec![host.to_string()] };
        if !secret.is_empty() || !hosts.is_empty() {
            entries.push((hosts, secret));
        }
    }
    entries
        .into_iter()
        .map(|(hosts, secret)| {
            let mut entry = Map::new();
            if !hosts.is_empty() {
                entry.insert("hosts".into(), json!(hosts));
            }
            if !secret.is_empty() {
                entry.insert("secretName".into(), json!(secret));
            }
            Value::Object(entry)
        })
        .collect()
}

/// kubectl's `buildIngressRules`: rules of one host share its paths.
fn rules(rules: &[String]) -> Vec<Value> {
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for rule in rules {
        let without_tls = rule.split(',').next().unwrap_or_default();
        let (host, path_service) = without_tls.split_once('/').unwrap_or((without_tls, ""));
        let path = http_path(path_service);
        match out.iter_mut().find(|(h, _)| h == host) {
            Some((_, paths)) => paths.push(path),
            None => out.push((host.to_string(), vec![path])),
        }
    }
    out.into_iter()
        .map(|(host, paths)| {
            let mut rule = json!({"http": {"paths": paths}});
            if !host.is_empty() {
                rule["host"] = json!(host);
            }
            rule
        })
        .collect()
}

pub fn build(args: &IngressArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut object = typed("networking.k8s.io/v1", "Ingress", &inputs.name, inputs.object_namespace());
    let annotations: Map<String, Value> =
        args.annotation.iter().filter_map(|a| a.split_once('=')).map(|(k, v)| (k.to_string(), json!(v))).collect();
    if !annotations.is_empty() {
        object["metadata"]["annotations"] = Value::Object(annotations);
    }
    let mut spec = Map::new();
    if !args.class.is_empty() {
        spec.insert("ingressClassName".into(), json!(args.class));
    }
    if !args.default_backend.is_empty() {
        spec.insert("defaultBackend".into(), backend(&args.default_backend));
    }
    let tls = tls(&args.rule);
    if !tls.is_empty() {
        spec.insert("tls".into(), Value::Array(tls));
    }
    let rules = rules(&args.rule);
    if !rules.is_empty() {
        spec.insert("rules".into(), Value::Array(rules));
    }
    object["spec"] = Value::Object(spec);
    object["status"] = json!({"loadBalancer": {}});
    Ok(Generated {
        resource: Resource::new("networking.k8s.io", "v1", "ingresses", "Ingress", true),
        object,
        failure: Some("failed to create ingress: ".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_checked_as_kubectls_regex_checks_them() {
        for ok in ["foo.com/bar=svc:80", "/=s:p", "*.x_y-z/a=b/c=s-1:http", "/p=s:80,tls=anything", "/p=s:80junk"] {
            assert!(rule_matches(ok), "{ok}");
        }
        for bad in ["foo.com=s:80", "f@o/=s:80", "/p=s", "/p=:80", "/p=s:", "/p\n=s:80", "/p=s.x:80"] {
            assert!(!rule_matches(bad), "{bad}");
        }
    }

    #[test]
    fn tls_entries_group_hosts_by_secret_and_skip_empty_ones() {
        let rules: Vec<String> =
            ["a.com/=s:80,tls=c", "b.com/=s:80,tls=c", "a.com/x=s:80,tls=d", "/=s:80,tls"].map(String::from).to_vec();
        assert_eq!(tls(&rules), vec![json!({"hosts": ["a.com", "b.com"], "secretName": "c"})]);
    }
}

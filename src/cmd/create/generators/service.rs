//! `create service clusterip|nodeport|loadbalancer|externalname NAME`, as kubectl builds
//! the Service: `--tcp PORT[:TARGET]` ports named after themselves, `app: NAME` labels and
//! selector.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a service using a specified subcommand.
#[derive(Debug, Args)]
#[command(override_usage = "karmadactl create service [flags]", arg_required_else_help = true)]
pub struct ServiceArgs {
    #[command(subcommand)]
    pub kind: ServiceKind,
}

#[derive(Debug, Subcommand)]
pub enum ServiceKind {
    /// Create a ClusterIP service with the specified name.
    #[command(
        override_usage = "karmadactl create service clusterip NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none]",
        after_help = "Examples:\n  # Create a new ClusterIP service named my-cs\n  karmadactl create service clusterip my-cs --tcp=5678:8080\n\n  # Create a new ClusterIP service named my-cs (in headless mode)\n  karmadactl create service clusterip my-cs --clusterip=\"None\""
    )]
    Clusterip(ServiceFlags),
    /// Create a NodePort service with the specified name.
    #[command(
        override_usage = "karmadactl create service nodeport NAME [--tcp=port:targetPort] [--dry-run=server|client|none]",
        after_help = "Examples:\n  # Create a new NodePort service named my-ns\n  karmadactl create service nodeport my-ns --tcp=5678:8080"
    )]
    Nodeport(ServiceFlags),
    /// Create a LoadBalancer service with the specified name.
    #[command(
        override_usage = "karmadactl create service loadbalancer NAME [--tcp=port:targetPort] [--dry-run=server|client|none]",
        after_help = "Examples:\n  # Create a new LoadBalancer service named my-lbs\n  karmadactl create service loadbalancer my-lbs --tcp=5678:8080"
    )]
    Loadbalancer(ServiceFlags),
    /// Create an ExternalName service with the specified name.
    ///
    /// ExternalName service references to an external DNS address instead of only pods, which
    /// will allow application authors to reference services that exist off platform, on other
    /// clusters, or locally.
    #[command(
        override_usage = "karmadactl create service externalname NAME --external-name external.name [--dry-run=server|client|none]",
        after_help = "Examples:\n  # Create a new ExternalName service named my-ns\n  karmadactl create service externalname my-ns --external-name bar.com"
    )]
    Externalname(ServiceFlags),
}

/// The flags of every service kind (kubectl gives each kind only those it uses; the others
/// are refused here as kubectl refuses unknown flags).
#[derive(Debug, Args)]
pub struct ServiceFlags {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Port pairs can be specified as '<port>:<targetPort>'.
    #[arg(long, value_delimiter = ',', value_name = "PORT[:TARGET]")]
    pub tcp: Vec<String>,

    /// Assign your own ClusterIP or set to 'None' for a 'headless' service (no loadbalancing).
    /// (clusterip only)
    #[arg(long, value_name = "IP")]
    pub clusterip: Option<String>,

    /// Port used to expose the service on each node in a cluster. (nodeport only)
    #[arg(long, value_name = "PORT")]
    pub node_port: Option<i32>,

    /// External name of service. (externalname only)
    #[arg(long, value_name = "NAME")]
    pub external_name: Option<String>,

    #[command(flatten)]
    pub flags: CreateFlags,
}

impl ServiceKind {
    pub fn parts(&self) -> (&'static str, &ServiceFlags) {
        match self {
            ServiceKind::Clusterip(f) => ("ClusterIP", f),
            ServiceKind::Nodeport(f) => ("NodePort", f),
            ServiceKind::Loadbalancer(f) => ("LoadBalancer", f),
            ServiceKind::Externalname(f) => ("ExternalName", f),
        }
    }

    pub fn flags(&self) -> &CreateFlags {
        &self.parts().1.flags
    }

    pub fn names(&self) -> &[String] {
        &self.parts().1.names
    }

    /// The subcommand's name, for messages.
    pub fn command(&self) -> &'static str {
        match self {
            ServiceKind::Clusterip(_) => "service clusterip",
            ServiceKind::Nodeport(_) => "service nodeport",
            ServiceKind::Loadbalancer(_) => "service loadbalancer",
            ServiceKind::Externalname(_) => "service externalname",
        }
    }

    /// Flags another kind owns are unknown to this one in kubectl; and cobra's required flag.
    pub fn check_flags(&self) -> anyhow::Result<()> {
        let (kind, f) = self.parts();
        let foreign = [
            ("--clusterip", f.clusterip.is_some() && kind != "ClusterIP"),
            ("--node-port", f.node_port.is_some() && kind != "NodePort"),
            ("--external-name", f.external_name.is_some() && kind != "ExternalName"),
        ];
        if let Some((flag, _)) = foreign.iter().find(|(_, bad)| *bad) {
            anyhow::bail!("unknown flag: {flag}");
        }
        if kind == "ExternalName" && f.external_name.is_none() {
            anyhow::bail!("required flag(s) \"external-name\" not set");
        }
        Ok(())
    }
}

/// kubectl's `IsValidPortName`.
fn port_name_errors(name: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if name.len() > 15 {
        errs.push(karmadactl_apimachinery::max_len_error(15));
    }
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !name.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if name.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if name.starts_with('-') || name.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// kubectl's `parsePorts`: the port and the target port (a number or a port name).
fn parse_ports(spec: &str) -> Result<(i64, Value), String> {
    let parts: Vec<&str> = spec.split(':').collect();
    let port: u16 = parts[0].parse().map_err(|e: std::num::ParseIntError| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow => "value out of range",
            _ => "invalid syntax",
        };
        format!("strconv.ParseUint: parsing {:?}: {why}", parts[0])
    })?;
    let Some(target) = parts.get(1) else { return Ok((i64::from(port), json!(port))) };
    let target = match target.parse::<i64>() {
        Ok(n) if (1..=65535).contains(&n) => json!(n),
        Ok(_) => return Err("must be between 1 and 65535, inclusive".into()),
        Err(_) => {
            let errs = port_name_errors(target);
            if !errs.is_empty() {
                return Err(errs.join(","));
            }
            json!(target)
        }
    };
    Ok((i64::from(port), target))
}

pub fn build(kind: &ServiceKind, inputs: &Inputs) -> anyhow::Result<Generated> {
    let (service_type, f) = kind.parts();
    let cluster_ip = f.clusterip.clone().unwrap_or_default();
    let external_name = f.external_name.clone().unwrap_or_default();
    if cluster_ip == "None" && service_type != "ClusterIP" {
        anyhow::bail!("ClusterIP=None can only be used with ClusterIP service type");
    }
    if cluster_ip != "None" && f.tcp.is_empty() && service_type != "ExternalName" {
        anyhow::bail!("at least one tcp port specifier must be provided");
    }
    if service_type == "ExternalName" && !karmadactl_apimachinery::is_dns1123_subdomain(&external_name).is_empty() {
        anyhow::bail!("invalid service external name {external_name}");
    }
    let mut ports = Vec::new();
    for spec in &f.tcp {
        let (port, target) = parse_ports(spec).map_err(anyhow::Error::msg)?;
        let mut p = json!({"name": spec.replace(':', "-"), "protocol": "TCP", "port": port, "targetPort": target});
        if let Some(node_port) = f.node_port.filter(|n| *n != 0) {
            p["nodePort"] = json!(node_port);
        }
        ports.push(p);
    }
    let labels = json!({"app": inputs.name});
    let mut object = typed("v1", "Service", &inputs.name, inputs.object_namespace());
    object["metadata"]["labels"] = labels.clone();
    let mut spec = json!({"selector": labels, "type": service_type});
    if !ports.is_empty() {
        spec["ports"] = Value::Array(ports);
    }
    if !cluster_ip.is_empty() {
        spec["clusterIP"] = json!(cluster_ip);
    }
    if !external_name.is_empty() {
        spec["externalName"] = json!(external_name);
    }
    object["spec"] = spec;
    object["status"] = json!({"loadBalancer": {}});
    Ok(Generated {
        resource: Resource::new("", "v1", "services", "Service", true),
        object,
        failure: Some(format!("failed to create {service_type} service: ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_parse_as_kubectl_parses_them() {
        assert_eq!(parse_ports("80").unwrap(), (80, json!(80)));
        assert_eq!(parse_ports("80:8080").unwrap(), (80, json!(8080)));
        assert_eq!(parse_ports("80:http").unwrap(), (80, json!("http")));
        assert_eq!(parse_ports("x").unwrap_err(), "strconv.ParseUint: parsing \"x\": invalid syntax");
        assert_eq!(parse_ports("70000").unwrap_err(), "strconv.ParseUint: parsing \"70000\": value out of range");
        assert_eq!(parse_ports("80:0").unwrap_err(), "must be between 1 and 65535, inclusive");
        assert_eq!(
            parse_ports("80:Http").unwrap_err(),
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"
        );
    }
}

//! `create quota NAME --hard --scopes`: a ResourceQuota, as kubectl builds it.

use clap::Args;
use karmadactl_apimachinery::quantity::Quantity;
use serde_json::{Map, Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a resource quota with the specified name, hard limits, and optional scopes.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create quota NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2] [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a new resource quota named my-quota\n  karmadactl create quota my-quota --hard=cpu=1,memory=1G,pods=2,services=3,replicationcontrollers=2,resourcequotas=1,secrets=5,persistentvolumeclaims=10\n\n  # Create a new resource quota named best-effort\n  karmadactl create quota best-effort --hard=pods=100 --scopes=BestEffort"
)]
pub struct QuotaArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// A comma-delimited set of resource=quantity pairs that define a hard limit.
    #[arg(long, default_value = "", value_name = "LIMITS")]
    pub hard: String,

    /// A comma-delimited set of quota scopes that must all match each object tracked by the
    /// quota.
    #[arg(long, default_value = "", value_name = "SCOPES")]
    pub scopes: String,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// Go's `resource.ErrFormatWrong`.
const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// kubectl's `populateResourceListV1`: `resource=quantity` pairs, each quantity in its
/// canonical form.
fn hard(spec: &str) -> anyhow::Result<Option<Map<String, Value>>> {
    if spec.is_empty() {
        return Ok(None);
    }
    let mut list = Map::new();
    for statement in spec.split(',') {
        let parts: Vec<&str> = statement.split('=').collect();
        let [name, value] = parts[..] else {
            anyhow::bail!("Invalid argument syntax {statement}, expected <resource>=<value>");
        };
        // kubectl prints Go's ErrFormatWrong alone, without the rejected text.
        let quantity = Quantity::parse(value).map_err(|_| anyhow::anyhow!("{FORMAT_WRONG}"))?;
        list.insert(name.to_string(), Value::String(quantity.to_string()));
    }
    Ok(Some(list))
}

/// kubectl's `parseScopes`: names, none empty.
fn scopes(spec: &str) -> anyhow::Result<Option<Vec<String>>> {
    if spec.is_empty() {
        return Ok(None);
    }
    let scopes: Vec<String> = spec.split(',').map(str::to_string).collect();
    if scopes.iter().any(String::is_empty) {
        anyhow::bail!("invalid resource quota scope \"\"");
    }
    Ok(Some(scopes))
}

pub fn build(args: &QuotaArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut object = typed("v1", "ResourceQuota", &inputs.name, inputs.object_namespace());
    let mut spec = Map::new();
    if let Some(hard) = hard(&args.hard)? {
        spec.insert("hard".into(), Value::Object(hard));
    }
    if let Some(scopes) = scopes(&args.scopes)? {
        spec.insert("scopes".into(), json!(scopes));
    }
    object["spec"] = Value::Object(spec);
    object["status"] = json!({});
    Ok(Generated {
        resource: Resource::new("", "v1", "resourcequotas", "ResourceQuota", true),
        object,
        failure: Some("failed to create quota: ".into()),
    })
}

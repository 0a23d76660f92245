//! `create poddisruptionbudget NAME --selector (--min-available | --max-unavailable)`: a
//! PodDisruptionBudget, as kubectl builds it.

use clap::Args;
use karmadactl_apimachinery::{LabelSelector, Operator};
use serde_json::{Map, Value, json};

use crate::cmd::create::generate::{Generated, Inputs, typed};
use crate::cmd::create::send::CreateFlags;
use crate::cmd::get::discovery::Resource;

/// Create a pod disruption budget with the specified name, selector, and desired minimum
/// available pods.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N [--dry-run=server|client|none]",
    after_help = "Examples:\n  # Create a pod disruption budget named my-pdb that will select all pods with the app=rails label\n  # and require at least one of them being available at any point in time\n  karmadactl create poddisruptionbudget my-pdb --selector=app=rails --min-available=1\n\n  # Create a pod disruption budget named my-pdb that will select all pods with the app=nginx label\n  # and require at least half of the pods selected to be available at any point in time\n  karmadactl create pdb my-pdb --selector=app=nginx --min-available=50%"
)]
pub struct PdbArgs {
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// The minimum number or percentage of available pods this budget requires.
    #[arg(long, default_value = "", value_name = "N")]
    pub min_available: String,

    /// The maximum number or percentage of unavailable pods this budget requires.
    #[arg(long, default_value = "", value_name = "N")]
    pub max_unavailable: String,

    /// A label selector to use for this budget. Only equality-based selector requirements are
    /// supported.
    #[arg(long, default_value = "", value_name = "SELECTOR")]
    pub selector: String,

    #[command(flatten)]
    pub flags: CreateFlags,
}

/// kubectl's `^[0-9]+%?$`.
fn count_or_percent(s: &str) -> bool {
    let digits = s.strip_suffix('%').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// kubectl's `Validate`.
pub fn validate(args: &PdbArgs) -> anyhow::Result<()> {
    let (min, max) = (&args.min_available, &args.max_unavailable);
    if args.selector.is_empty() {
        anyhow::bail!("a selector must be specified");
    }
    if min.is_empty() && max.is_empty() {
        anyhow::bail!("one of min-available or max-unavailable must be specified");
    }
    if !min.is_empty() && !max.is_empty() {
        anyhow::bail!("min-available and max-unavailable cannot be both specified");
    }
    if !min.is_empty() && !count_or_percent(min) {
        anyhow::bail!("invalid format specified for min-available");
    }
    if !max.is_empty() && !count_or_percent(max) {
        anyhow::bail!("invalid format specified for max-unavailable");
    }
    Ok(())
}

/// apimachinery's `ParseToLabelSelector`: equality into `matchLabels`, set-based
/// requirements into `matchExpressions`, the rest refused.
fn label_selector(text: &str) -> anyhow::Result<Value> {
    let parsed = LabelSelector::parse(text)
        .map_err(|e| anyhow::anyhow!("couldn't parse the selector string \"{text}\": {e}"))?;
    let (mut labels, mut expressions) = (Map::new(), Vec::new());
    for req in parsed.requirements() {
        let mut values = req.values().to_vec();
        values.sort();
        values.dedup();
        let operator = match req.operator() {
            Operator::Equals | Operator::DoubleEquals => {
                labels.insert(req.key().to_string(), json!(values.first().cloned().unwrap_or_default()));
                continue;
            }
            Operator::In => "In",
            Operator::NotIn => "NotIn",
            Operator::Exists => "Exists",
            Operator::DoesNotExist => "DoesNotExist",
            op @ (Operator::GreaterThan | Operator::LessThan) => {
                anyhow::bail!("{:?} isn't supported in label selectors", op.as_str())
            }
            op @ Operator::NotEquals => anyhow::bail!("{:?} is not a valid label selector operator", op.as_str()),
        };
        let mut expression = json!({"key": req.key(), "operator": operator});
        if !values.is_empty() {
            expression["values"] = json!(values);
        }
        expressions.push(expression);
    }
    let mut selector = Map::new();
    if !labels.is_empty() {
        selector.insert("matchLabels".into(), Value::Object(labels));
    }
    if !expressions.is_empty() {
        selector.insert("matchExpressions".into(), Value::Array(expressions));
    }
    Ok(Value::Object(selector))
}

/// intstr's `Parse`: a number (kept to 32 bits, as Go's conversion does) or the text.
fn int_or_string(s: &str) -> Value {
    match s.parse::<i64>() {
        Ok(n) => json!(n as i32),
        Err(_) => json!(s),
    }
}

pub fn build(args: &PdbArgs, inputs: &Inputs) -> anyhow::Result<Generated> {
    let mut object = typed("policy/v1", "PodDisruptionBudget", &inputs.name, inputs.object_namespace());
    let mut spec = json!({"selector": label_selector(&args.selector)?});
    if !args.min_available.is_empty() {
        spec["minAvailable"] = int_or_string(&args.min_available);
    } else {
        spec["maxUnavailable"] = int_or_string(&args.max_unavailable);
    }
    object["spec"] = spec;
    object["status"] = json!({"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0});
    Ok(Generated {
        resource: Resource::new("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true),
        object,
        failure: Some("failed to create poddisruptionbudgets: ".into()),
    })
}

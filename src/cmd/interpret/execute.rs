//! `interpret --operation OP`: runs one rule of the given customizations on local objects and
//! prints each result as a YAML document headed `# [i/n] name:`, as upstream does. Only the
//! customizations from `-f` are consulted (no built-in interpreter), so a rule the files do not
//! set for the object's kind is reported as not enabled.

use karmadactl_interpreter::{Interpreter, Operation, Source, Target};
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

use super::sources::Document;

/// The objects a rule runs on.
pub struct RuleArgs {
    pub desired: Option<Value>,
    pub observed: Option<Value>,
    pub status: Vec<AggregatedStatusItem>,
    pub replica: i64,
}

/// Why a rule could not run; upstream's texts.
#[derive(Debug, thiserror::Error)]
pub enum ExecuteError {
    #[error("desired, desired-file options are not set")]
    NoDesired,
    #[error("observed, observed-file options are not set")]
    NoObserved,
    #[error("desired-file, observed-file options are not set")]
    NoObject,
    #[error("you can not specify both desired-file and observed-file options")]
    BothObjects,
    #[error("rule is not enabled")]
    NotEnabled,
    #[error("{0}")]
    Customization(String),
    #[error(transparent)]
    Interpret(#[from] karmadactl_interpreter::InterpretError),
}

impl RuleArgs {
    fn desired(&self) -> Result<&Value, ExecuteError> {
        self.desired.as_ref().ok_or(ExecuteError::NoDesired)
    }

    fn observed(&self) -> Result<&Value, ExecuteError> {
        self.observed.as_ref().ok_or(ExecuteError::NoObserved)
    }

    /// The one object of a rule that takes either.
    fn object(&self) -> Result<&Value, ExecuteError> {
        match (&self.desired, &self.observed) {
            (None, None) => Err(ExecuteError::NoObject),
            (Some(_), Some(_)) => Err(ExecuteError::BothObjects),
            (Some(o), None) | (None, Some(o)) => Ok(o),
        }
    }
}

/// Runs `operation` with the customizations of `documents` only; the named results in order.
pub async fn run(
    customizations: &[Document],
    operation: Operation,
    args: &RuleArgs,
) -> Result<Vec<(&'static str, Value)>, ExecuteError> {
    let objects: Vec<Value> = customizations.iter().map(|d| d.object.clone()).collect();
    let interpreter = Interpreter::new();
    interpreter.set_customization_objects(&objects).map_err(ExecuteError::Customization)?;
    // Retain takes both objects; every other rule takes one of them.
    let (object, observed) = match operation {
        Operation::Retain => (args.desired()?, args.observed()?),
        _ => {
            let object = args.object()?;
            (object, object)
        }
    };
    if !matches!(interpreter.source(&Target::of(object), operation), Some(Source::Customization(_))) {
        return Err(ExecuteError::NotEnabled);
    }
    Ok(match operation {
        Operation::Retain => vec![("retained", interpreter.retain(object, observed).await?)],
        Operation::InterpretReplica => {
            let r = interpreter.replicas(object).await?;
            vec![("replica", json!(r.replicas)), ("requires", json!(r.requirements))]
        }
        Operation::InterpretComponent => vec![("components", json!(interpreter.components(object).await?))],
        Operation::ReviseReplica => vec![("revised", interpreter.revise_replica(object, args.replica).await?)],
        Operation::InterpretStatus => vec![("status", json!(interpreter.reflect_status(object).await?))],
        Operation::AggregateStatus => {
            vec![("aggregatedStatus", interpreter.aggregate_status(object, &args.status).await?)]
        }
        Operation::InterpretHealth => vec![("healthy", json!(interpreter.interpret_health(object).await?))],
        Operation::InterpretDependency => vec![("dependencies", json!(interpreter.dependencies(object).await?))],
    })
}

/// The results as upstream prints them: `---`, `# [i/n] name:`, the value as YAML.
pub fn render(results: &[(&str, Value)]) -> Result<String, crate::output::OutputError> {
    let mut out = String::new();
    for (i, (name, value)) in results.iter().enumerate() {
        out.push_str(&format!("---\n# [{}/{}] {name}:\n", i + 1, results.len()));
        out.push_str(&crate::output::to_yaml(value)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_numbered_yaml_documents() {
        let text = render(&[("replica", json!(4)), ("requires", json!({"namespace": "default"}))]).unwrap();
        assert_eq!(text, "---\n# [1/2] replica:\n4\n---\n# [2/2] requires:\nnamespace: default\n");
    }

    #[test]
    fn a_rule_taking_either_object_refuses_both_and_neither() {
        let both = RuleArgs { desired: Some(json!({})), observed: Some(json!({})), status: vec![], replica: 0 };
        assert!(matches!(both.object(), Err(ExecuteError::BothObjects)));
        let neither = RuleArgs { desired: None, observed: None, status: vec![], replica: 0 };
        assert!(matches!(neither.object(), Err(ExecuteError::NoObject)));
    }
}

//! What every `create` shares: the flags of kubectl's create commands (`--save-config`,
//! `--validate`, `--field-manager`, `--dry-run`, `-o`), the last-applied annotation, the
//! POST kubectl's resource helper sends, and the printed result.

use clap::{ArgAction, Args};
use serde_json::Value;

use super::go_order::Typed;
use crate::cli::Context;
use crate::cmd::apply::client_side::{LAST_APPLIED, modified_configuration_of};
use crate::cmd::get::discovery::Resource;
use crate::cmd::objects::Failure;
use crate::cmd::objects::flags::{ObjectPrinter, PrintFlags};
use crate::cmd::objects::pairs::DryRun;

/// The flags every create command has.
#[derive(Debug, Clone, Args)]
pub struct CreateFlags {
    /// If true, the configuration of current object will be saved in its annotation. Otherwise,
    /// the annotation will be unchanged. This flag is useful when you want to perform kubectl
    /// apply on this object in the future.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub save_config: bool,

    /// Must be one of: strict (or true), warn, ignore (or false). Unknown or duplicate fields
    /// fail the request (strict), are reported as warnings (warn) or dropped silently (ignore);
    /// the API server checks them.
    #[arg(long, default_value = "strict", num_args = 0..=1, require_equals = true,
          default_missing_value = "strict", value_name = "MODE")]
    pub validate: String,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-create", value_name = "NAME")]
    pub field_manager: String,

    #[command(flatten)]
    pub print: PrintFlags,
}

/// The resolved flags: how to send and how to print.
pub struct Plan {
    pub dry_run: DryRun,
    pub validation: &'static str,
    pub field_manager: String,
    pub save_config: bool,
    pub printer: ObjectPrinter,
    /// `-o json`: typed objects print in Go's field order.
    pub json: bool,
}

impl CreateFlags {
    /// Checks the flags before anything is read or sent; prints kubectl's dry-run warning.
    pub fn resolve(&self, ctx: &Context, command: &str) -> anyhow::Result<Plan> {
        let (dry_run, warning, printer) = self.print.resolve(ctx.parent(), command)?;
        let validation = crate::cmd::apply::field_validation(&self.validate)?;
        if let Some(w) = warning {
            ctx.printer.warn(&w);
        }
        Ok(Plan {
            dry_run,
            validation,
            field_manager: self.field_manager.clone(),
            save_config: self.save_config,
            printer,
            json: self.print.output.as_deref() == Some("json"),
        })
    }
}

/// kubectl's `CreateOrUpdateAnnotation`: with `--save-config` the object gets the
/// last-applied annotation; without it an annotation the object already has is brought up
/// to date. `typed` objects (the generators') are encoded in Go's field order.
pub fn annotate(object: &mut Value, save_config: bool, typed: bool) {
    let has = object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
        .is_some_and(|t| !t.is_empty());
    if !save_config && !has {
        return;
    }
    let encode = |v: &Value| match typed {
        true => {
            // A Go struct leaves out empty annotations (`omitempty`); a map keeps them.
            let mut v = v.clone();
            if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut)
                && meta.get("annotations").and_then(Value::as_object).is_some_and(|a| a.is_empty())
            {
                meta.remove("annotations");
            }
            crate::output::to_compact_go_json(&Typed(&v))
        }
        false => crate::output::to_compact_go_json(v),
    };
    *object = modified_configuration_of(object, encode);
}

/// The query kubectl's create sends.
fn query(plan: &Plan) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if plan.dry_run == DryRun::Server {
        q.append_pair("dryRun", "All");
    }
    if !plan.field_manager.is_empty() {
        q.append_pair("fieldManager", &plan.field_manager);
    }
    q.append_pair("fieldValidation", plan.validation);
    q.finish()
}

/// POSTs the object to its collection and returns the server's answer.
pub async fn post(
    client: &kube::Client,
    resource: &Resource,
    namespace: Option<&str>,
    object: &Value,
    plan: &Plan,
) -> Result<Value, Failure> {
    let body = serde_json::to_vec(object).map_err(|e| Failure::Plain(e.to_string()))?;
    let path = crate::cmd::get::fetch::collection_path(resource, namespace);
    let req = http::Request::post(format!("{path}?{}", query(plan)))
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(body)
        .map_err(|e| Failure::Plain(e.to_string()))?;
    client.request::<Value>(req).await.map_err(Failure::from_kube)
}

impl Plan {
    /// The printed text for a created object; `typed` for a generator's own object (not the
    /// server's answer).
    pub fn print(&mut self, object: &Value, typed: bool) -> anyhow::Result<String> {
        if typed && self.json {
            return Ok(crate::output::to_format(crate::output::OutputFormat::Json, &Typed(object))?);
        }
        self.printer.print(object, "created")
    }
}

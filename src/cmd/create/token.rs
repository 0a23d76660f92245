//! `create token SERVICE_ACCOUNT_NAME`: kubectl's TokenRequest client. It checks the flags as
//! kubectl's `Validate` does, POSTs a TokenRequest to `serviceaccounts/NAME/token` in the
//! namespace, and prints the token (a newline only on a terminal), or with `-o` the
//! TokenRequest as kubectl's typed client decodes it.

use std::io::IsTerminal;

use clap::{ArgAction, Args};
use serde_json::{Value, json};

use super::Connection;
use super::generate;
use super::go_order::Typed;
use crate::cli::Context;
use crate::cmd::objects::Failure;
use crate::cmd::objects::flags::PrintFlags;
use crate::output::OutputFormat;

/// The kinds a token can be bound to, each with its apiVersion (kubectl's `boundObjectKinds`).
const BOUND_OBJECT_KINDS: &[(&str, &str)] = &[("Node", "v1"), ("Pod", "v1"), ("Secret", "v1")];

/// Request a service account token.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl create token SERVICE_ACCOUNT_NAME",
    long_about = "Request a service account token.",
    after_help = "Examples:\n  # Request a token to authenticate to the kube-apiserver as the service account \"myapp\" in the current namespace\n  karmadactl create token myapp\n\n  # Request a token for a service account in a custom namespace\n  karmadactl create token myapp --namespace myns\n\n  # Request a token with a custom expiration\n  karmadactl create token myapp --duration 10m\n\n  # Request a token with a custom audience\n  karmadactl create token myapp --audience https://example.com\n\n  # Request a token bound to an instance of a Secret object\n  karmadactl create token myapp --bound-object-kind Secret --bound-object-name mysecret\n\n  # Request a token bound to an instance of a Secret object with a specific UID\n  karmadactl create token myapp --bound-object-kind Secret --bound-object-name mysecret --bound-object-uid 0d4691ed-659b-4935-a832-355f77ee47cc"
)]
pub struct TokenArgs {
    /// The service account the token is for, in the namespace (`-n`, else the context's).
    #[arg(value_name = "SERVICE_ACCOUNT_NAME")]
    pub names: Vec<String>,

    /// Audience of the requested token. If unset, defaults to requesting a token for use with
    /// the Kubernetes API server. May be repeated to request a token valid for multiple
    /// audiences.
    #[arg(long = "audience", value_name = "AUDIENCE")]
    pub audiences: Vec<String>,

    /// Kind of an object to bind the token to. Supported kinds are Node, Pod, Secret. If set,
    /// --bound-object-name must be provided.
    #[arg(long, default_value = "", hide_default_value = true, value_name = "KIND")]
    pub bound_object_kind: String,

    /// Name of an object to bind the token to. The token will expire when the object is
    /// deleted. Requires --bound-object-kind.
    #[arg(long, default_value = "", hide_default_value = true, value_name = "NAME")]
    pub bound_object_name: String,

    /// UID of an object to bind the token to. Requires --bound-object-kind and
    /// --bound-object-name. If unset, the UID of the existing object is used.
    #[arg(long, default_value = "", hide_default_value = true, value_name = "UID")]
    pub bound_object_uid: String,

    /// Requested lifetime of the issued token. If not set or if set to 0, the lifetime will be
    /// determined by the server automatically. The server may return a token with a longer or
    /// shorter lifetime.
    #[arg(long, default_value = "0s", value_name = "DURATION")]
    pub duration: String,

    /// Output format. One of: (json, yaml, name).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// If true, keep the managedFields when printing objects in JSON or YAML format.
    #[arg(long)]
    pub show_managed_fields: bool,

    /// If true, ignore any errors in templates when a field or map key is missing in the
    /// template. Only applies to golang and jsonpath output formats.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub allow_missing_template_keys: bool,

    /// Template string or path to template file (go-template output is not built: refused).
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
}

/// `--duration` in nanoseconds, parsed as kubectl's flag parsing parses it.
fn duration_nanos(value: &str) -> anyhow::Result<i64> {
    let parsed: karmadactl_apimachinery::duration::SignedGoDuration = value.parse().map_err(|e| {
        crate::error::Verbatim(format!(
            "error: invalid argument \"{value}\" for \"--duration\" flag: {e}\nSee 'karmadactl create token --help' for usage."
        ))
    })?;
    Ok(parsed.as_nanos())
}

/// kubectl's `Validate` of the lifetime, the audiences and the bound object; the lifetime in
/// whole seconds (0: the server's default).
fn validate(args: &TokenArgs, nanos: i64) -> anyhow::Result<i64> {
    if nanos < 0 {
        anyhow::bail!("--duration must be greater than or equal to 0");
    }
    if nanos % 1_000_000_000 != 0 {
        anyhow::bail!("--duration cannot be expressed in units less than seconds");
    }
    if args.audiences.iter().any(String::is_empty) {
        anyhow::bail!("--audience must not be an empty string");
    }
    if args.bound_object_kind.is_empty() {
        if !args.bound_object_name.is_empty() {
            anyhow::bail!("--bound-object-name can only be set if --bound-object-kind is provided");
        }
        if !args.bound_object_uid.is_empty() {
            anyhow::bail!("--bound-object-uid can only be set if --bound-object-kind is provided");
        }
        return Ok(nanos / 1_000_000_000);
    }
    if !BOUND_OBJECT_KINDS.iter().any(|(k, _)| *k == args.bound_object_kind) {
        let kinds: Vec<&str> = BOUND_OBJECT_KINDS.iter().map(|(k, _)| *k).collect();
        anyhow::bail!("supported --bound-object-kind values are {}", kinds.join(", "));
    }
    if args.bound_object_name.is_empty() {
        anyhow::bail!("--bound-object-name is required if --bound-object-kind is provided");
    }
    Ok(nanos / 1_000_000_000)
}

/// The TokenRequest kubectl sends.
fn request(args: &TokenArgs, seconds: i64) -> Value {
    let bound = BOUND_OBJECT_KINDS.iter().find(|(k, _)| *k == args.bound_object_kind).map(|(kind, version)| {
        let mut r = json!({"kind": kind, "apiVersion": version, "name": args.bound_object_name});
        if !args.bound_object_uid.is_empty() {
            r["uid"] = json!(args.bound_object_uid);
        }
        r
    });
    let audiences = match args.audiences.is_empty() {
        true => Value::Null,
        false => json!(args.audiences),
    };
    json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "spec": {"audiences": audiences, "expirationSeconds": (seconds > 0).then_some(seconds), "boundObjectRef": bound},
        "status": {"token": "", "expirationTimestamp": null},
    })
}

/// The answer as kubectl's typed TokenRequest holds it: the spec's and status's fields are
/// always there (`null` when unset), the bound object's only when set, as Go encodes them.
fn typed(answer: &Value) -> Value {
    let field = |path: &str| answer.pointer(path).cloned().unwrap_or(Value::Null);
    let mut meta = answer.get("metadata").cloned().filter(Value::is_object).unwrap_or_else(|| json!({}));
    if meta.get("creationTimestamp").is_none() {
        meta["creationTimestamp"] = Value::Null;
    }
    let bound = match answer.pointer("/spec/boundObjectRef").and_then(Value::as_object) {
        None => Value::Null,
        Some(r) => Value::Object(
            r.iter()
                .filter(|(k, v)| {
                    ["kind", "apiVersion", "name", "uid"].contains(&k.as_str())
                        && v.as_str().is_some_and(|s| !s.is_empty())
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
    };
    json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": meta,
        "spec": {
            "audiences": field("/spec/audiences"),
            "expirationSeconds": field("/spec/expirationSeconds"),
            "boundObjectRef": bound,
        },
        "status": {
            "token": answer.pointer("/status/token").cloned().unwrap_or_else(|| json!("")),
            "expirationTimestamp": field("/status/expirationTimestamp"),
        },
    })
}

pub fn run(args: &TokenArgs, ctx: &Context, connection: &Connection) -> anyhow::Result<()> {
    let nanos = duration_nanos(&args.duration)?;
    let name = generate::one_name(ctx, "token", &args.names)?;
    let (namespace, _) = connection.namespace()?;
    let print = PrintFlags {
        output: args.output.clone(),
        dry_run: "none".into(),
        show_managed_fields: args.show_managed_fields,
        allow_missing_template_keys: args.allow_missing_template_keys,
        template: args.template.clone(),
    };
    let (_, _, mut printer) = print.resolve(ctx.parent(), "create token")?;
    if name.is_empty() {
        anyhow::bail!("service account name is required");
    }
    let seconds = validate(args, nanos)?;
    let body = serde_json::to_vec(&request(args, seconds))?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let answer = runtime.block_on(async {
        let (client, _, _) = connection.connect().await?;
        let path = format!("/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token");
        let req = http::Request::post(path).header(http::header::CONTENT_TYPE, "application/json").body(body)?;
        client.request::<Value>(req).await.map_err(|e| match Failure::from_kube(e) {
            Failure::Api(s) => anyhow::anyhow!("failed to create token: {}", s.message),
            Failure::Plain(m) => anyhow::anyhow!("failed to create token: {m}"),
        })
    })?;
    let token = answer.pointer("/status/token").and_then(Value::as_str).unwrap_or_default();
    if token.is_empty() {
        anyhow::bail!("failed to create token: no token in server response");
    }
    if printer.has_format() {
        let object = typed(&answer);
        let text = match args.output.as_deref() {
            Some("json") => crate::output::to_format(OutputFormat::Json, &Typed(&object))?,
            _ => printer.print(&object, "created")?,
        };
        return ctx.printer.data(&text).map_err(Into::into);
    }
    // A terminal gets a newline after the token; a pipe gets the token alone.
    match std::io::stdout().is_terminal() {
        true => ctx.printer.data(&format!("{token}\n"))?,
        false => ctx.printer.data(token)?,
    }
    Ok(())
}

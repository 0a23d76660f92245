//! `edit`: kubectl's edit against the Karmada control plane: the objects are written to a
//! temporary file, the user's editor opens it, and each changed object is patched (strategic
//! merge for built-in kinds, JSON merge for custom resources); a refused change reopens the
//! file with the reasons at the top, as kubectl's edit loop does. As upstream, it acts on
//! Karmada only (no `--operation-scope`).

pub(crate) mod editor;
pub(crate) mod text;

use clap::{ArgAction, Args};
use serde_json::{Value, json};

use super::connection::KarmadaConnection;
use super::objects::flags::{FileFlags, PrintFlags};
use super::objects::{self, Failure, Spec, Target};
use crate::cli::Context;
use crate::cmd::apply::client_side::modified_configuration_of;
use crate::error::Verbatim;
use crate::manifest_files::{self, Origin};
use text::Reason;

/// Edit a resource on the server.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl edit (RESOURCE/NAME | -f FILENAME)",
    long_about = "Edit a resource from the default editor.\n\nThe edit command allows you to directly edit any API resource you can retrieve via the command-line tools. It will open the editor defined by your KUBE_EDITOR, or EDITOR environment variables, or fall back to 'vi' for Linux or 'notepad' for Windows. When attempting to open the editor, it will first attempt to use the shell that has been defined in the 'SHELL' environment variable. If this is not defined, the default shell will be used, which is '/bin/bash' for Linux or 'cmd' for Windows.\n\nYou can edit multiple objects, although changes are applied one at a time. The command accepts file names as well as command-line arguments, although the files you point to must be previously saved versions of resources.\n\nEditing is done with the API version used to fetch the resource. To edit using a specific API version, fully-qualify the resource, version, and group.\n\nThe default format is YAML. To edit in JSON, specify \"-o json\".\n\nThe flag --windows-line-endings can be used to force Windows line endings, otherwise the default for your operating system will be used.\n\nIn the event an error occurs while updating, a temporary file will be created on disk that contains your unapplied changes. The most common error when updating a resource is another editor changing the resource on the server. When this occurs, you will have to apply your changes to the newer version of the resource, or update your temporary saved copy to include the latest resource version.",
    after_help = "Examples:\n  # Edit the service named 'registry'\n  karmadactl edit svc/registry\n\n  # Use an alternative editor\n  KUBE_EDITOR=\"nano\" karmadactl edit svc/registry\n\n  # Edit the job 'myjob' in JSON using the v1 API format\n  karmadactl edit job.v1.batch/myjob -o json\n\n  # Edit the deployment 'mydeployment' in YAML and save the modified config in its annotation\n  karmadactl edit deployment/mydeployment -o yaml --save-config\n\n  # Edit the 'status' subresource for the 'mydeployment' deployment\n  karmadactl edit deployment mydeployment --subresource='status'"
)]
pub struct EditArgs {
    /// TYPE NAME, TYPE/NAME, or nothing with -f.
    #[arg(value_name = "RESOURCE")]
    pub args: Vec<String>,

    #[command(flatten)]
    pub files: FileFlags,

    /// Output format: the format to edit in (yaml, the default, or json), and of the edited
    /// objects printed afterwards. One of: (json, yaml, name).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Output the patch if the resource is edited.
    #[arg(long)]
    pub output_patch: bool,

    /// If true, the configuration of current object will be saved in its annotation. Otherwise,
    /// the annotation will be unchanged. This flag is useful when you want to perform kubectl
    /// apply on this object in the future.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub save_config: bool,

    /// If specified, edit will operate on the subresource of the requested object. Must be one
    /// of [status].
    #[arg(long, value_name = "SUBRESOURCE")]
    pub subresource: Option<String>,

    /// Must be one of: strict (or true), warn, ignore (or false). The API server checks the
    /// edited fields.
    #[arg(long, default_value = "strict", num_args = 0..=1, require_equals = true,
          default_missing_value = "strict", value_name = "MODE")]
    pub validate: String,

    /// Name of the manager used to track field ownership.
    #[arg(long, default_value = "kubectl-edit", value_name = "NAME")]
    pub field_manager: String,

    /// Defaults to the line ending native to your platform.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub windows_line_endings: bool,

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

    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// How the edit loop went so far (kubectl's `editResults`).
#[derive(Default)]
struct Results {
    reasons: Vec<Reason>,
    retryable: usize,
    notfound: usize,
    /// Objects the server found invalid: the file is reopened for them.
    edit: usize,
    file: Option<std::path::PathBuf>,
}

/// `deployments.apps`: how kubectl's edit names an object's resource in its messages.
fn resource_string(target: &Target) -> String {
    let r = &target.resource;
    if r.group.is_empty() { r.plural.clone() } else { format!("{}.{}", r.plural, r.group) }
}

impl Results {
    /// kubectl's `addError`: the line for stderr, and what to do next.
    fn add_error(&mut self, failure: &Failure, target: &Target) -> String {
        let (resource, name) = (resource_string(target), &target.name);
        match failure {
            Failure::Api(s) if s.reason == "Invalid" => {
                self.edit += 1;
                let other = s
                    .details
                    .as_ref()
                    .map(|d| d.causes.iter().map(|c| format!("{}: {}", c.field, c.message)).collect())
                    .unwrap_or_default();
                self.reasons.push(Reason { head: format!("{resource} {name:?} was not valid"), other });
                format!("error: {resource} {name:?} is invalid")
            }
            Failure::Api(s) if s.code == 404 => {
                self.notfound += 1;
                format!("error: {resource} {name:?} could not be found on the server")
            }
            Failure::Api(s) => {
                self.retryable += 1;
                format!("error: {resource} {name:?} could not be patched: {}", s.message)
            }
            Failure::Plain(m) => {
                self.retryable += 1;
                format!("error: {resource} {name:?} could not be patched: {m}")
            }
        }
    }
}

impl Results {
    /// The edited file did not parse: kubectl's validation failure, named after `target`.
    fn add_invalid_file(&mut self, error: &str, target: &Target) -> String {
        let (resource, name) = (resource_string(target), &target.name);
        self.edit += 1;
        self.reasons.push(Reason {
            head: format!("{resource} {name:?} was not valid"),
            // The cause names no field: Go prints its nil path as `<nil>`.
            other: vec![format!("<nil>: Invalid value: \"The edited file failed validation\": {error}")],
        });
        format!("error: {resource} {name:?} is invalid")
    }
}

/// kubectl's `preservedFile`: where the changes are kept, before the error.
fn preserved(ctx: &Context, file: Option<&std::path::Path>, err: anyhow::Error) -> anyhow::Error {
    if let Some(f) = file.filter(|f| f.exists()) {
        ctx.printer.progress(&format!("A copy of your changes has been stored to {:?}", f.display().to_string()));
    }
    err
}

/// The binary's name as kubectl names its own (temporary files, the `replace` hint).
pub(crate) fn base_name() -> String {
    std::env::args()
        .next()
        .and_then(|a| std::path::Path::new(&a).file_name().map(|f| f.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "karmadactl".into())
}

pub fn run(args: EditArgs, ctx: &Context) -> anyhow::Result<()> {
    args.files.refuse_unbuilt(ctx.parent(), "edit")?;
    let print = PrintFlags {
        output: args.output.clone(),
        dry_run: "none".into(),
        show_managed_fields: args.show_managed_fields,
        allow_missing_template_keys: args.allow_missing_template_keys,
        template: args.template.clone(),
    };
    let (_, _, mut printer) = print.resolve(ctx.parent(), "edit")?;
    let json = args.output.as_deref() == Some("json");
    let validation = crate::cmd::apply::field_validation(&args.validate)?;
    let subresource = args.subresource.clone().filter(|s| !s.is_empty());
    if let Some(s) = subresource.as_deref().filter(|s| *s != "status") {
        anyhow::bail!("invalid subresource value: {s:?}. Must be one of [status]");
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let resolved = args.karmada.resolve()?;
        let flag = args.namespace.as_deref().filter(|n| !n.is_empty());
        let namespace = crate::cmd::connection::effective_namespace(flag, resolved.namespace.as_deref());
        let config = super::scope::plane_config(&args.karmada).await?;
        let client = kube::Client::try_from(config)?;
        if args.args.is_empty() && args.files.filenames.is_empty() {
            anyhow::bail!(objects::NOTHING_NAMED);
        }
        let spec = Spec {
            resources: &args.args,
            filenames: &args.files.filenames,
            recursive: args.files.recursive,
            namespace: namespace.clone(),
            enforce_namespace: flag.is_some(),
            ..Spec::default()
        };
        let selection = objects::select(&client, &spec).await?;
        let mut targets = Vec::new();
        let mut failures = Vec::new();
        for t in selection.targets {
            match t {
                Ok(mut t) => {
                    if let Some(sub) = &subresource {
                        let req = http::Request::get(format!("{}/{sub}", t.path())).body(Vec::new())?;
                        match client.request::<Value>(req).await {
                            Ok(v) => t.object = v,
                            Err(e) => failures.push(Failure::from_kube(e)),
                        }
                    }
                    targets.push(t);
                }
                Err(f) => failures.push(f),
            }
        }
        if !failures.is_empty() {
            return Err(objects::failure::into_error(&failures));
        }
        if targets.is_empty() {
            anyhow::bail!("edit cancelled, no objects found");
        }
        let session = Session {
            ctx,
            client: &client,
            json,
            namespace,
            save_config: args.save_config,
            output_patch: args.output_patch,
            validation,
            field_manager: &args.field_manager,
            subresource: subresource.as_deref(),
            windows_line_endings: args.windows_line_endings,
        };
        session.edit_loop(&targets, &mut printer).await
    })
}

/// What the edit loop works with.
struct Session<'a> {
    ctx: &'a Context,
    client: &'a kube::Client,
    json: bool,
    namespace: String,
    save_config: bool,
    output_patch: bool,
    validation: &'static str,
    field_manager: &'a str,
    subresource: Option<&'a str>,
    windows_line_endings: bool,
}

/// The object as it is edited: without managedFields (kubectl clears them and puts them back).
fn without_managed_fields(object: &Value) -> Value {
    let mut o = object.clone();
    if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    o
}

fn uid(object: &Value) -> &str {
    object.pointer("/metadata/uid").and_then(Value::as_str).unwrap_or_default()
}

impl Session<'_> {
    /// The text the editor opens first: one object, or a `List` of them.
    fn render(&self, targets: &[Target]) -> anyhow::Result<String> {
        let object = match targets {
            [one] => without_managed_fields(&one.object),
            many => json!({"apiVersion": "v1", "kind": "List", "metadata": {},
                           "items": many.iter().map(|t| without_managed_fields(&t.object)).collect::<Vec<_>>()}),
        };
        Ok(match self.json {
            true => crate::output::to_json(&object)?,
            false => crate::output::to_yaml(&object)?,
        })
    }

    async fn edit_loop(&self, targets: &[Target], printer: &mut objects::flags::ObjectPrinter) -> anyhow::Result<()> {
        let ctx = self.ctx;
        let (ext, header) = if self.json { (".json", false) } else { (".yaml", true) };
        let prefix = format!("{}-edit-", base_name());
        let mut results = Results::default();
        let mut original: Vec<u8> = Vec::new();
        let mut edited: Vec<u8> = Vec::new();
        let mut contains_error = false;
        loop {
            let crlf = |t: &str| text::line_endings(t.as_bytes().to_vec(), self.windows_line_endings);
            let mut buf = Vec::new();
            if header {
                buf.extend_from_slice(&crlf(&text::header(&results.reasons)));
            }
            if !contains_error {
                buf.extend_from_slice(&crlf(&self.render(targets)?));
                original = buf.clone();
            } else {
                buf.extend_from_slice(&text::manual_strip(&edited));
            }
            let edited_before = std::mem::take(&mut edited);
            let (now, file) =
                editor::launch_temp_file(&prefix, ext, &buf).map_err(|e| preserved(ctx, results.file.as_deref(), e))?;
            edited = now;
            if contains_error && text::strip_comments(&edited_before) == text::strip_comments(&edited) {
                return Err(preserved(
                    ctx,
                    Some(&file),
                    anyhow::anyhow!("Edit cancelled, no valid changes were saved."),
                ));
            }
            if let Some(old) = results.file.take() {
                let _ = std::fs::remove_file(old);
            }
            if let Some(why) = text::cancelled(&original, &edited) {
                let _ = std::fs::remove_file(&file);
                ctx.printer.progress(why);
                return Ok(());
            }
            results = Results { file: Some(file.clone()), ..Results::default() };
            let docs = std::str::from_utf8(&edited)
                .map_err(|e| e.to_string())
                .and_then(|t| manifest_files::parse(&Origin::File("edited-file".into()), t).map_err(|e| e.to_string()));
            let docs = match docs {
                Ok(d) => objects::flatten(d),
                Err(e) => {
                    // kubectl's schema check reads the file first: a file that does not parse
                    // is reported as the first object being invalid.
                    contains_error = true;
                    let line = results.add_invalid_file(&e, &targets[0]);
                    ctx.printer.progress(&line);
                    continue;
                }
            };
            contains_error = false;
            for doc in docs {
                let object = self.prepare(doc.object, targets).map_err(|e| preserved(ctx, Some(&file), e))?;
                self.patch_one(object, targets, &mut results, printer)
                    .await
                    .map_err(|e| preserved(ctx, Some(&file), e))?;
            }
            if results.retryable > 0 {
                return Err(Verbatim(format!(
                    "You can run `{} replace -f {}` to try this update again.",
                    base_name(),
                    file.display()
                ))
                .into());
            }
            if results.notfound > 0 {
                return Err(Verbatim(format!(
                    "The edits you made on deleted resources have been saved to {:?}",
                    file.display().to_string()
                ))
                .into());
            }
            if results.edit == 0 {
                let _ = std::fs::remove_file(&file);
                return Ok(());
            }
            if !results.reasons.is_empty() {
                contains_error = true;
            }
        }
    }

    /// The edited object with its managedFields back, its namespace required as kubectl's
    /// `RequireNamespace` requires it, and the last-applied annotation written with
    /// `--save-config`.
    fn prepare(&self, mut object: Value, targets: &[Target]) -> anyhow::Result<Value> {
        let original = targets.iter().find(|t| uid(&t.object) == uid(&object) && !uid(&object).is_empty());
        if let (Some(t), Some(meta)) = (original, object.get_mut("metadata").and_then(Value::as_object_mut))
            && let Some(mf) = t.object.pointer("/metadata/managedFields")
        {
            meta.insert("managedFields".into(), mf.clone());
        }
        let namespaced = original.map(|t| t.resource.namespaced).unwrap_or(true);
        if namespaced && let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            match meta.get("namespace").and_then(Value::as_str).unwrap_or_default() {
                "" => {
                    meta.insert("namespace".into(), Value::String(self.namespace.clone()));
                }
                ns if ns != self.namespace => anyhow::bail!(
                    "the namespace from the provided object {ns:?} does not match the namespace {:?}. You must pass '--namespace={ns}' to perform this operation.",
                    self.namespace
                ),
                _ => {}
            }
        }
        // Only with --save-config: kubectl's edit leaves an existing annotation as it is.
        if self.save_config {
            object = modified_configuration_of(&object, crate::output::to_compact_go_json);
        }
        Ok(object)
    }

    /// kubectl's `visitToPatch` for one edited object.
    async fn patch_one(
        &self,
        edited: Value,
        targets: &[Target],
        results: &mut Results,
        printer: &mut objects::flags::ObjectPrinter,
    ) -> anyhow::Result<()> {
        let Some(target) = targets.iter().find(|t| uid(&t.object) == uid(&edited)) else {
            anyhow::bail!("no original object found for {}", crate::output::to_compact_go_json(&edited).trim_end());
        };
        if target.object == edited {
            return self.ctx.printer.data(&printer.print(&edited, "skipped")?).map_err(Into::into);
        }
        let changed = |key: &str, o: &Value, e: &Value| o.get(key) != e.get(key);
        let name_changed = target.object.pointer("/metadata/name") != edited.pointer("/metadata/name");
        let managed_changed =
            target.object.pointer("/metadata/managedFields") != edited.pointer("/metadata/managedFields");
        if changed("apiVersion", &target.object, &edited)
            || changed("kind", &target.object, &edited)
            || name_changed
            || managed_changed
        {
            anyhow::bail!("At least one of apiVersion, kind and name was changed");
        }
        let group = target.resource.group.as_str();
        let strategic = crate::cmd::apply::client_side::STRATEGIC_GROUPS.contains(&group);
        let (content_type, patch) = if strategic {
            let schema = karmadactl_apimachinery::strategic::schema_for(group, &target.resource.kind);
            let patch = karmadactl_apimachinery::strategic::three_way_patch(
                Some(&target.object),
                &edited,
                &target.object,
                schema,
                true,
            );
            ("application/strategic-merge-patch+json", Value::Object(patch))
        } else {
            ("application/merge-patch+json", karmadactl_apimachinery::create_merge_patch(&target.object, &edited))
        };
        let body = crate::output::to_compact_go_json(&patch).trim_end().to_string();
        if self.output_patch {
            self.ctx.printer.data(&format!("Patch: {body}\n"))?;
        }
        let mut query = form_urlencoded::Serializer::new(String::new());
        if !self.field_manager.is_empty() {
            query.append_pair("fieldManager", self.field_manager);
        }
        query.append_pair("fieldValidation", self.validation);
        let mut path = target.path();
        if let Some(sub) = self.subresource {
            path = format!("{path}/{sub}");
        }
        let req = http::Request::patch(format!("{path}?{}", query.finish()))
            .header(http::header::CONTENT_TYPE, content_type)
            .body(body.into_bytes())?;
        match self.client.request::<Value>(req).await.map_err(Failure::from_kube) {
            Ok(patched) => self.ctx.printer.data(&printer.print(&patched, "edited")?)?,
            Err(f) => {
                let line = results.add_error(&f, target);
                self.ctx.printer.progress(&line);
            }
        }
        Ok(())
    }
}

//! `create --edit`: kubectl's edit-before-create. Each object of the files opens in the user's
//! editor on its own (YAML with the edit header, or JSON with `-o json`; CRLF line endings with
//! `--windows-line-endings`); what is saved is created and printed. An unchanged or emptied
//! file cancels that object, a file that does not parse is reopened with the reason at the top,
//! and a refused create keeps the edited file and names it, as kubectl's edit loop does.

use serde_json::Value;

use super::send::{self, Plan};
use crate::cli::Context;
use crate::cmd::apply::Info;
use crate::cmd::edit::editor;
use crate::cmd::edit::text::{self, Reason};
use crate::cmd::objects::{self, Failure, Spec};
use crate::manifest_files::{self, Origin};

/// What every object's edit shares.
pub struct Session<'a> {
    pub ctx: &'a Context,
    pub client: &'a kube::Client,
    pub served: &'a crate::cmd::get::discovery::Served,
    /// The namespace the edited objects must be in (kubectl's `RequireNamespace`).
    pub namespace: String,
    pub json: bool,
    pub windows_line_endings: bool,
}

/// kubectl's `preservedFile`: where the changes are kept, before the error.
fn preserved(ctx: &Context, file: Option<&std::path::Path>, err: anyhow::Error) -> anyhow::Error {
    if let Some(f) = file.filter(|f| f.exists()) {
        ctx.printer.progress(&format!("A copy of your changes has been stored to {:?}", f.display().to_string()));
    }
    err
}

/// `deployments.apps`: how kubectl's edit names a resource in its messages.
fn resource_string(info: &Info) -> String {
    let r = &info.resource;
    if r.group.is_empty() { r.plural.clone() } else { format!("{}.{}", r.plural, r.group) }
}

impl Session<'_> {
    /// Edits one object of the files and creates what the user saved.
    pub async fn edit_and_create(&self, info: &Info, plan: &mut Plan) -> anyhow::Result<()> {
        let ctx = self.ctx;
        let (ext, header) = if self.json { (".json", false) } else { (".yaml", true) };
        let prefix = format!("{}-edit-", crate::cmd::edit::base_name());
        let mut object = info.object.clone();
        if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("managedFields");
        }
        let rendered = match self.json {
            true => crate::output::to_json(&object)?,
            false => crate::output::to_yaml(&object)?,
        };
        let mut reasons: Vec<Reason> = Vec::new();
        let mut kept: Option<std::path::PathBuf> = None;
        let (mut original, mut edited, mut contains_error) = (Vec::new(), Vec::new(), false);
        loop {
            let crlf = |t: &str| text::line_endings(t.as_bytes().to_vec(), self.windows_line_endings);
            let mut buf = Vec::new();
            if header {
                buf.extend_from_slice(&crlf(&text::header(&reasons)));
            }
            // The saved text goes back as it was written, its line endings included.
            match contains_error {
                false => {
                    buf.extend_from_slice(&crlf(&rendered));
                    original = buf.clone();
                }
                true => buf.extend_from_slice(&text::manual_strip(&edited)),
            }
            let before = std::mem::take(&mut edited);
            let (now, file) =
                editor::launch_temp_file(&prefix, ext, &buf).map_err(|e| preserved(ctx, kept.as_deref(), e))?;
            edited = now;
            if contains_error && text::strip_comments(&before) == text::strip_comments(&edited) {
                let cancelled = anyhow::anyhow!("Edit cancelled, no valid changes were saved.");
                return Err(preserved(ctx, Some(&file), cancelled));
            }
            if let Some(old) = kept.take() {
                let _ = std::fs::remove_file(old);
            }
            let parsed = std::str::from_utf8(&edited)
                .map_err(|e| e.to_string())
                .and_then(|t| manifest_files::parse(&Origin::File("edited-file".into()), t).map_err(|e| e.to_string()));
            // kubectl's validator refuses a file without an object, emptied ones included.
            let parsed = parsed.and_then(|d| match d.is_empty() {
                true => Err("invalid object to validate".to_string()),
                false => Ok(d),
            });
            let docs = match parsed {
                Ok(docs) => objects::flatten(docs),
                Err(e) => {
                    // kubectl's schema check reads the file first: a file that does not parse
                    // makes the object invalid, and the file is reopened with the reason.
                    let (resource, name) = (resource_string(info), &info.name);
                    reasons = vec![Reason {
                        head: format!("{resource} {name:?} was not valid"),
                        // The cause names no field: Go prints its nil path as `<nil>`.
                        other: vec![format!("<nil>: Invalid value: \"The edited file failed validation\": {e}")],
                    }];
                    ctx.printer.progress(&format!("error: {resource} {name:?} is invalid"));
                    kept = Some(file);
                    contains_error = true;
                    continue;
                }
            };
            if let Some(why) = text::cancelled(&original, &edited) {
                let _ = std::fs::remove_file(&file);
                ctx.printer.progress(why);
                return Ok(());
            }
            for doc in docs {
                self.create(doc, plan).await.map_err(|e| preserved(ctx, Some(&file), e))?;
            }
            let _ = std::fs::remove_file(&file);
            return Ok(());
        }
    }

    /// Creates one edited object in the required namespace, with the last-applied annotation
    /// with `--save-config`, and prints it.
    async fn create(&self, doc: manifest_files::Document, plan: &mut Plan) -> anyhow::Result<()> {
        let spec = Spec { namespace: self.namespace.clone(), enforce_namespace: true, ..Default::default() };
        let (resource, namespace, _) = objects::locate(self.served, &spec, &doc)?;
        let mut object = doc.object;
        if let (Some(ns), Some(meta)) = (&namespace, object.get_mut("metadata").and_then(Value::as_object_mut)) {
            meta.insert("namespace".into(), Value::String(ns.clone()));
        }
        send::annotate(&mut object, plan.save_config, false);
        let created = send::post(self.client, &resource, namespace.as_deref(), &object, plan)
            .await
            .map_err(|f: Failure| objects::failure::into_error(&[f]))?;
        self.ctx.printer.data(&plan.print(&created, false)?)?;
        Ok(())
    }
}

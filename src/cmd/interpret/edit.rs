//! `interpret --edit`: opens one customization's rules in `$KUBE_EDITOR` or `$EDITOR` (vi by
//! default) as a Lua file, checks what comes back, and writes it to the file it came from (or
//! prints it, for standard input and URLs). A text that does not parse, or whose scripts do not
//! compile, reopens with the reasons on top, as `kubectl edit` does; nothing is written until
//! the text is valid.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use karmadactl_interpreter::customization::check_script;
use karmadactl_karmada_api::config::customization::{API_VERSION, KIND};
use serde_json::{Value, json};

use super::edit_file;
use crate::manifest_files::{Document, Origin};
use crate::printer::Printer;

/// The name printer's `kind.group` for customizations.
const RESOURCE: &str = "resourceinterpretercustomization.config.karmada.io";

#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("no customizations found. If you want to create a new one, please set only one file with '-f'")]
    NoneFound,
    #[error("only one customization can be edited")]
    SeveralFound,
    #[error("not a {KIND}, got {0}")]
    NotCustomization(String),
    #[error("there was a problem with the editor {0:?}")]
    Editor(String),
    #[error("Edit cancelled, no valid changes were saved.")]
    NoValidChanges,
    #[error("cannot write {0}: {1}")]
    Write(String, String),
    #[error("cannot create the file to edit: {0}")]
    TempFile(String),
}

/// Edits the one customization in `documents` (or a new one for the single `-f` file).
pub fn run(documents: &[Document], filenames: &[String], show_doc: bool, printer: &Printer) -> anyhow::Result<()> {
    let (origin, original, json_format) = match documents {
        [] if filenames.len() == 1 => (
            origin_of(&filenames[0]),
            json!({"apiVersion": API_VERSION, "kind": KIND, "metadata": {}, "spec": {"target": {}}}),
            false,
        ),
        [] => return Err(EditError::NoneFound.into()),
        [doc] => (doc.origin.clone(), doc.object.clone(), doc.json),
        _ => return Err(EditError::SeveralFound.into()),
    };
    if original["apiVersion"] != API_VERSION || original["kind"] != KIND {
        let target = karmadactl_interpreter::Target::of(&original);
        return Err(EditError::NotCustomization(target.to_string()).into());
    }
    let name = original["metadata"]["name"].as_str().unwrap_or_default().to_string();
    let mut reasons: Vec<String> = Vec::new();
    let mut retry_text: Option<String> = None;
    let mut previous: Option<PathBuf> = None;
    loop {
        let body = match &retry_text {
            Some(text) => edit_file::strip_comments(text),
            None => edit_file::render(&original, show_doc),
        };
        let file = temp_file(&format!("{}{body}", edit_file::header(&reasons)))?;
        launch_editor(&file).inspect_err(|_| preserved(printer, &file))?;
        let text =
            std::fs::read_to_string(&file).map_err(|e| EditError::Write(file.display().to_string(), e.to_string()))?;
        if let Some(old) = previous.take() {
            let _ = std::fs::remove_file(old);
        }
        if retry_text.as_deref().is_some_and(|t| edit_file::strip_comments(t) == edit_file::strip_comments(&text)) {
            preserved(printer, &file);
            return Err(EditError::NoValidChanges.into());
        }
        if edit_file::strip_comments(&text).trim().is_empty() {
            let _ = std::fs::remove_file(&file);
            printer.progress("Edit cancelled, saved file was empty.");
            return Ok(());
        }
        // Unchanged is checked before the scripts, as upstream does: leaving a customization as
        // it was is never refused.
        if edit_file::parse(&text).is_ok_and(|e| e.apply_to(&original) == original) {
            let _ = std::fs::remove_file(&file);
            printer.progress("Edit cancelled, no changes made.");
            return Ok(());
        }
        match check(&text, &original) {
            Ok(edited) => {
                save(&origin, &edited, json_format, printer).inspect_err(|_| preserved(printer, &file))?;
                let _ = std::fs::remove_file(&file);
                printer.line(&format!("{RESOURCE}/{name} edited"))?;
                return Ok(());
            }
            Err(problems) => {
                printer.progress(&format!("error: resourceinterpretercustomizations {name:?} is invalid"));
                reasons =
                    vec![format!("resourceinterpretercustomizations {name:?} was not valid:\n{}", problems.join("\n"))];
                retry_text = Some(text);
                previous = Some(file);
            }
        }
    }
}

/// The edited customization, or what is wrong with the text.
fn check(text: &str, original: &Value) -> Result<Value, Vec<String>> {
    let edited = edit_file::parse(text).map_err(|e| vec![format!("The edited file failed validation: {e}")])?;
    let problems: Vec<String> = edited
        .scripts
        .iter()
        .filter_map(|(op, script)| check_script(*op, script).err().map(|e| format!("{}: {}", op.name(), e.trim())))
        .collect();
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(edited.apply_to(original))
}

fn origin_of(name: &str) -> Origin {
    match name {
        "-" => Origin::Stdin,
        url if url.starts_with("http://") || url.starts_with("https://") => Origin::Url(url.into()),
        path => Origin::File(path.into()),
    }
}

/// Writes the customization where it came from: its file, or stdout for stdin and URLs.
fn save(origin: &Origin, customization: &Value, json_format: bool, printer: &Printer) -> anyhow::Result<()> {
    let text = if json_format {
        format!("{}\n", crate::output::to_json(customization)?)
    } else {
        crate::output::to_yaml(customization)?
    };
    match origin {
        Origin::File(path) => {
            std::fs::write(path, text).map_err(|e| EditError::Write(path.display().to_string(), e.to_string()))?
        }
        Origin::Stdin | Origin::Url(_) => printer.data(&text)?,
    }
    Ok(())
}

/// A new private file holding `text`, named as upstream names it (`karmadactl-edit-*.lua`).
fn temp_file(text: &str) -> Result<PathBuf, EditError> {
    let dir = std::env::temp_dir();
    for attempt in 0..16u32 {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let path = dir.join(format!("karmadactl-edit-{}{nanos:09}{attempt}.lua", std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path) {
            Ok(mut f) => {
                f.write_all(text.as_bytes()).map_err(|e| EditError::TempFile(e.to_string()))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(EditError::TempFile(e.to_string())),
        }
    }
    Err(EditError::TempFile("no free name in the temporary directory".into()))
}

/// Runs the editor on `file` and waits for it. An editor setting with spaces runs through
/// the shell, as kubectl runs it, so `EDITOR="code --wait"` works.
fn launch_editor(file: &Path) -> Result<(), EditError> {
    let editor = ["KUBE_EDITOR", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "vi".into());
    let status = if editor.contains(char::is_whitespace) {
        Command::new("sh").arg("-c").arg(format!("{editor} \"$0\"")).arg(file).status()
    } else {
        Command::new(&editor).arg(file).status()
    };
    match status {
        Ok(s) if s.success() => Ok(()),
        _ => Err(EditError::Editor(editor)),
    }
}

fn preserved(printer: &Printer, file: &Path) {
    if file.exists() {
        printer.progress(&format!("A copy of your changes has been stored to {:?}", file.display().to_string()));
    }
}

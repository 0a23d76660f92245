//! The flags kubectl's object-changing commands share: which objects (`-f`, `-l`, `--all`,
//! `-A`, `-n`), on which server (the plane, or a member through its proxy), and how the
//! changed objects are printed (`-o`, `--dry-run`).

use clap::{ArgAction, Args};
use serde_json::Value;

use super::Spec;
use super::pairs::DryRun;
use crate::cmd::connection::KarmadaConnection;
use crate::cmd::scope::{self, Scope};
use crate::output::{OutputFormat, to_format};

/// Which objects, and where.
#[derive(Debug, Clone, Args)]
pub struct ObjectFlags {
    #[command(flatten)]
    pub files: FileFlags,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector
    /// key1=value1,key2=value2). The server only supports a limited number of field queries
    /// per type.
    #[arg(long, value_name = "SELECTOR")]
    pub field_selector: Option<String>,

    /// Select all resources, in the namespace of the specified resource types.
    #[arg(long)]
    pub all: bool,

    /// If true, check the specified action in all namespaces.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    #[command(flatten)]
    pub server: ServerFlags,
}

/// The files that name the objects (`-f`, `-R`; `-k` is refused).
#[derive(Debug, Clone, Args)]
pub struct FileFlags {
    /// Filename, directory, or URL to files identifying the resource to update.
    #[arg(short = 'f', long = "filename", value_name = "FILENAME", value_hint = clap::ValueHint::AnyPath)]
    pub filenames: Vec<String>,

    /// Process the directory used in -f, --filename recursively. Useful when you want to
    /// manage related manifests organized within the same directory.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// Process the kustomization directory (not built: refused with exit code 2).
    #[arg(short = 'k', long, value_name = "DIR")]
    pub kustomize: Option<String>,
}

/// Which server, and which namespace on it.
#[derive(Debug, Clone, Args)]
pub struct ServerFlags {
    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Used to control the operation scope of the command. The optional values are karmada and
    /// members. Defaults to karmada.
    #[arg(short = 's', long, default_value = "karmada", value_parser = scope::parse_scope, value_name = "SCOPE")]
    pub operation_scope: Scope,

    /// Used to specify a target member cluster and only takes effect when the command's
    /// operation scope is members, for example: --operation-scope=members --cluster=member1
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// How the changed objects are printed.
#[derive(Debug, Clone, Args)]
pub struct PrintFlags {
    /// Output format. One of: (json, yaml, name).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Must be "none", "server", or "client". If client strategy, only print the object that
    /// would be sent, without sending it. If server strategy, submit server-side request
    /// without persisting the resource.
    #[arg(long, default_value = "none", num_args = 0..=1, require_equals = true,
          default_missing_value = "unchanged", value_name = "STRATEGY")]
    pub dry_run: String,

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

/// The server and namespace the command works with.
pub struct Connected {
    pub client: kube::Client,
    pub namespace: String,
    /// Whether `-n` was given.
    pub enforce_namespace: bool,
}

impl ObjectFlags {
    /// Refuses what is not built, before anything is read.
    pub fn refuse_unbuilt(&self, parent: &str, command: &str) -> anyhow::Result<()> {
        self.files.refuse_unbuilt(parent, command)
    }

    /// kubectl's refusals of selectors that contradict each other.
    pub fn check_selectors(&self) -> Result<(), &'static str> {
        let given = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.is_empty());
        match (self.all, given(&self.selector), given(&self.field_selector)) {
            (true, true, _) => Err("cannot set --all and --selector at the same time"),
            (true, _, true) => Err("cannot set --all and --field-selector at the same time"),
            _ => Ok(()),
        }
    }

    /// Something must name the objects: resource arguments or `-f`.
    pub fn check_named(&self, resources: &[String]) -> Result<(), &'static str> {
        if resources.is_empty() && self.files.filenames.is_empty() {
            return Err("one or more resources must be specified as <resource> <name> or <resource>/<name>");
        }
        Ok(())
    }

    /// Connects to the plane, or to the member `-s members -C NAME` names through the plane's
    /// cluster proxy.
    pub async fn connect(&self) -> anyhow::Result<Connected> {
        self.server.connect().await
    }

    /// What to select, once connected.
    pub fn spec<'a>(&'a self, resources: &'a [String], connected: &Connected) -> Spec<'a> {
        Spec {
            resources,
            filenames: &self.files.filenames,
            recursive: self.files.recursive,
            selector: self.selector.as_deref(),
            field_selector: self.field_selector.as_deref(),
            all: self.all,
            all_namespaces: self.all_namespaces,
            namespace: connected.namespace.clone(),
            enforce_namespace: connected.enforce_namespace,
            skip_read: false,
        }
    }
}

impl FileFlags {
    /// Refuses what is not built, before anything is read.
    pub fn refuse_unbuilt(&self, parent: &str, command: &str) -> anyhow::Result<()> {
        if self.kustomize.is_some() {
            return Err(crate::error::NotBuilt {
                command: format!("{parent} {command} -k"),
                instead: Some("render the kustomization with 'kubectl kustomize DIR > FILE' and pass -f FILE.".into()),
            }
            .into());
        }
        Ok(())
    }
}

impl ServerFlags {
    /// Connects to the plane, or to the member `-s members -C NAME` names through the plane's
    /// cluster proxy.
    pub async fn connect(&self) -> anyhow::Result<Connected> {
        let member = scope::target(self.operation_scope, self.cluster.as_deref())?;
        let resolved = self.karmada.resolve()?;
        let flag = self.namespace.as_deref().filter(|n| !n.is_empty());
        let namespace = crate::cmd::connection::effective_namespace(flag, resolved.namespace.as_deref());
        let config = scope::config_for(&self.karmada, member.as_deref()).await?;
        Ok(Connected { client: kube::Client::try_from(config)?, namespace, enforce_namespace: flag.is_some() })
    }
}

/// Prints changed objects one by one, as kubectl's printers do.
pub struct ObjectPrinter {
    format: Option<OutputFormat>,
    show_managed_fields: bool,
    dry_run: DryRun,
    printed: usize,
}

impl PrintFlags {
    /// The dry-run strategy and the printer; `--template` and template formats are refused.
    pub fn resolve(&self, parent: &str, command: &str) -> anyhow::Result<(DryRun, Option<String>, ObjectPrinter)> {
        let (dry_run, warning) = DryRun::parse(&self.dry_run).map_err(anyhow::Error::msg)?;
        let output = self.output.as_deref().unwrap_or_default();
        if self.template.is_some()
            || output.starts_with("go-template")
            || output.starts_with("jsonpath")
            || output.starts_with("template")
        {
            return Err(crate::error::NotBuilt {
                command: format!("{parent} {command} -o {output}"),
                instead: Some("use -o json and a JSON processor instead.".into()),
            }
            .into());
        }
        let format = match output {
            "" => None,
            o => Some(OutputFormat::parse_allowed(o, &[OutputFormat::Json, OutputFormat::Yaml, OutputFormat::Name])?),
        };
        Ok((
            dry_run,
            warning,
            ObjectPrinter { format, show_managed_fields: self.show_managed_fields, dry_run, printed: 0 },
        ))
    }
}

impl ObjectPrinter {
    /// Without the ` (dry run)` suffix: kubectl's patch sets its printer's operation after the
    /// dry-run strategy has added the suffix, so its lines never carry it.
    pub fn without_dry_run_suffix(mut self) -> Self {
        self.dry_run = DryRun::None;
        self
    }

    /// Whether `-o` was given.
    pub fn has_format(&self) -> bool {
        self.format.is_some()
    }

    /// The text for one object: `kind.group/name <operation>` by default, the name alone for
    /// `-o name`, else the object (YAML documents separated by `---`).
    pub fn print(&mut self, object: &Value, operation: &str) -> anyhow::Result<String> {
        self.printed += 1;
        let named = || -> anyhow::Result<String> { Ok(crate::output::object_name(object)?) };
        Ok(match self.format {
            None => format!("{} {operation}{}\n", named()?, self.dry_run.suffix()),
            Some(OutputFormat::Name) => format!("{}\n", named()?),
            Some(format) => {
                let mut object = object.clone();
                if !self.show_managed_fields
                    && let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut)
                {
                    meta.remove("managedFields");
                }
                let text = to_format(format, &object)?;
                if format == OutputFormat::Yaml && self.printed > 1 { format!("---\n{text}") } else { text }
            }
        })
    }
}

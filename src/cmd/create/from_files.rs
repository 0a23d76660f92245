//! `create -f`: every object of the files POSTed as kubectl's create sends it (the
//! last-applied annotation with `--save-config`), printed as it is created; failures are
//! reported after the others were tried, as kubectl's builder continues on error.

use super::CreateArgs;
use super::send::{self, Plan};
use crate::cli::Context;
use crate::cmd::objects::{self, Spec};

fn not_built(ctx: &Context, what: &str, instead: &str) -> anyhow::Error {
    crate::error::NotBuilt { command: format!("{} create {what}", ctx.parent()), instead: Some(instead.into()) }.into()
}

/// Refuses what is not built and what kubectl's `Validate` refuses.
fn validate(args: &CreateArgs, ctx: &Context) -> anyhow::Result<()> {
    args.files.refuse_unbuilt(ctx.parent(), "create")?;
    if args.files.filenames.is_empty() {
        anyhow::bail!("must specify one of -f and -k");
    }
    if args.edit {
        return Err(not_built(ctx, "--edit", "create the object with -f, then change it with 'edit'."));
    }
    if args.raw.as_deref().is_some_and(|r| !r.is_empty()) {
        return Err(not_built(ctx, "--raw", "create the object from its manifest with -f."));
    }
    Ok(())
}

pub fn run(args: CreateArgs, ctx: &Context) -> anyhow::Result<()> {
    validate(&args, ctx)?;
    let mut plan = args.flags.resolve(ctx, "create")?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (count, failures) = runtime.block_on(async {
        let (client, namespace, enforce) = args.connection.connect().await?;
        let spec = Spec {
            filenames: &args.files.filenames,
            recursive: args.files.recursive,
            selector: args.selector.as_deref(),
            namespace,
            enforce_namespace: enforce,
            ..Default::default()
        };
        let (infos, mut failures) = crate::cmd::apply::infos(&client, &spec).await?;
        let mut count = 0;
        for info in infos {
            match create_one(&client, info, &plan).await {
                Ok(object) => {
                    count += 1;
                    ctx.printer.data(&plan.print(&object, false)?)?;
                }
                Err(f) => failures.push(f),
            }
        }
        anyhow::Ok((count, failures))
    })?;
    match failures.as_slice() {
        [] if count == 0 => anyhow::bail!("no objects passed to create"),
        [] => Ok(()),
        f => Err(objects::failure::into_error(f)),
    }
}

/// Creates one object, or only shows it with `--dry-run=client`.
async fn create_one(
    client: &kube::Client,
    info: crate::cmd::apply::Info,
    plan: &Plan,
) -> Result<serde_json::Value, objects::Failure> {
    let mut object = info.object;
    send::annotate(&mut object, plan.save_config, false);
    if plan.dry_run == crate::cmd::objects::pairs::DryRun::Client {
        return Ok(object);
    }
    send::post(client, &info.resource, info.namespace.as_deref(), &object, plan)
        .await
        .map_err(|f| crate::cmd::apply::request::with_source("creating", &info.source, f))
}

//! `create -f`: every object of the files POSTed as kubectl's create sends it (the
//! last-applied annotation with `--save-config`), printed as it is created; failures are
//! reported after the others were tried, as kubectl's builder continues on error. With
//! `--edit` each object is edited first (`edit_first`); `--raw` POSTs the file as it is (`raw`).

use super::CreateArgs;
use super::send::{self, Plan};
use crate::cli::Context;
use crate::cmd::objects::{self, Spec};

/// Refuses what is not built and what kubectl's `Validate` refuses.
fn validate(args: &CreateArgs, ctx: &Context) -> anyhow::Result<()> {
    args.files.refuse_unbuilt(ctx.parent(), "create")?;
    if args.files.filenames.is_empty() {
        anyhow::bail!("must specify one of -f and -k");
    }
    if let Some(raw) = args.raw.as_deref().filter(|r| !r.is_empty()) {
        super::raw::validate(args, raw)?;
    }
    Ok(())
}

pub fn run(args: CreateArgs, ctx: &Context) -> anyhow::Result<()> {
    validate(&args, ctx)?;
    let mut plan = args.flags.resolve(ctx, "create")?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    if let Some(raw) = args.raw.as_deref().filter(|r| !r.is_empty()) {
        let answer = runtime.block_on(async {
            let (client, _, _) = args.connection.connect().await?;
            super::raw::post(&client, raw, &args.files.filenames[0]).await
        })?;
        return ctx.printer.data(&answer).map_err(Into::into);
    }
    if args.edit {
        return runtime.block_on(edit_all(&args, ctx, &mut plan));
    }
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

/// kubectl's `RunEditOnCreate`: each object of the files edited and created on its own; the
/// failures of all of them reported at the end.
async fn edit_all(args: &CreateArgs, ctx: &Context, plan: &mut Plan) -> anyhow::Result<()> {
    let (client, namespace, enforce) = args.connection.connect().await?;
    let spec = Spec {
        filenames: &args.files.filenames,
        recursive: args.files.recursive,
        selector: args.selector.as_deref(),
        namespace: namespace.clone(),
        enforce_namespace: enforce,
        ..Default::default()
    };
    let (infos, mut failures) = crate::cmd::apply::infos(&client, &spec).await?;
    let served = objects::discover(&client).await?;
    let session = super::edit_first::Session {
        ctx,
        client: &client,
        served: &served,
        namespace,
        json: args.flags.print.output.as_deref() == Some("json"),
        windows_line_endings: args.windows_line_endings,
    };
    let mut errors = Vec::new();
    for info in &infos {
        if let Err(e) = session.edit_and_create(info, plan).await {
            errors.push(e);
        }
    }
    if !failures.is_empty() {
        errors.insert(0, objects::failure::into_error(&std::mem::take(&mut failures)));
    }
    match errors.len() {
        0 => Ok(()),
        1 => Err(errors.remove(0)),
        _ => {
            let texts: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            anyhow::bail!("[{}]", texts.join(", "))
        }
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

//! Copies container logs to stdout as the server sends them: one after the other, or (when
//! following several) interleaved line by line, each line prefixed with its source on
//! `--prefix`, as kubectl's logs command does.

use futures::{AsyncBufReadExt, StreamExt, TryStreamExt};

use super::options::Request;
use super::pods::Source;
use crate::cmd::objects::Failure;
use crate::error::Verbatim;
use crate::printer::Printer;

/// How lines are written and failures handled.
pub struct Copy<'a> {
    pub namespace: &'a str,
    pub request: &'a Request,
    pub prefix: bool,
    pub follow: bool,
    pub ignore_errors: bool,
}

/// Reads every source; the first failure ends the command unless errors are ignored.
pub async fn copy_all(
    client: &kube::Client,
    sources: &[Source],
    how: &Copy<'_>,
    printer: &Printer,
) -> anyhow::Result<()> {
    let mut streams = Vec::new();
    for source in sources {
        let lines = match open(client, source, how).await {
            Ok(lines) => lines,
            Err(e) if how.ignore_errors => {
                printer.data(&format!("error: {}\n", plain(&e)))?;
                continue;
            }
            Err(e) => return Err(failure(e)),
        };
        if how.follow && sources.len() > 1 {
            streams.push(lines);
            continue;
        }
        let mut lines = lines;
        while let Some(line) = lines.next().await {
            printer.data(&line.map_err(|e| anyhow::anyhow!("error: {e}"))?)?;
        }
    }
    let mut merged = futures::stream::select_all(streams);
    while let Some(line) = merged.next().await {
        printer.data(&line.map_err(|e| anyhow::anyhow!("error: {e}"))?)?;
    }
    Ok(())
}

type Lines = futures::stream::BoxStream<'static, std::io::Result<String>>;

/// Opens one container's log as a stream of lines (the last may lack its newline).
async fn open(client: &kube::Client, source: &Source, how: &Copy<'_>) -> Result<Lines, kube::Error> {
    let path = format!(
        "/api/v1/namespaces/{}/pods/{}/log?{}",
        how.namespace,
        source.pod,
        how.request.query(&source.container)
    );
    let req = http::Request::get(&path).body(Vec::new()).map_err(kube::Error::HttpError)?;
    let body = client.request_stream(req).await?;
    let prefix = how.prefix.then(|| format!("[pod/{}/{}] ", source.pod, source.container));
    let lines = futures::stream::try_unfold(body, |mut body| async move {
        let mut buf = Vec::new();
        let n = body.read_until(b'\n', &mut buf).await?;
        Ok::<_, std::io::Error>((n > 0).then(|| (String::from_utf8_lossy(&buf).into_owned(), body)))
    })
    .map_ok(move |line| match &prefix {
        Some(p) => format!("{p}{line}"),
        None => line,
    });
    Ok(lines.boxed())
}

/// The text kubectl prints for a failed request.
fn failure(e: kube::Error) -> anyhow::Error {
    Verbatim(crate::cmd::objects::failure::render(&[Failure::from_kube(e)])).into()
}

/// An error's own message, as `--ignore-errors` prints it.
fn plain(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => s.message.clone(),
        other => crate::error::with_causes(other),
    }
}

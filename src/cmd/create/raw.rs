//! `create --raw URI -f FILE`: kubectl's raw POST. The file (or stdin with `-f -`) is sent
//! as it is to a path of the plane's own API server (an absolute URL keeps only its path and
//! query, as client-go's `RequestURI` does) with the kubeconfig's credentials, and the answer
//! is copied to stdout.

use std::io::Read;

use super::CreateArgs;
use crate::cmd::objects::{self, Failure};

/// The most bytes sent: as much as `-f` reads from any manifest.
const MAX_BODY_BYTES: u64 = 16 << 20;

/// kubectl's checks of `--raw` against the other flags, in its order.
pub fn validate(args: &CreateArgs, raw: &str) -> anyhow::Result<()> {
    if args.edit {
        anyhow::bail!("--raw and --edit are mutually exclusive");
    }
    let [file] = args.files.filenames.as_slice() else {
        anyhow::bail!("--raw can only use a single local file or stdin");
    };
    if file.starts_with("http://") || file.starts_with("https://") {
        anyhow::bail!("--raw cannot read from a url");
    }
    if args.files.recursive {
        anyhow::bail!("--raw and --recursive are mutually exclusive");
    }
    if args.selector.as_deref().is_some_and(|s| !s.is_empty()) {
        anyhow::bail!("--raw and --selector (-l) are mutually exclusive");
    }
    if args.flags.print.output.as_deref().is_some_and(|o| !o.is_empty()) {
        anyhow::bail!("--raw and --output are mutually exclusive");
    }
    request_path(raw).map(|_| ())
}

/// The path and query the request goes to, or Go's `url.ParseRequestURI` error.
fn request_path(raw: &str) -> anyhow::Result<String> {
    let invalid = || anyhow::anyhow!("--raw must be a valid URL path: parse {raw:?}: invalid URI for request");
    if raw.starts_with('/') {
        return Ok(raw.to_string());
    }
    let Some((scheme, rest)) = raw.split_once(':') else { return Err(invalid()) };
    let scheme_ok = scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(invalid());
    }
    // Only the server's own paths: whatever host the URL names, the path goes to the server.
    let after_authority = match rest.strip_prefix("//") {
        Some(r) => r.find(['/', '?']).map(|i| &r[i..]).unwrap_or(""),
        None => rest,
    };
    Ok(match after_authority {
        p if p.starts_with('/') => p.to_string(),
        p => format!("/{p}"),
    })
}

/// The body: the file, or stdin for `-`, at most [`MAX_BODY_BYTES`].
fn body(file: &str) -> anyhow::Result<Vec<u8>> {
    let mut data = Vec::new();
    let read = match file {
        "-" => std::io::stdin().take(MAX_BODY_BYTES + 1).read_to_end(&mut data),
        path => {
            let opened = std::fs::File::open(path).map_err(|e| {
                let why = match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                    _ => e.to_string(),
                };
                anyhow::anyhow!("open {path}: {why}")
            })?;
            opened.take(MAX_BODY_BYTES + 1).read_to_end(&mut data)
        }
    };
    read?;
    if data.len() as u64 > MAX_BODY_BYTES {
        anyhow::bail!("{file} is larger than {MAX_BODY_BYTES} bytes");
    }
    Ok(data)
}

/// POSTs the file and prints the server's answer as it is.
pub async fn post(client: &kube::Client, raw: &str, file: &str) -> anyhow::Result<String> {
    let path = request_path(raw)?;
    let req = http::Request::post(path).header(http::header::CONTENT_TYPE, "application/json").body(body(file)?)?;
    client.request_text(req).await.map_err(|e| objects::failure::into_error(&[Failure::from_kube(e)]))
}

#[cfg(test)]
mod tests {
    use super::request_path;

    #[test]
    fn only_the_servers_own_paths_are_reached() {
        assert_eq!(request_path("/api/v1/namespaces").unwrap(), "/api/v1/namespaces");
        assert_eq!(request_path("https://elsewhere.example/api/v1?x=1").unwrap(), "/api/v1?x=1");
        assert_eq!(request_path("https://elsewhere.example").unwrap(), "/");
        let err = request_path("api/v1").unwrap_err().to_string();
        assert_eq!(err, "--raw must be a valid URL path: parse \"api/v1\": invalid URI for request");
        assert!(request_path("1http://x/").is_err());
    }
}

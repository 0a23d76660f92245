//! `--wait`: after deleting, kubectl waits until each object is gone (or replaced by one with
//! another uid), one after the other, each within `--timeout` (zero: a week).

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cmd::objects::{Failure, Target};

/// How often an object is looked at while it is still there (finalizers at work).
const POLL: Duration = Duration::from_millis(250);
/// kubectl's wait for `--timeout=0`.
const FOREVER: Duration = Duration::from_secs(168 * 3600);

/// Waits for every deleted object; the first that outlives the timeout ends the wait.
/// Refusals to read (Forbidden, MethodNotAllowed) end it quietly, as in kubectl.
pub async fn until_gone(client: &kube::Client, deleted: &[(Target, String)], timeout: Duration) -> Result<(), Failure> {
    let timeout = if timeout.is_zero() { FOREVER } else { timeout };
    for (target, uid) in deleted {
        let deadline = Instant::now() + timeout;
        loop {
            match still_there(client, target, uid).await {
                Ok(false) => break,
                Ok(true) if Instant::now() >= deadline => {
                    let resource = &target.resource.plural;
                    return Err(Failure::Plain(format!(
                        "timed out waiting for the condition on {resource}/{}",
                        target.name
                    )));
                }
                Ok(true) => tokio::time::sleep(POLL.min(deadline.saturating_duration_since(Instant::now()))).await,
                Err(Failure::Api(s)) if s.code == 403 || s.code == 405 => return Ok(()),
                Err(f) => return Err(f),
            }
        }
    }
    Ok(())
}

/// Whether the object the delete was sent to still exists.
async fn still_there(client: &kube::Client, target: &Target, uid: &str) -> Result<bool, Failure> {
    let req = http::Request::get(target.path()).body(Vec::new()).map_err(|e| Failure::Plain(e.to_string()))?;
    match client.request::<Value>(req).await {
        Ok(object) => {
            let now = object.pointer("/metadata/uid").and_then(Value::as_str).unwrap_or_default();
            Ok(uid.is_empty() || now == uid)
        }
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(false),
        Err(e) => Err(Failure::from_kube(e)),
    }
}

//! `GET /api/v1/namespaces/<ns>/pods/<name>/log`: the pod log subresource. The request is
//! checked as kube-apiserver checks it (PodLogOptions validation, the container, the node);
//! the lines come from the [`Kubelet`](crate::kubelet::Kubelet) and are cut as the kubelet
//! cuts them (`sinceSeconds`/`sinceTime`, then `tailLines`, `timestamps`, `limitBytes`).
//! `follow=true` streams new lines until the container stops, the pod goes, the byte limit is
//! reached, or the request has lasted as long as a watch may.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jiff::{SignedDuration, Timestamp};
use karmadactl_apimachinery::{ApiError, Cause};
use serde_json::Value;

use crate::filters::dispatch::Call;
use crate::state::ApiState;
use crate::storage::store_access;

/// How often a follower looks for new lines.
const FOLLOW_POLL: Duration = Duration::from_secs(1);

/// Whether the request is for a pod's log.
pub fn is_pod_log(call: &Call) -> bool {
    let i = &call.info;
    i.is_resource_request && i.api_group.is_empty() && i.resource == "pods" && i.subresource == "log"
}

/// PodLogOptions as the query gives them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    container: String,
    follow: bool,
    previous: bool,
    timestamps: bool,
    tail_lines: Option<i64>,
    since_seconds: Option<i64>,
    since_time: Option<Timestamp>,
    limit_bytes: Option<i64>,
}

impl Options {
    fn parse(call: &Call) -> Result<Self, ApiError> {
        let int = |name: &str| -> Result<Option<i64>, ApiError> {
            call.param(name)
                .map(|v| {
                    v.parse::<i64>()
                        .map_err(|_| ApiError::bad_request(format!("strconv.ParseInt: parsing {v:?}: invalid syntax")))
                })
                .transpose()
        };
        let boolean = |name: &str| call.bool_param(name);
        let since_time = match call.param("sinceTime") {
            None | Some("") => None,
            Some(v) => Some(v.parse::<Timestamp>().map_err(|_| {
                ApiError::bad_request(format!("parsing time {v:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse"))
            })?),
        };
        Ok(Self {
            container: call.param("container").unwrap_or_default().to_string(),
            follow: boolean("follow")?,
            previous: boolean("previous")?,
            timestamps: boolean("timestamps")?,
            tail_lines: int("tailLines")?,
            since_seconds: int("sinceSeconds")?,
            since_time,
            limit_bytes: int("limitBytes")?,
        })
    }

    /// kube's ValidatePodLogOptions.
    fn validate(&self, name: &str) -> Result<(), ApiError> {
        let mut causes = Vec::new();
        if let Some(t) = self.tail_lines.filter(|t| *t < 0) {
            causes.push(Cause::invalid("tailLines", t, "must be greater than or equal to 0"));
        }
        if let Some(b) = self.limit_bytes.filter(|b| *b < 1) {
            causes.push(Cause::invalid("limitBytes", b, "must be greater than 0"));
        }
        match (self.since_seconds, self.since_time) {
            (Some(_), Some(_)) => {
                causes.push(Cause::forbidden("", "at most one of `sinceTime` or `sinceSeconds` may be specified"))
            }
            (Some(s), None) if s < 1 => causes.push(Cause::invalid("sinceSeconds", s, "must be greater than 0")),
            _ => {}
        }
        match causes.is_empty() {
            true => Ok(()),
            false => Err(ApiError::invalid("", "PodLogOptions", name, causes)),
        }
    }
}

/// Serves the log of one container of the pod.
pub async fn serve(state: Arc<ApiState>, call: &Call) -> Result<Response, ApiError> {
    if call.info.verb != "get" {
        return Err(ApiError::method_not_supported("pods/log", &call.info.verb));
    }
    let (ns, name) = (call.info.namespace.clone(), call.info.name.clone());
    let options = Options::parse(call)?;
    options.validate(&name)?;
    let pod = read_pod(&state, &ns, &name).await?.ok_or_else(|| ApiError::not_found("", "pods", &name))?;
    let container = pick_container(&pod, &options.container, &name)?;
    let node = pod.pointer("/spec/nodeName").and_then(Value::as_str).unwrap_or_default().to_string();
    if node.is_empty() {
        return Err(ApiError::bad_request(format!("pod {name} does not have a host assigned")));
    }
    let Some(kubelet) = state.config.kubelet.clone() else {
        return Err(ApiError::service_unavailable(format!(
            "the kubelet of node {node} cannot be reached: no kubelet serves this server's nodes"
        )));
    };
    let now = Timestamp::now();
    let log = kubelet.container_log(&pod, &container, options.previous, now).map_err(ApiError::bad_request)?;
    let since = match (options.since_seconds, options.since_time) {
        // However far back the client asks, the answer is "everything" rather than an overflow.
        (Some(s), _) => Some(now.checked_sub(SignedDuration::from_secs(s)).unwrap_or(Timestamp::MIN)),
        (None, t) => t,
    };
    let mut lines: Vec<&(Timestamp, String)> =
        log.lines.iter().filter(|(t, _)| since.is_none_or(|s| *t >= s)).collect();
    if let Some(tail) = options.tail_lines {
        let keep = usize::try_from(tail).unwrap_or(0);
        lines.drain(..lines.len().saturating_sub(keep));
    }
    let mut budget = Budget(options.limit_bytes.map(|b| usize::try_from(b).unwrap_or(usize::MAX)));
    let mut first = String::new();
    for (t, text) in &lines {
        first.push_str(&budget.take(render(*t, text, options.timestamps)));
    }
    let last_sent =
        lines.last().map(|(t, _)| *t).or(since.and_then(|s| s.checked_sub(SignedDuration::from_nanos(1)).ok()));
    if !options.follow || !log.running || budget.spent() {
        return Ok(text_response(Body::from(first)));
    }
    let uid = pod.pointer("/metadata/uid").cloned();
    let deadline = tokio::time::Instant::now() + state.config.min_request_timeout * 2;
    let stream = async_stream::stream! {
        if !first.is_empty() {
            yield Ok::<_, std::io::Error>(first);
        }
        let mut last_sent = last_sent;
        loop {
            if tokio::time::timeout_at(deadline, tokio::time::sleep(FOLLOW_POLL)).await.is_err() {
                break;
            }
            let Ok(Some(pod)) = read_pod(&state, &ns, &name).await else { break };
            if pod.pointer("/metadata/uid").cloned() != uid {
                break;
            }
            let Ok(log) = kubelet.container_log(&pod, &container, options.previous, Timestamp::now()) else { break };
            let mut chunk = String::new();
            let after = last_sent;
            for (t, text) in log.lines.iter().filter(|(t, _)| after.is_none_or(|l| *t > l)) {
                chunk.push_str(&budget.take(render(*t, text, options.timestamps)));
                last_sent = Some(*t);
            }
            if !chunk.is_empty() {
                yield Ok(chunk);
            }
            if !log.running || budget.spent() {
                break;
            }
        }
    };
    Ok(text_response(Body::from_stream(stream)))
}

async fn read_pod(state: &ApiState, ns: &str, name: &str) -> Result<Option<Value>, ApiError> {
    Ok(store_access::get(state, "", "pods", Some(ns), name).await?.map(|(pod, _)| pod))
}

/// kube's ValidateContainer: the named container must exist; with none named, the only one.
fn pick_container(pod: &Value, asked: &str, name: &str) -> Result<String, ApiError> {
    let names = |field: &str| container_names(pod, field);
    let regular = names("containers");
    let all: Vec<String> =
        [names("initContainers"), regular.clone(), names("ephemeralContainers")].into_iter().flatten().collect();
    if !asked.is_empty() {
        return match all.iter().any(|c| c == asked) {
            true => Ok(asked.to_string()),
            false => Err(ApiError::bad_request(format!("container {asked} is not valid for pod {name}"))),
        };
    }
    match regular.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(ApiError::bad_request(format!("a container name must be specified for pod {name}"))),
        _ => Err(ApiError::bad_request(format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            all.join(" ")
        ))),
    }
}

/// The names of the pod's containers of one kind (`containers`, `initContainers`, ...).
pub(crate) fn container_names(pod: &Value, field: &str) -> Vec<String> {
    pod.pointer(&format!("/spec/{field}"))
        .and_then(Value::as_array)
        .map(|cs| cs.iter().filter_map(|c| c.get("name").and_then(Value::as_str).map(str::to_string)).collect())
        .unwrap_or_default()
}

/// One line as the kubelet sends it, with its RFC3339 nanosecond timestamp when asked.
fn render(at: Timestamp, text: &str, timestamps: bool) -> String {
    if !timestamps {
        return format!("{text}\n");
    }
    format!("{}.{:09}Z {text}\n", at.strftime("%Y-%m-%dT%H:%M:%S"), at.subsec_nanosecond())
}

/// What is left of `limitBytes`; the line that crosses it is cut, as the kubelet's limited
/// writer cuts it.
struct Budget(Option<usize>);

impl Budget {
    fn take(&mut self, mut s: String) -> String {
        if let Some(left) = self.0.as_mut() {
            if s.len() > *left {
                let mut cut = *left;
                while !s.is_char_boundary(cut) {
                    cut -= 1;
                }
                s.truncate(cut);
            }
            *left -= s.len();
        }
        s
    }

    fn spent(&self) -> bool {
        self.0 == Some(0)
    }
}

fn text_response(body: Body) -> Response {
    let mut resp = (StatusCode::OK, body).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache, private"));
    resp
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_container_is_chosen_as_kube_apiserver_chooses_it() {
        let pod = json!({"spec": {"initContainers": [{"name": "init"}], "containers": [{"name": "a"}, {"name": "b"}]}});
        assert_eq!(pick_container(&pod, "init", "p").unwrap(), "init");
        assert_eq!(pick_container(&pod, "x", "p").unwrap_err().message, "container x is not valid for pod p");
        assert_eq!(
            pick_container(&pod, "", "p").unwrap_err().message,
            "a container name must be specified for pod p, choose one of: [init a b]"
        );
        assert_eq!(pick_container(&json!({"spec": {"containers": [{"name": "a"}]}}), "", "p").unwrap(), "a");
    }

    #[test]
    fn lines_carry_nanosecond_timestamps_and_the_byte_limit_cuts() {
        let at: Timestamp = "2026-01-01T00:00:01Z".parse().unwrap();
        assert_eq!(render(at, "x", true), "2026-01-01T00:00:01.000000000Z x\n");
        let mut budget = Budget(Some(5));
        assert_eq!(budget.take("abc\n".into()), "abc\n");
        assert_eq!(budget.take("def\n".into()), "d");
        assert!(budget.spent());
    }
}

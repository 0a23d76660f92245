//! kube-apiserver's max-in-flight filter: at most `--max-requests-inflight` reads (get, list)
//! and `--max-mutating-requests-inflight` other requests are served at once; beyond that the
//! answer is 429 with `Retry-After: 1`. Long-running requests (watches, proxy, exec, attach,
//! log, port-forward) are not counted, and `system:masters` is served even when full, as
//! in kube-apiserver. Health probes are not counted either, as kube-apiserver's default
//! priority and fairness configuration exempts them (a load balancer's probe under load must
//! not read as an outage). Admission costs one atomic increment and, when done, one decrement.

use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use karmadactl_apimachinery::RequestInfo;

use crate::auth::UserInfo;

/// kube-apiserver's answer text (written with Go's `http.Error`, so plain text, not a Status).
pub const TOO_MANY_REQUESTS: &str = "Too many requests, please try again later.";

/// Verbs that only read; every other verb counts as mutating (kube's nonMutatingRequestVerbs).
const READ_ONLY_VERBS: &[&str] = &["get", "list", "watch"];
/// kube-apiserver's BasicLongRunningRequestCheck: these verbs, and these subresources of
/// resource requests.
const LONG_RUNNING_VERBS: &[&str] = &["watch", "proxy"];
const LONG_RUNNING_SUBRESOURCES: &[&str] = &["attach", "exec", "proxy", "log", "portforward"];

/// The two limits; 0 means unlimited (as kube's flags).
#[derive(Debug, Clone, Copy)]
pub struct InflightLimits {
    pub max_requests: usize,
    pub max_mutating_requests: usize,
}

impl Default for InflightLimits {
    fn default() -> Self {
        Self { max_requests: 400, max_mutating_requests: 200 }
    }
}

/// Health endpoints, which kube-apiserver's `probes` FlowSchema puts in the exempt priority level.
const PROBES: &[&str] = &["/healthz", "/livez", "/readyz"];

/// Whether kube-apiserver would leave the request out of the in-flight count.
pub fn is_long_running(info: &RequestInfo) -> bool {
    LONG_RUNNING_VERBS.contains(&info.verb.as_str())
        || (info.is_resource_request && LONG_RUNNING_SUBRESOURCES.contains(&info.subresource.as_str()))
}

/// Whether the request is a health probe (`/readyz`, `/readyz/etcd`, ...).
fn is_probe(info: &RequestInfo) -> bool {
    !info.is_resource_request
        && info.verb == "get"
        && PROBES.iter().any(|p| info.path.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
}

pub fn is_mutating(info: &RequestInfo) -> bool {
    !READ_ONLY_VERBS.contains(&info.verb.as_str())
}

/// The in-flight counters of one server.
#[derive(Default)]
pub struct InflightLimiter {
    limits: InflightLimits,
    read_only: AtomicUsize,
    mutating: AtomicUsize,
}

/// Why a request was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejected {
    pub mutating: bool,
}

impl InflightLimiter {
    pub fn new(limits: InflightLimits) -> Self {
        Self { limits, ..Self::default() }
    }

    /// Admits the request: `Ok(Some(slot))` while it counts, `Ok(None)` when it is not counted
    /// (long-running, unlimited, or `system:masters` over a full limit).
    pub fn admit(&self, info: &RequestInfo, user: &UserInfo) -> Result<Option<InflightSlot<'_>>, Rejected> {
        if is_long_running(info) || is_probe(info) {
            return Ok(None);
        }
        let mutating = is_mutating(info);
        let (counter, limit) = if mutating {
            (&self.mutating, self.limits.max_mutating_requests)
        } else {
            (&self.read_only, self.limits.max_requests)
        };
        if limit == 0 {
            return Ok(None);
        }
        if counter.fetch_add(1, Ordering::AcqRel) < limit {
            return Ok(Some(InflightSlot(counter)));
        }
        counter.fetch_sub(1, Ordering::AcqRel);
        // A super-admin always gets an answer (kube: "It's a super-admin or a loopback connection").
        if user.in_group(crate::auth::authn::PRIVILEGED_GROUP) {
            return Ok(None);
        }
        Err(Rejected { mutating })
    }
}

/// A counted request; dropping it frees the slot.
pub struct InflightSlot<'a>(&'a AtomicUsize);

impl Drop for InflightSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// kube-apiserver's 429: `Retry-After: 1` and the text of Go's `http.Error`.
pub fn too_many_requests() -> Response {
    let mut resp = Response::new(Body::from(format!("{TOO_MANY_REQUESTS}\n")));
    *resp.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    let headers = resp.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(method: &str, path: &str, query: &str) -> RequestInfo {
        RequestInfo::parse(method, path, query)
    }

    fn user(groups: &[&str]) -> UserInfo {
        UserInfo { name: "u".into(), groups: groups.iter().map(|g| g.to_string()).collect(), ..Default::default() }
    }

    #[test]
    fn reads_and_mutations_have_separate_limits() {
        let l = InflightLimiter::new(InflightLimits { max_requests: 1, max_mutating_requests: 1 });
        let list = info("GET", "/api/v1/namespaces/default/configmaps", "");
        let create = info("POST", "/api/v1/namespaces/default/configmaps", "");
        let u = user(&["system:authenticated"]);
        let read = l.admit(&list, &u).unwrap().expect("counted");
        assert_eq!(l.admit(&list, &u).err(), Some(Rejected { mutating: false }));
        let write = l.admit(&create, &u).unwrap().expect("counted");
        assert_eq!(l.admit(&create, &u).err(), Some(Rejected { mutating: true }));
        drop(read);
        drop(write);
        assert!(l.admit(&list, &u).unwrap().is_some());
    }

    #[test]
    fn long_running_requests_and_masters_over_the_limit_are_not_counted() {
        let l = InflightLimiter::new(InflightLimits { max_requests: 1, max_mutating_requests: 1 });
        let u = user(&[]);
        let _held = l.admit(&info("GET", "/api/v1/namespaces", ""), &u).unwrap();
        for (method, path, query) in [
            ("GET", "/api/v1/namespaces/default/configmaps", "watch=true"),
            ("GET", "/api/v1/namespaces/default/pods/p/log", ""),
            ("POST", "/api/v1/namespaces/default/pods/p/exec", ""),
            ("GET", "/apis/cluster.karmada.io/v1alpha1/clusters/m1/proxy/api/v1/pods", ""),
            ("GET", "/readyz", ""),
            ("GET", "/livez/ping", ""),
            ("GET", "/healthz", "verbose"),
        ] {
            assert!(l.admit(&info(method, path, query), &u).unwrap().is_none(), "{path}?{query}");
        }
        assert!(l.admit(&info("GET", "/readyzzz", ""), &u).is_err(), "only the probe paths are exempt");
        let masters = user(&["system:masters", "system:authenticated"]);
        assert!(l.admit(&info("GET", "/api/v1/namespaces", ""), &masters).unwrap().is_none());
        assert!(l.admit(&info("GET", "/api/v1/namespaces", ""), &u).is_err());
    }

    #[test]
    fn zero_means_unlimited() {
        let l = InflightLimiter::new(InflightLimits { max_requests: 0, max_mutating_requests: 0 });
        assert!(l.admit(&info("GET", "/api/v1/namespaces", ""), &user(&[])).unwrap().is_none());
    }
}

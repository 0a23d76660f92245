//! Prometheus metrics in the text exposition format: request counts and latency by verb,
//! resource and code, open watches, store commit latency, and what the limits turned away.
//! Names follow kube-apiserver's (`apiserver_request_total`, `apiserver_dropped_requests_total`,
//! ...); connection counts, which kube-apiserver does not export, are `karmada_apiserver_*`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::transport::connection_limits::{ConnectionTracker, Refusal};

/// Bucket bounds in seconds, as kube-apiserver's request duration histogram (trimmed).
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0];

/// Series per metric at most. Resource and subresource labels come from the request's path, so
/// requests for made-up resources (answered 401 or 404) would otherwise add a series each and
/// grow the server's memory without end; beyond the bound they count under [`OTHER`].
const MAX_SERIES: usize = 2_000;
/// The resource and subresource label of requests counted past [`MAX_SERIES`].
const OTHER: &str = "(other)";

/// The value counted under `key`, or under `overflow()` when `key` is new and the map is full.
fn series<K: Ord, V: Default>(m: &mut BTreeMap<K, V>, key: K, overflow: impl FnOnce() -> K) -> &mut V {
    let key = if m.len() >= MAX_SERIES && !m.contains_key(&key) { overflow() } else { key };
    m.entry(key).or_default()
}

#[derive(Default)]
struct Histogram {
    counts: Vec<u64>,
    sum: f64,
    total: u64,
}

impl Histogram {
    fn observe(&mut self, secs: f64) {
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS.len()];
        }
        for (i, bound) in BUCKETS.iter().enumerate() {
            if secs <= *bound {
                self.counts[i] += 1;
            }
        }
        self.sum += secs;
        self.total += 1;
    }

    fn render(&self, out: &mut String, name: &str, labels: &str) {
        for (i, bound) in BUCKETS.iter().enumerate() {
            let c = self.counts.get(i).copied().unwrap_or(0);
            let _ = writeln!(out, "{name}_bucket{{{labels},le=\"{bound}\"}} {c}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels},le=\"+Inf\"}} {}", self.total);
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.total);
    }
}

/// All metrics of one server.
#[derive(Default)]
pub struct Metrics {
    /// By (verb, resource, subresource, code).
    requests: Mutex<BTreeMap<(String, String, String, u16), u64>>,
    latency: Mutex<BTreeMap<(String, String), Histogram>>,
    commit: Mutex<Histogram>,
    open_watches: AtomicI64,
    /// Requests the max-in-flight filter turned away: read-only, mutating.
    dropped: [AtomicU64; 2],
    /// Requests answered early by a limit, by (verb, resource, code).
    terminations: Mutex<BTreeMap<(String, String, u16), u64>>,
    /// Connections closed at accept (per source, total) or for sending no request in time.
    refused_per_source: AtomicU64,
    refused_total: AtomicU64,
    header_timeouts: AtomicU64,
    connections: OnceLock<Arc<ConnectionTracker>>,
}

impl Metrics {
    pub fn record_request(&self, verb: &str, resource: &str, subresource: &str, code: u16, elapsed: Duration) {
        if let Ok(mut m) = self.requests.lock() {
            let key = (verb.to_string(), resource.to_string(), subresource.to_string(), code);
            *series(&mut m, key, || (verb.to_string(), OTHER.to_string(), OTHER.to_string(), code)) += 1;
        }
        if let Ok(mut m) = self.latency.lock() {
            series(&mut m, (verb.to_string(), resource.to_string()), || (verb.to_string(), OTHER.to_string()))
                .observe(elapsed.as_secs_f64());
        }
    }

    pub fn record_commit(&self, elapsed: Duration) {
        if let Ok(mut h) = self.commit.lock() {
            h.observe(elapsed.as_secs_f64());
        }
    }

    /// Counts an open watch until the returned guard is dropped.
    pub fn watch_opened(self: &std::sync::Arc<Self>) -> WatchGuard {
        self.open_watches.fetch_add(1, Ordering::Relaxed);
        WatchGuard(self.clone())
    }

    pub fn open_watches(&self) -> i64 {
        self.open_watches.load(Ordering::Relaxed)
    }

    /// A request the max-in-flight filter answered with 429.
    pub fn request_dropped(&self, mutating: bool, verb: &str, resource: &str) {
        self.dropped[usize::from(mutating)].fetch_add(1, Ordering::Relaxed);
        self.request_terminated(verb, resource, 429);
    }

    /// A request a limit answered before serving it.
    pub fn request_terminated(&self, verb: &str, resource: &str, code: u16) {
        if let Ok(mut m) = self.terminations.lock() {
            *series(&mut m, (verb.to_string(), resource.to_string(), code), || {
                (verb.to_string(), OTHER.to_string(), code)
            }) += 1;
        }
    }

    pub fn connection_refused(&self, why: Refusal) {
        match why {
            Refusal::PerSource => &self.refused_per_source,
            Refusal::Total => &self.refused_total,
        }
        .fetch_add(1, Ordering::Relaxed);
    }

    pub fn connection_timed_out(&self) {
        self.header_timeouts.fetch_add(1, Ordering::Relaxed);
    }

    /// Where the open-connection gauge is read from.
    pub fn set_connection_tracker(&self, tracker: Arc<ConnectionTracker>) {
        let _ = self.connections.set(tracker);
    }

    fn render_limits(&self, out: &mut String) {
        family(
            out,
            "apiserver_dropped_requests_total",
            "counter",
            "Number of requests dropped with 'Try again later' response.",
        );
        for (kind, n) in ["readOnly", "mutating"].iter().zip(&self.dropped) {
            let n = n.load(Ordering::Relaxed);
            let _ = writeln!(out, "apiserver_dropped_requests_total{{request_kind=\"{kind}\"}} {n}");
        }
        family(
            out,
            "apiserver_request_terminations_total",
            "counter",
            "Number of requests which apiserver terminated in self-defense.",
        );
        render_by_code(out, "apiserver_request_terminations_total", "component=\"apiserver\",", &self.terminations);
        family(
            out,
            "karmada_apiserver_rejected_connections_total",
            "counter",
            "Connections closed at accept for being over a cap, or for sending no first request head in time.",
        );
        for (reason, n) in [
            ("per_source", &self.refused_per_source),
            ("total", &self.refused_total),
            ("header_timeout", &self.header_timeouts),
        ] {
            let n = n.load(Ordering::Relaxed);
            let _ = writeln!(out, "karmada_apiserver_rejected_connections_total{{reason=\"{reason}\"}} {n}");
        }
        family(out, "karmada_apiserver_open_connections", "gauge", "Client connections currently open.");
        let open = self.connections.get().map_or(0, |t| t.open());
        let _ = writeln!(out, "karmada_apiserver_open_connections {open}");
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        family(
            &mut out,
            "apiserver_request_total",
            "counter",
            "Counter of apiserver requests broken out by verb, resource, subresource and HTTP response code.",
        );
        if let Ok(m) = self.requests.lock() {
            for ((verb, resource, subresource, code), n) in m.iter() {
                let _ = writeln!(
                    out,
                    "apiserver_request_total{{code=\"{code}\",resource=\"{resource}\",subresource=\"{subresource}\",verb=\"{verb}\"}} {n}"
                );
            }
        }
        out.push_str("# HELP apiserver_request_duration_seconds Response latency distribution in seconds by verb and resource.\n");
        out.push_str("# TYPE apiserver_request_duration_seconds histogram\n");
        if let Ok(m) = self.latency.lock() {
            for ((verb, resource), h) in m.iter() {
                h.render(
                    &mut out,
                    "apiserver_request_duration_seconds",
                    &format!("resource=\"{resource}\",verb=\"{verb}\""),
                );
            }
        }
        out.push_str("# HELP apiserver_registered_watchers Number of currently open watches.\n");
        out.push_str("# TYPE apiserver_registered_watchers gauge\n");
        let _ = writeln!(out, "apiserver_registered_watchers {}", self.open_watches());
        out.push_str("# HELP karmada_store_commit_duration_seconds Latency of durable store writes, as seen by the API server.\n");
        out.push_str("# TYPE karmada_store_commit_duration_seconds histogram\n");
        if let Ok(h) = self.commit.lock() {
            h.render(&mut out, "karmada_store_commit_duration_seconds", "store=\"default\"");
        }
        self.render_limits(&mut out);
        out
    }
}

/// The HELP and TYPE lines of a metric family.
fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

/// A counter by (verb, resource, code), with `extra` labels (each followed by a comma).
fn render_by_code(out: &mut String, name: &str, extra: &str, counts: &Mutex<BTreeMap<(String, String, u16), u64>>) {
    if let Ok(m) = counts.lock() {
        for ((verb, resource, code), n) in m.iter() {
            let _ = writeln!(out, "{name}{{code=\"{code}\",{extra}resource=\"{resource}\",verb=\"{verb}\"}} {n}");
        }
    }
}

/// Decrements the open-watch gauge when the watch ends.
pub struct WatchGuard(std::sync::Arc<Metrics>);

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.0.open_watches.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests for made-up resources (a client looping over random paths) stop adding series
    /// at the bound and are counted together; every request is still counted.
    #[test]
    fn made_up_resources_cannot_grow_the_metrics_without_bound() {
        let m = Metrics::default();
        for i in 0..3 * MAX_SERIES {
            m.record_request("get", &format!("made-up-{i}"), &format!("sub-{i}"), 404, Duration::ZERO);
            m.request_terminated("get", &format!("made-up-{i}"), 429);
        }
        assert!(m.requests.lock().unwrap().len() <= MAX_SERIES + 1);
        assert!(m.latency.lock().unwrap().len() <= MAX_SERIES + 1);
        assert!(m.terminations.lock().unwrap().len() <= MAX_SERIES + 1);
        let text = m.render();
        let other = format!(
            "apiserver_request_total{{code=\"404\",resource=\"{OTHER}\",subresource=\"{OTHER}\",verb=\"get\"}} "
        );
        let overflow: u64 = text.lines().find_map(|l| l.strip_prefix(&other)).and_then(|n| n.parse().ok()).unwrap();
        assert_eq!(overflow as usize, 2 * MAX_SERIES, "the requests past the bound are all counted");
        // A series that exists keeps counting under its own labels.
        m.record_request("get", "made-up-0", "sub-0", 404, Duration::ZERO);
        assert!(m.render().contains(
            "apiserver_request_total{code=\"404\",resource=\"made-up-0\",subresource=\"sub-0\",verb=\"get\"} 2"
        ));
    }

    #[test]
    fn renders_counts_histograms_and_gauges() {
        let m = std::sync::Arc::new(Metrics::default());
        m.record_request("get", "configmaps", "", 200, Duration::from_millis(3));
        m.record_request("get", "configmaps", "", 404, Duration::from_millis(1));
        m.record_request("patch", "deployments", "status", 200, Duration::from_millis(1));
        let guard = m.watch_opened();
        let text = m.render();
        assert!(
            text.contains(
                "apiserver_request_total{code=\"200\",resource=\"configmaps\",subresource=\"\",verb=\"get\"} 1"
            )
        );
        assert!(
            text.contains(
                "apiserver_request_total{code=\"404\",resource=\"configmaps\",subresource=\"\",verb=\"get\"} 1"
            )
        );
        assert!(text.contains(
            "apiserver_request_total{code=\"200\",resource=\"deployments\",subresource=\"status\",verb=\"patch\"} 1"
        ));
        assert!(text.contains(
            "apiserver_request_duration_seconds_bucket{resource=\"configmaps\",verb=\"get\",le=\"0.005\"} 2"
        ));
        assert!(text.contains(
            "apiserver_request_duration_seconds_bucket{resource=\"configmaps\",verb=\"get\",le=\"0.0025\"} 1"
        ));
        assert!(text.contains("apiserver_registered_watchers 1"));
        drop(guard);
        assert!(m.render().contains("apiserver_registered_watchers 0"));
    }

    #[test]
    fn renders_what_the_limits_turned_away() {
        let m = Metrics::default();
        m.request_dropped(false, "list", "configmaps");
        m.request_dropped(true, "create", "configmaps");
        m.request_terminated("list", "secrets", 429);
        m.connection_refused(Refusal::PerSource);
        m.connection_timed_out();
        m.connection_timed_out();
        let tracker = ConnectionTracker::new(10, 10);
        let _slot = tracker.admit("127.0.0.1".parse().unwrap()).unwrap();
        m.set_connection_tracker(tracker);
        let text = m.render();
        for line in [
            "apiserver_dropped_requests_total{request_kind=\"readOnly\"} 1",
            "apiserver_dropped_requests_total{request_kind=\"mutating\"} 1",
            "apiserver_request_terminations_total{code=\"429\",component=\"apiserver\",resource=\"configmaps\",verb=\"list\"} 1",
            "apiserver_request_terminations_total{code=\"429\",component=\"apiserver\",resource=\"secrets\",verb=\"list\"} 1",
            "karmada_apiserver_rejected_connections_total{reason=\"per_source\"} 1",
            "karmada_apiserver_rejected_connections_total{reason=\"total\"} 0",
            "karmada_apiserver_rejected_connections_total{reason=\"header_timeout\"} 2",
            "karmada_apiserver_open_connections 1",
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
    }
}

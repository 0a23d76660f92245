//! Prometheus metrics in the text exposition format: request counts and latency by verb,
//! resource and code, open watches, and store commit latency. Names follow kube-apiserver's
//! (`apiserver_request_total`, `apiserver_request_duration_seconds`, ...).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Bucket bounds in seconds, as kube-apiserver's request duration histogram (trimmed).
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0];

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
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<(String, String), Histogram>>,
    commit: Mutex<Histogram>,
    open_watches: AtomicI64,
}

impl Metrics {
    pub fn record_request(&self, verb: &str, resource: &str, code: u16, elapsed: Duration) {
        if let Ok(mut m) = self.requests.lock() {
            *m.entry((verb.to_string(), resource.to_string(), code)).or_default() += 1;
        }
        if let Ok(mut m) = self.latency.lock() {
            m.entry((verb.to_string(), resource.to_string())).or_default().observe(elapsed.as_secs_f64());
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

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str("# HELP apiserver_request_total Counter of apiserver requests broken out by verb, resource and HTTP response code.\n");
        out.push_str("# TYPE apiserver_request_total counter\n");
        if let Ok(m) = self.requests.lock() {
            for ((verb, resource, code), n) in m.iter() {
                let _ = writeln!(
                    out,
                    "apiserver_request_total{{code=\"{code}\",resource=\"{resource}\",verb=\"{verb}\"}} {n}"
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
        out
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

    #[test]
    fn renders_counts_histograms_and_gauges() {
        let m = std::sync::Arc::new(Metrics::default());
        m.record_request("get", "configmaps", 200, Duration::from_millis(3));
        m.record_request("get", "configmaps", 404, Duration::from_millis(1));
        let guard = m.watch_opened();
        let text = m.render();
        assert!(text.contains("apiserver_request_total{code=\"200\",resource=\"configmaps\",verb=\"get\"} 1"));
        assert!(text.contains("apiserver_request_total{code=\"404\",resource=\"configmaps\",verb=\"get\"} 1"));
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
}

//! Bounds on connections: how long a client may take to send its first request head, how
//! many connections one source address and all sources together may hold, and the
//! open-file limit the total is derived from. A connection over a cap is closed at accept,
//! before it costs a TLS handshake, so file descriptors never run out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The connection limits of one server.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// A connection must deliver a complete request head within this long of its TLS
    /// handshake, and an HTTP/1.1 connection the next one within this long of the last answer
    /// (kube-apiserver's ReadHeaderTimeout is 32 s).
    pub header_read_timeout: Duration,
    /// Open connections from one source address.
    pub max_per_source: usize,
    /// Open connections in total; `None` derives it from the open-file limit.
    pub max_total: Option<usize>,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self { header_read_timeout: Duration::from_secs(32), max_per_source: 1000, max_total: None }
    }
}

/// File descriptors kept free for everything that is not a client connection: the store, etcd
/// and member clients, the log, CRD and PKI files.
fn fd_headroom(limit: usize) -> usize {
    (limit / 8).max(128)
}

/// Raises the soft RLIMIT_NOFILE to the hard limit and returns the soft limit now in force.
pub fn raise_open_file_limit() -> usize {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed to them.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 1024;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit { rlim_cur: lim.rlim_max, rlim_max: lim.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
    }
    usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX)
}

/// The total connection cap: the configured one, else what the open-file limit leaves after
/// the headroom (never below 16, so a tiny limit still serves its administrator).
pub fn total_cap(configured: Option<usize>, open_file_limit: usize) -> usize {
    configured.unwrap_or_else(|| open_file_limit.saturating_sub(fd_headroom(open_file_limit)).max(16))
}

/// Why a connection was refused at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    PerSource,
    Total,
}

impl Refusal {
    pub fn label(self) -> &'static str {
        match self {
            Refusal::PerSource => "per_source",
            Refusal::Total => "total",
        }
    }
}

/// Counts open connections, in total and per source address.
pub struct ConnectionTracker {
    max_per_source: usize,
    max_total: usize,
    total: AtomicUsize,
    per_source: Mutex<HashMap<IpAddr, usize>>,
}

impl ConnectionTracker {
    pub fn new(max_per_source: usize, max_total: usize) -> Arc<Self> {
        Arc::new(Self { max_per_source, max_total, total: AtomicUsize::new(0), per_source: Mutex::default() })
    }

    /// Admits a connection from `source`, or says which cap it is over. The slot is held until
    /// the returned guard is dropped.
    pub fn admit(self: &Arc<Self>, source: IpAddr) -> Result<ConnectionSlot, Refusal> {
        if self.total.fetch_add(1, Ordering::AcqRel) >= self.max_total {
            self.total.fetch_sub(1, Ordering::AcqRel);
            return Err(Refusal::Total);
        }
        let mut per_source = self.per_source.lock().unwrap_or_else(|p| p.into_inner());
        let count = per_source.entry(source).or_insert(0);
        if *count >= self.max_per_source {
            drop(per_source);
            self.total.fetch_sub(1, Ordering::AcqRel);
            return Err(Refusal::PerSource);
        }
        *count += 1;
        Ok(ConnectionSlot { tracker: self.clone(), source })
    }

    pub fn open(&self) -> usize {
        self.total.load(Ordering::Acquire)
    }
}

/// One admitted connection; dropping it frees its slot.
pub struct ConnectionSlot {
    tracker: Arc<ConnectionTracker>,
    source: IpAddr,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut per_source = self.tracker.per_source.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = per_source.get_mut(&self.source) {
            *count -= 1;
            if *count == 0 {
                per_source.remove(&self.source);
            }
        }
        drop(per_source);
        self.tracker.total.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_source_and_in_total_and_frees_on_drop() {
        let t = ConnectionTracker::new(2, 3);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let a1 = t.admit(a).unwrap();
        let _a2 = t.admit(a).unwrap();
        assert_eq!(t.admit(a).err(), Some(Refusal::PerSource));
        let _b1 = t.admit(b).unwrap();
        assert_eq!(t.admit(b).err(), Some(Refusal::Total));
        assert_eq!(t.open(), 3);
        drop(a1);
        assert_eq!(t.open(), 2);
        let _a3 = t.admit(a).unwrap();
        assert_eq!(t.open(), 3);
    }

    #[test]
    fn the_total_leaves_headroom_below_the_open_file_limit() {
        assert_eq!(total_cap(None, 20_000), 20_000 - 2_500);
        assert_eq!(total_cap(None, 1024), 1024 - 128);
        assert_eq!(total_cap(None, 100), 16);
        assert_eq!(total_cap(Some(50), 20_000), 50);
    }
}

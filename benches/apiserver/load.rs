//! Load generators: an open loop at a fixed rate (latency from the *scheduled* time, so a stall
//! shows up in every request scheduled during it instead of silently lowering the rate), and a
//! closed loop of N clients that each send their next request as soon as the last one ends.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Latencies of one run, sorted, and the requests that failed.
pub struct Latencies {
    pub sorted: Vec<Duration>,
    pub errors: usize,
    pub first_error: Option<String>,
    /// Successful requests per second over the run, from the first scheduled send to the last
    /// answer (below the target rate when the server fell behind).
    pub achieved_per_sec: f64,
}

impl Latencies {
    pub fn pct(&self, p: f64) -> Duration {
        pct(&self.sorted, p)
    }
}

/// Nearest-rank percentile of a sorted slice (zero when empty).
pub fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Fires `make(i)` at `start + i / rate` for `duration`, from the calling thread (which must
/// not be a runtime thread), and returns each request's latency from its scheduled time.
///
/// A plain OS thread paces the requests because tokio's timer has a 1 ms resolution: at
/// 5,000/s it would bunch five requests per tick and add up to 1 ms of pacing error to every
/// latency. `thread::sleep` is accurate to tens of microseconds here.
pub fn open_loop<F, Fut>(rt: &tokio::runtime::Runtime, rate: f64, duration: Duration, mut make: F) -> Latencies
where
    F: FnMut(u64) -> Fut,
    Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let n = (rate * duration.as_secs_f64()).round() as u64;
    let interval = 1.0 / rate;
    let start = Instant::now() + Duration::from_millis(5);
    let mut handles = Vec::with_capacity(n as usize);
    for i in 0..n {
        let at = start + Duration::from_secs_f64(interval * i as f64);
        let now = Instant::now();
        if at > now {
            std::thread::sleep(at - now);
        }
        let fut = make(i);
        handles.push(rt.spawn(async move {
            let result = fut.await;
            (at.elapsed(), result)
        }));
    }
    let mut sorted = Vec::with_capacity(handles.len());
    let mut errors = 0;
    let mut first_error = None;
    let end = rt.block_on(async {
        for h in handles {
            match h.await {
                Ok((took, Ok(()))) => sorted.push(took),
                Ok((_, Err(e))) => {
                    errors += 1;
                    first_error.get_or_insert_with(|| format!("{e:#}"));
                }
                Err(e) => {
                    errors += 1;
                    first_error.get_or_insert_with(|| format!("task failed: {e}"));
                }
            }
        }
        Instant::now()
    });
    sorted.sort();
    let span = (end - start).as_secs_f64().max(f64::EPSILON);
    Latencies { achieved_per_sec: sorted.len() as f64 / span, sorted, errors, first_error }
}

/// The outcome of a closed-loop run.
pub struct Throughput {
    pub ok: u64,
    pub errors: u64,
    pub first_error: Option<String>,
    pub elapsed: Duration,
}

impl Throughput {
    pub fn per_sec(&self) -> f64 {
        self.ok as f64 / self.elapsed.as_secs_f64().max(f64::EPSILON)
    }
}

/// `clients` tasks, each calling `make(i)` with the next sequence number until `total` calls
/// were made or `deadline` passed (whichever comes first; the deadline always bounds the run).
/// Stops early after 1,000 failures, which would mean the server is broken, not slow.
pub async fn closed_loop<F, Fut>(clients: usize, total: u64, deadline: Instant, make: F) -> Throughput
where
    F: Fn(u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let make = Arc::new(make);
    let next = Arc::new(AtomicU64::new(0));
    let ok = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let first_error = Arc::new(Mutex::new(None::<String>));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(clients);
    for _ in 0..clients {
        let (make, next, ok, errors, first_error) =
            (make.clone(), next.clone(), ok.clone(), errors.clone(), first_error.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline && errors.load(Ordering::Relaxed) < 1000 {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                match make(i).await {
                    Ok(()) => {
                        ok.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        errors.fetch_add(1, Ordering::Relaxed);
                        if let Ok(mut first) = first_error.lock() {
                            first.get_or_insert_with(|| format!("{e:#}"));
                        }
                    }
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = started.elapsed();
    let first_error = first_error.lock().ok().and_then(|f| f.clone());
    Throughput { ok: ok.load(Ordering::Relaxed), errors: errors.load(Ordering::Relaxed), first_error, elapsed }
}

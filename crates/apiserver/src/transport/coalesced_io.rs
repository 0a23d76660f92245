//! A connection's writes gathered into one TLS write per flush.
//!
//! h2 copies a DATA frame into its 16 KiB write buffer only when the payload is small (256
//! bytes when the transport says it writes vectored, as TLS streams do; 1,024 otherwise).
//! A larger frame is kept aside and the buffer is flushed before the next frame is taken, so
//! every watch event of a few hundred bytes became its own TLS record and `write` system call:
//! 100 watch streams on one connection meant 100 of each per store event. Saying "not
//! vectored" makes h2 copy frames up to 1,024 bytes, and buffering here turns the two writes h2
//! then makes for a larger frame (head, payload) into one, so the socket sees one write per
//! flush.
//!
//! h2 still flushes whenever its connection task runs, and tokio runs a task woken by the one
//! running right after it: each watch stream that queues an event wakes the connection, which
//! would flush that one event. So a flush first pauses: it yields to the runtime (behind the
//! tasks already queued, until the runtime next polls for I/O) and ends only when the runtime
//! resumes it, not when a stream wakes it. While the streams woken by one store event keep
//! adding frames, the pause is taken again (up to [`MAX_PAUSES`] times); the flush that follows
//! writes them all at once.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Writes up to this size are gathered; a larger one goes straight through (after what was
/// gathered). Two full TLS records.
const CAPACITY: usize = 32 * 1024;

/// How many pauses in a row one flush may take while frames keep arriving: bounds the delay
/// of a connection that gets a little more every round.
const MAX_PAUSES: u32 = 16;

pub struct CoalescedWrites<T> {
    inner: T,
    buf: Vec<u8>,
    /// How much of `buf` the inner stream has taken (a drain can stop half way).
    written: usize,
    /// Bytes ever gathered: tells whether more came during a pause.
    gathered: u64,
    /// The pause a flush is waiting for.
    pause: Option<Pause>,
    /// Pauses taken by the current flush.
    pauses: u32,
    /// The current flush is past its pauses and writing.
    draining: bool,
}

impl<T> CoalescedWrites<T> {
    pub fn new(inner: T) -> Self {
        CoalescedWrites { inner, buf: Vec::new(), written: 0, gathered: 0, pause: None, pauses: 0, draining: false }
    }
}

impl<T: AsyncWrite + Unpin> CoalescedWrites<T> {
    /// Hands everything gathered to the inner stream.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.buf.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.buf[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.buf.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for CoalescedWrites<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.buf.len() + data.len() > CAPACITY {
            ready!(this.poll_drain(cx))?;
        }
        if data.len() >= CAPACITY {
            return Pin::new(&mut this.inner).poll_write(cx, data);
        }
        if this.buf.capacity() == 0 {
            this.buf.reserve_exact(CAPACITY);
        }
        this.buf.extend_from_slice(data);
        this.gathered += data.len() as u64;
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        while this.written < this.buf.len() && !this.draining {
            match &this.pause {
                None => {
                    this.pause = Some(Pause::start(cx, this.gathered));
                    this.pauses += 1;
                }
                Some(pause) => {
                    ready!(pause.poll(cx));
                    let more = this.gathered > pause.gathered_before;
                    this.pause = None;
                    if !more || this.pauses >= MAX_PAUSES {
                        this.draining = true;
                    }
                }
            }
        }
        this.draining = true;
        ready!(this.poll_drain(cx))?;
        this.draining = false;
        this.pauses = 0;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }

    /// Not vectored, so that h2 copies mid-sized frames into its buffer (see the module doc).
    fn is_write_vectored(&self) -> bool {
        false
    }
}

/// One yield to the runtime that is over only when the runtime resumes the task: a wake from
/// elsewhere (a stream queueing a frame) re-polls the flush but does not end the pause.
struct Pause {
    signal: Arc<PauseSignal>,
    gathered_before: u64,
}

struct PauseSignal {
    over: AtomicBool,
    /// The task to wake when the pause is over (the latest that polled it).
    task: Mutex<Option<Waker>>,
}

impl Wake for PauseSignal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.over.store(true, Ordering::Release);
        if let Some(task) = self.task.lock().unwrap_or_else(PoisonError::into_inner).take() {
            task.wake();
        }
    }
}

impl Pause {
    fn start(cx: &Context<'_>, gathered_before: u64) -> Pause {
        let signal = Arc::new(PauseSignal { over: AtomicBool::new(false), task: Mutex::new(Some(cx.waker().clone())) });
        // tokio's yield defers the waker it is polled with until the runtime has run the tasks
        // already queued and polled for I/O; this one ends the pause. (Outside a runtime it
        // wakes at once, and the pause is simply over.)
        let waker = Waker::from(Arc::clone(&signal));
        let mut yielded = std::pin::pin!(tokio::task::yield_now());
        let _ = yielded.as_mut().poll(&mut Context::from_waker(&waker));
        Pause { signal, gathered_before }
    }

    fn poll(&self, cx: &Context<'_>) -> Poll<()> {
        if !self.signal.over.load(Ordering::Acquire) {
            *self.signal.task.lock().unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
            // Checked again: the pause may have ended while the waker was being replaced.
            if !self.signal.over.load(Ordering::Acquire) {
                return Poll::Pending;
            }
        }
        Poll::Ready(())
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for CoalescedWrites<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    /// Records every write it gets; takes at most `max` bytes per write.
    #[derive(Default)]
    struct Recorder {
        writes: Vec<Vec<u8>>,
        flushes: usize,
        max: Option<usize>,
    }

    impl AsyncWrite for Recorder {
        fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
            let n = self.max.map_or(data.len(), |m| m.min(data.len()));
            self.get_mut().writes.push(data[..n].to_vec());
            Poll::Ready(Ok(n))
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.get_mut().flushes += 1;
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn small_writes_reach_the_stream_as_one_write_per_flush() {
        let mut io = CoalescedWrites::new(Recorder::default());
        assert!(!io.is_write_vectored());
        for i in 0..100u8 {
            io.write_all(&[i; 400]).await.unwrap();
        }
        assert!(io.inner.writes.len() < 2, "nothing is written before the buffer fills");
        io.flush().await.unwrap();
        let all: Vec<u8> = io.inner.writes.concat();
        assert_eq!(all, (0..100u8).flat_map(|i| [i; 400]).collect::<Vec<u8>>());
        // 40,000 bytes: one write when the 32 KiB buffer filled, one at the flush.
        assert_eq!(io.inner.writes.len(), 2);
        assert_eq!(io.inner.flushes, 1);
    }

    #[tokio::test]
    async fn a_flush_lets_queued_tasks_run_before_it_writes() {
        let ran = Arc::new(AtomicBool::new(false));
        let mut io = CoalescedWrites::new(Recorder::default());
        io.write_all(b"event").await.unwrap();
        let flag = Arc::clone(&ran);
        tokio::spawn(async move { flag.store(true, Ordering::SeqCst) });
        {
            let mut flush = std::pin::pin!(io.flush());
            // The recorder never blocks, so only the yield can make the first poll pending.
            assert!(futures::poll!(flush.as_mut()).is_pending());
            flush.await.unwrap();
        }
        assert!(ran.load(Ordering::SeqCst));
        assert_eq!(io.inner.writes, vec![b"event".to_vec()]);
        // Nothing gathered: a flush goes straight through.
        let mut flush = std::pin::pin!(io.flush());
        assert!(futures::poll!(flush.as_mut()).is_ready());
    }

    #[tokio::test]
    async fn frames_gathered_during_a_pause_go_out_with_the_flush_after_it() {
        let mut io = CoalescedWrites::new(Recorder::default());
        io.write_all(b"first ").await.unwrap();
        {
            let mut flush = std::pin::pin!(io.flush());
            assert!(futures::poll!(flush.as_mut()).is_pending());
        }
        // Another stream queues its frame while the connection's flush is paused.
        io.write_all(b"second").await.unwrap();
        io.flush().await.unwrap();
        assert_eq!(io.inner.writes, vec![b"first second".to_vec()]);
        assert_eq!(io.inner.flushes, 1);
    }

    #[tokio::test]
    async fn a_wake_from_elsewhere_does_not_end_a_pause() {
        let mut io = CoalescedWrites::new(Recorder::default());
        io.write_all(b"x").await.unwrap();
        let waker = futures::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut io).poll_flush(&mut cx).is_pending());
        // Polled again before the runtime resumed the task, as a stream's wake would.
        assert!(Pin::new(&mut io).poll_flush(&mut cx).is_pending());
        assert!(io.inner.writes.is_empty());
        io.flush().await.unwrap();
        assert_eq!(io.inner.writes, vec![b"x".to_vec()]);
    }

    #[tokio::test]
    async fn large_writes_pass_through_in_order_and_partial_writes_resume() {
        let mut io = CoalescedWrites::new(Recorder { max: Some(1000), ..Recorder::default() });
        io.write_all(b"head").await.unwrap();
        io.write_all(&vec![7u8; CAPACITY + 5]).await.unwrap();
        io.write_all(b"tail").await.unwrap();
        io.shutdown().await.unwrap();
        let all = io.inner.writes.concat();
        assert_eq!(&all[..4], b"head");
        assert!(all[4..4 + CAPACITY + 5].iter().all(|b| *b == 7));
        assert_eq!(&all[4 + CAPACITY + 5..], b"tail");
        assert_eq!(all.len(), CAPACITY + 13);
    }
}

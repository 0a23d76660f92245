//! The memory all LIST responses being built or sent may hold together. A list reserves what
//! each page it reads will cost (the stored objects and the response written from them) before
//! reading the next; when the budget is spent by other lists it answers 429 with
//! `Retry-After: 1`, the answer kube-apiserver's priority and fairness gives a request it has no
//! seat for. The response body keeps the reservation until it has been sent.
//!
//! One list alone may exceed the budget: otherwise a collection larger than the budget could
//! never be listed without paging. So the peak is the budget plus one list.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};

use karmadactl_apimachinery::ApiError;

/// The Status message of a list refused for want of memory.
pub const LIST_BUDGET_SPENT: &str =
    "Too many requests, please try again later: lists in progress hold all the memory this server allows lists";

/// A quarter of physical memory: what lists may hold together unless configured otherwise.
pub fn default_budget() -> usize {
    // SAFETY: sysconf has no memory effects.
    let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    let total = usize::try_from(pages).unwrap_or(0).saturating_mul(usize::try_from(page_size).unwrap_or(0));
    if total == 0 { 1 << 30 } else { total / 4 }
}

/// Bytes held by lists, against a limit.
pub struct ListBudget {
    limit: usize,
    used: AtomicUsize,
}

impl ListBudget {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self { limit, used: AtomicUsize::new(0) })
    }

    /// An empty reservation for one list.
    pub fn reservation(self: &Arc<Self>) -> ListReservation {
        ListReservation { budget: self.clone(), held: 0 }
    }

    pub fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

/// What one list holds of the budget; released when dropped.
pub struct ListReservation {
    budget: Arc<ListBudget>,
    held: usize,
}

impl ListReservation {
    /// Holds `bytes` more, unless other lists already hold so much that the budget would be
    /// exceeded.
    pub fn take(&mut self, bytes: usize) -> Result<(), ApiError> {
        let (limit, held) = (self.budget.limit, self.held);
        let taken = self.budget.used.fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
            (used == held || used.saturating_add(bytes) <= limit).then(|| used.saturating_add(bytes))
        });
        match taken {
            Ok(_) => {
                self.held += bytes;
                Ok(())
            }
            Err(_) => Err(ApiError::too_many_requests(LIST_BUDGET_SPENT, 1)),
        }
    }

    /// Gives back `bytes` of what is held (objects a selector left out).
    pub fn release(&mut self, bytes: usize) {
        let bytes = bytes.min(self.held);
        self.budget.used.fetch_sub(bytes, Ordering::AcqRel);
        self.held -= bytes;
    }

    /// Holds at most `bytes` from now on (the response, once the objects it was written from
    /// are freed).
    pub fn hold_only(&mut self, bytes: usize) {
        self.release(self.held.saturating_sub(bytes));
    }

    /// A response body that keeps this reservation until it is sent or dropped.
    pub fn body(mut self, bytes: Vec<u8>) -> axum::body::Body {
        self.hold_only(bytes.len());
        axum::body::Body::new(HeldBody { data: Some(Bytes::from(bytes)), _held: self })
    }
}

impl Drop for ListReservation {
    fn drop(&mut self) {
        self.budget.used.fetch_sub(self.held, Ordering::AcqRel);
    }
}

/// One chunk of bytes, then the end; the reservation goes when the body does.
struct HeldBody {
    data: Option<Bytes>,
    _held: ListReservation,
}

impl hyper::body::Body for HeldBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.get_mut().data.take().map(|d| Ok(Frame::data(d))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.data.as_ref().map_or(0, |d| d.len() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_share_the_budget_and_one_alone_may_exceed_it() {
        let budget = ListBudget::new(100);
        let mut a = budget.reservation();
        a.take(60).unwrap();
        let mut b = budget.reservation();
        b.take(40).unwrap();
        let err = b.take(1).unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (429, LIST_BUDGET_SPENT));
        drop(a);
        // Alone now: b may go beyond the limit.
        b.take(500).unwrap();
        assert_eq!(budget.used(), 540);
        let mut c = budget.reservation();
        assert!(c.take(1).is_err());
        b.hold_only(10);
        assert_eq!(budget.used(), 10);
        c.take(90).unwrap();
        drop((b, c));
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn the_body_holds_its_bytes_until_dropped() {
        let budget = ListBudget::new(100);
        let mut r = budget.reservation();
        r.take(80).unwrap();
        let body = r.body(vec![b'x'; 30]);
        assert_eq!(budget.used(), 30);
        drop(body);
        assert_eq!(budget.used(), 0);
    }
}

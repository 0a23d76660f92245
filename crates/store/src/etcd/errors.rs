//! Recognising etcd's answers that the store reports as its own errors.

use etcd_client::Error;

use super::super::StoreError;

/// What an etcd error means to the store.
#[derive(Debug)]
pub(super) enum Refusal {
    /// The revision asked for is below etcd's compacted revision.
    Compacted,
    /// The revision asked for is above etcd's current revision.
    FutureRevision,
    /// Anything else: the backend failed.
    Other(Error),
}

/// Classifies an etcd error. etcd reports both revision refusals as gRPC `OutOfRange` with a
/// fixed message (`mvcc: required revision has been compacted`, `... is a future revision`);
/// the message is the only thing that tells them apart.
pub(super) fn classify(err: Error) -> Refusal {
    if let Error::GRpcStatus(status) = &err {
        let message = status.message();
        if message.contains("required revision has been compacted") {
            return Refusal::Compacted;
        }
        if message.contains("required revision is a future revision") {
            return Refusal::FutureRevision;
        }
    }
    Refusal::Other(err)
}

/// etcd's answer to a write once its database reached `--quota-backend-bytes` (the NOSPACE
/// alarm): gRPC `ResourceExhausted`. It refuses writes until space is reclaimed (compaction,
/// defragmentation) and the alarm is disarmed.
const SPACE_EXCEEDED: &str = "mvcc: database space exceeded";

/// The store error a failed write is reported as: etcd's quota gets the store's clear
/// out-of-space error.
pub(super) fn write_error(err: Error) -> StoreError {
    match &err {
        Error::GRpcStatus(status) if status.message().contains(SPACE_EXCEEDED) => {
            StoreError::NoSpace { detail: status.message().to_string() }
        }
        _ => StoreError::backend(err),
    }
}

/// Whether a failed request may be sent again (to another member). A read may, whenever etcd
/// was unavailable. A write may only when it never left this process (the connection to the
/// member could not be made): a write that reached etcd may have been applied, and repeating
/// a compare-and-swap that succeeded would report a conflict with itself.
pub(super) fn retryable(err: &Error, idempotent: bool) -> bool {
    match err {
        Error::GRpcStatus(status) if status.code() == tonic::Code::Unavailable => {
            idempotent || never_sent(status.message())
        }
        Error::TransportError(_) => idempotent,
        _ => false,
    }
}

/// tonic's messages for a connection that could not be opened.
fn never_sent(message: &str) -> bool {
    message.contains("tcp connect error") || message.contains("error trying to connect")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_undelivered_writes_are_retried() {
        let refused = Error::GRpcStatus(tonic::Status::unavailable("tcp connect error"));
        let dropped = Error::GRpcStatus(tonic::Status::unavailable("connection reset"));
        assert!(retryable(&refused, false) && retryable(&refused, true));
        assert!(!retryable(&dropped, false) && retryable(&dropped, true));
        let compacted =
            Error::GRpcStatus(tonic::Status::out_of_range("etcdserver: mvcc: required revision has been compacted"));
        assert!(!retryable(&compacted, true));
        assert!(matches!(classify(compacted), Refusal::Compacted));
        let future =
            Error::GRpcStatus(tonic::Status::out_of_range("etcdserver: mvcc: required revision is a future revision"));
        assert!(matches!(classify(future), Refusal::FutureRevision));
    }

    #[test]
    fn a_full_quota_is_the_out_of_space_error() {
        let full = Error::GRpcStatus(tonic::Status::resource_exhausted("etcdserver: mvcc: database space exceeded"));
        assert!(!retryable(&full, false));
        let err = write_error(full);
        assert!(matches!(err, StoreError::NoSpace { .. }), "{err:?}");
        assert_eq!(err.to_string(), "the datastore is out of disk space: etcdserver: mvcc: database space exceeded");
        let other = write_error(Error::GRpcStatus(tonic::Status::internal("boom")));
        assert!(matches!(other, StoreError::Backend(_)), "{other:?}");
    }
}

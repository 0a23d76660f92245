//! Recognising etcd's answers that the store reports as its own errors.

use etcd_client::Error;

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
}

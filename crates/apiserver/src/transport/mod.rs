//! Bytes on the wire: the accept loop, TLS, per-connection limits and the coalesced writes
//! of one connection; and the plane's own client, which reaches the router without them.

mod coalesced_io;
pub(crate) mod connection_limits;
pub(crate) mod in_process;
pub(crate) mod listener;
pub mod tls;

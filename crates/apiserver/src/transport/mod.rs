//! Bytes on the wire: the accept loop, TLS, per-connection limits and the coalesced writes
//! of one connection.

mod coalesced_io;
pub(crate) mod connection_limits;
pub(crate) mod listener;
pub mod tls;

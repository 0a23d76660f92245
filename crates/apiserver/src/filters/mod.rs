//! What every request passes before a handler, in kube-apiserver's filter order: `dispatch`
//! chains them (body limit, authentication with its token cache, impersonation, the in-flight
//! limits and the LIST memory budget, metrics) and hands the request to a handler.

pub mod authenticate;
pub mod dispatch;
pub mod impersonate;
pub mod inflight;
pub mod list_budget;
pub mod metrics;
pub mod token_cache;

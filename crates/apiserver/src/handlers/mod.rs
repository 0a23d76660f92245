//! What answers a request once it passed the filters: the resource verbs (`resource`), the
//! `/scale` subresource, computed resources (access reviews, who-am-i, a simulated member's metrics), the cluster proxy, the
//! non-resource endpoints, and how a stored object is served (JSON, tables, continue tokens).

pub(crate) mod cluster_proxy;
pub(crate) mod continue_token;
pub(crate) mod metrics_api;
pub(crate) mod nonresource;
pub(crate) mod pod_exec;
mod pod_exec_session;
mod pod_exec_spdy;
#[cfg(test)]
mod pod_exec_spdy_tests;
mod pod_exec_websocket;
mod pod_files;
pub(crate) mod pod_log;
pub(crate) mod resource;
pub(crate) mod scale;
pub mod served_json;
pub(crate) mod special;
pub(crate) mod table;
mod token_request;

//! What answers a request once it passed the filters: the resource verbs (`resource`), the
//! `/scale` subresource, computed resources (access reviews, who-am-i), the cluster proxy, the
//! non-resource endpoints, and how a stored object is served (JSON, tables, continue tokens).

pub mod cluster_proxy;
pub mod continue_token;
pub mod nonresource;
pub mod resource;
pub mod scale;
pub mod served_json;
pub mod special;
pub mod table;

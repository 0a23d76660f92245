//! karmadactl: the Karmada operator CLI and (in later modules) an embedded Karmada control plane.
//!
//! The binary in `main.rs` only calls [`run`]; everything else lives here so tests and
//! benchmarks can reach it.

pub mod build_info;
pub mod cli;
pub mod cmd;
pub mod download;
pub mod error;
pub mod hints;
pub mod local_plane;
pub mod manifest_files;
pub mod membership;
pub mod output;
pub mod printer;
pub mod pull;
pub mod validation;

pub use cli::run;

// Parts the commands share with the control plane live below it; these names keep the
// commands' paths short.
pub use karmadactl_apiserver::private_files;
pub use karmadactl_kubeconfig as kubeconfig;

//! Installing Karmada into a host Kubernetes cluster (`init` and `deinit` without
//! `--embedded`): the settings resolved from the flags, the PKI, the rendered objects for the
//! host and for the new Karmada API server, the CRD tarball, and applying and removing them.

pub mod apply;
pub mod commands;
pub mod config_file;
pub mod crds;
pub mod download;
pub mod extra_args;
pub mod host_objects;
pub mod karmada_objects;
pub mod pki;
pub mod plan;
pub mod remove;
pub mod settings;
pub mod template;

pub use crds::{CrdError, CrdSet};
pub use pki::HostPki;
pub use plan::Plan;
pub use settings::{CrdSource, Etcd, Part, PartSettings, Settings, StorageMode};

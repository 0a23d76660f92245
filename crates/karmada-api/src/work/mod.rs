//! `work.karmada.io`: bindings (v1alpha2, and v1alpha1 still served) and Works.

pub mod binding;
pub mod binding_status;
pub mod binding_v1alpha1;
pub mod eviction;
pub mod health;
pub mod replicas;
pub mod workload;

pub use binding::{ClusterResourceBinding, ClusterResourceBindingSpec, ResourceBinding, ResourceBindingSpec};
pub use binding_status::ResourceBindingStatus;
pub use workload::{Work, WorkSpec, WorkStatus};

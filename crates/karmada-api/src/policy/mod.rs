//! `policy.karmada.io/v1alpha1`: propagation and override policies, ClusterTaintPolicies and
//! FederatedResourceQuotas.

pub mod failover;
pub mod overrides;
pub mod placement;
pub mod propagation;
pub mod quota;
pub mod selector;
pub mod taint;

pub use overrides::{ClusterOverridePolicy, ClusterOverrideSpec, OverridePolicy, OverrideSpec};
pub use propagation::{ClusterPropagationPolicy, ClusterPropagationSpec, PropagationPolicy, PropagationSpec};

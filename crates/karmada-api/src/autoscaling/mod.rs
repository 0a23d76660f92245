//! `autoscaling.karmada.io/v1alpha1`: the fleet's autoscalers. The CRDs served are upstream's
//! own (see [`crate::upstream_crds`]); these types are how the engine reads and writes them.

pub mod federated_hpa;

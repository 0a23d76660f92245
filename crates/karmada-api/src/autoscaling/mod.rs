//! `autoscaling.karmada.io/v1alpha1`: the kinds that scale templates across the fleet. The
//! CRDs served are upstream's own (see [`crate::upstream_crds`]); these types are how the
//! engine reads and writes them.

pub mod cron_federated_hpa;
pub mod federated_hpa;

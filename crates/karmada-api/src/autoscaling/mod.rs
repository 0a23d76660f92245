//! `autoscaling.karmada.io/v1alpha1`: the kinds that scale templates across the fleet.

pub mod cron_federated_hpa;

//! Taints on member clusters: kubectl's taint grammar, the edits `cordon`, `uncordon` and
//! `taint` make to `spec.taints`, and the guarded JSON patch that writes an edit without losing
//! a concurrent change to another taint.

pub mod edit;
pub mod errors;
pub mod spec;
pub mod write;

pub use edit::{CORDON_EFFECT, CORDON_KEY, Operation, TaintEdit};
pub use errors::TaintError;
pub use spec::{Removal, TaintRequest, Targets};

use k8s_openapi::api::core::v1::Taint;

/// Go's `Taint.MatchTaint`: the same key and effect (the value does not count).
pub fn same_key_and_effect(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.effect == b.effect
}

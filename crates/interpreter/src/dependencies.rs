//! The merging of dependency answers: the set upstream's configurable interpreter builds from
//! several scripts (each checked first by [`crate::native::verify_dependencies`]).

use karmadactl_karmada_api::config::dependency::DependentObjectReference;

/// The references without repeats, sorted by apiVersion, kind, namespace and name so every
/// call answers in the same order.
pub(crate) fn united(mut refs: Vec<DependentObjectReference>) -> Vec<DependentObjectReference> {
    let mut out: Vec<DependentObjectReference> = Vec::with_capacity(refs.len());
    for r in refs.drain(..) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out.sort_by(|a, b| {
        (&a.api_version, &a.kind, &a.namespace, &a.name).cmp(&(&b.api_version, &b.kind, &b.namespace, &b.name))
    });
    out
}

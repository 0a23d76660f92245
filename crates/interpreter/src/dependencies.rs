//! The checks and merging of dependency answers (upstream's `VerifyDependencies` and the set
//! the configurable interpreter builds from several scripts).

use karmadactl_apimachinery::{BadValue, Cause, FieldPath, aggregate, validate_label_selector};
use karmadactl_karmada_api::config::dependency::DependentObjectReference;

/// Upstream's `VerifyDependencies`: each reference names its apiVersion and kind, a name or a
/// label selector, and a valid selector; the text is Kubernetes' aggregate of field errors.
pub(crate) fn verify(refs: &[DependentObjectReference]) -> Result<(), String> {
    let mut causes = Vec::new();
    let root = FieldPath::new("dependencies");
    for (i, r) in refs.iter().enumerate() {
        let path = root.index(i);
        if r.api_version.is_empty() {
            causes.push(Cause::invalid(path.child("apiVersion"), "", "missing required apiVersion"));
        }
        if r.kind.is_empty() {
            causes.push(Cause::invalid(path.child("kind"), "", "missing required kind"));
        }
        if r.name.is_empty() && r.label_selector.is_none() {
            // Go prints the whole reference as JSON where a value is not a scalar.
            let shown = BadValue::Json(serde_json::to_string(r).unwrap_or_default());
            causes.push(Cause::invalid(&path, shown, "dependency can not leave name and labelSelector all empty"));
        }
        if let Some(selector) = &r.label_selector {
            causes.extend(validate_label_selector(selector, &path.child("labelSelector")));
        }
    }
    if causes.is_empty() { Ok(()) } else { Err(aggregate(&causes)) }
}

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

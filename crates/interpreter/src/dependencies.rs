//! The checks and merging of dependency answers (upstream's `VerifyDependencies` and the set
//! the configurable interpreter builds from several scripts).

use karmadactl_karmada_api::config::dependency::DependentObjectReference;

/// Upstream's `VerifyDependencies`: each reference names its apiVersion and kind, and a name or
/// a label selector. The text is Kubernetes' aggregate of field errors.
pub(crate) fn verify(refs: &[DependentObjectReference]) -> Result<(), String> {
    let mut errors = Vec::new();
    for (i, r) in refs.iter().enumerate() {
        let path = format!("dependencies[{i}]");
        if r.api_version.is_empty() {
            errors.push(format!("{path}.apiVersion: Invalid value: \"\": missing required apiVersion"));
        }
        if r.kind.is_empty() {
            errors.push(format!("{path}.kind: Invalid value: \"\": missing required kind"));
        }
        if r.name.is_empty() && r.label_selector.is_none() {
            let shown = serde_json::to_string(r).unwrap_or_default();
            errors.push(format!(
                "{path}: Invalid value: {shown}: dependency can not leave name and labelSelector all empty"
            ));
        }
    }
    match errors.len() {
        0 => Ok(()),
        1 => Err(errors.remove(0)),
        _ => Err(format!("[{}]", errors.join(", "))),
    }
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

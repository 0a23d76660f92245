//! Patching without the server: `--dry-run=client` applies the patch to the object just read,
//! `--local` to the objects in the `-f` files, as kubectl's `getPatchedJSON` does. Strategic
//! merge needs the kind's patch metadata, so it works only for built-in kinds here, as in
//! kubectl.

use karmadactl_apimachinery::{apply_json_patch, apply_merge_patch, apply_strategic_merge_patch, strategic};
use serde_json::Value;

use super::source::PatchType;
use super::{PatchArgs, operation};
use crate::cli::Context;
use crate::cmd::objects::flags::ObjectPrinter;
use crate::cmd::objects::{self, Failure};

/// Go's `GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`.
pub fn gvk_string(api_version: &str, kind: &str) -> String {
    if api_version.contains('/') {
        format!("{api_version}, Kind={kind}")
    } else {
        format!("/{api_version}, Kind={kind}")
    }
}

/// Whether kubectl's own scheme has the group's kinds (the built-in API groups), which its
/// local strategic merge needs.
fn built_in_group(group: &str) -> bool {
    !group.contains('.') || (group.ends_with(".k8s.io") && group != "metrics.k8s.io")
}

/// `object` with the patch applied.
pub fn apply(object: &Value, patch_type: PatchType, body: &[u8]) -> Result<Value, String> {
    let text = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let result = match patch_type {
        PatchType::Json => apply_json_patch(object, body),
        PatchType::Merge => apply_merge_patch(object, body),
        PatchType::Strategic => {
            let (api_version, kind) = (text("/apiVersion"), text("/kind"));
            let group = crate::output::group_of(api_version);
            if !built_in_group(group) {
                return Err(format!(
                    "strategic merge patch is not supported for {} locally, try --type merge",
                    gvk_string(api_version, kind)
                ));
            }
            apply_strategic_merge_patch(object, body, strategic::schema_for(group, kind))
        }
    };
    result.map_err(|e| e.message)
}

/// `--local`: every object of the `-f` files, patched and printed; nothing is sent.
pub async fn patch_files(
    args: &PatchArgs,
    patch_type: PatchType,
    body: &[u8],
    printer: &mut ObjectPrinter,
    ctx: &Context,
) -> anyhow::Result<(usize, Vec<Failure>)> {
    if args.files.filenames.is_empty() {
        anyhow::bail!(objects::NOTHING_NAMED);
    }
    let docs = crate::manifest_files::read_all(&args.files.filenames, args.files.recursive).await?;
    let (mut count, mut failures) = (0, Vec::new());
    for doc in objects::flatten(docs) {
        count += 1;
        match apply(&doc.object, patch_type, body) {
            Ok(patched) => {
                let changed = patched != doc.object;
                ctx.printer.data(&printer.print(&patched, operation(changed))?)?;
            }
            Err(e) => failures.push(Failure::Plain(e)),
        }
    }
    Ok((count, failures))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn patches_apply_here_as_kubectl_applies_them() {
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "w"},
                       "spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}}});
        let smp = br#"{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"y"}]}}}}"#;
        let merged = apply(&d, PatchType::Strategic, smp).unwrap();
        assert_eq!(merged.pointer("/spec/template/spec/containers").unwrap().as_array().unwrap().len(), 2);
        let replaced = apply(&d, PatchType::Merge, smp).unwrap();
        assert_eq!(replaced.pointer("/spec/template/spec/containers/0/name"), Some(&json!("b")));
        let json = apply(&d, PatchType::Json, br#"[{"op":"add","path":"/spec/replicas","value":3}]"#).unwrap();
        assert_eq!(json.pointer("/spec/replicas"), Some(&json!(3)));
        let pp = json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy"});
        assert_eq!(
            apply(&pp, PatchType::Strategic, b"{}").unwrap_err(),
            "strategic merge patch is not supported for policy.karmada.io/v1alpha1, Kind=PropagationPolicy locally, try --type merge"
        );
    }

    #[test]
    fn kinds_are_named_as_go_names_them() {
        assert_eq!(gvk_string("v1", "ConfigMap"), "/v1, Kind=ConfigMap");
        assert_eq!(gvk_string("apps/v1", "Deployment"), "apps/v1, Kind=Deployment");
    }
}

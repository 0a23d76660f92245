//! CustomResourceDefinition checks done on create and update: names, versions, schemas.

use std::collections::HashSet;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion,
};
use serde_json::{Value, json};

use super::field::{FieldError, child, index, key};
use super::names;
use super::schema::CrdValidator;

const APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// Every problem with a CRD, as kube-apiserver reports them on create; empty when valid.
pub fn validate_crd(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    validate(crd, SchemaCheck::Compile)
}

/// [`validate_crd`] without compiling the schemas, for a caller that compiles them right after
/// and rejects the CRD if that fails: compiling a large schema is most of a CRD's cost when
/// the plane loads its CRDs at start.
pub fn validate_crd_before_compiling(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    validate(crd, SchemaCheck::LeaveToCaller)
}

/// Whether validation compiles each version's schema to prove it compiles.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SchemaCheck {
    Compile,
    LeaveToCaller,
}

fn validate(crd: &CustomResourceDefinition, check: SchemaCheck) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = &crd.spec;
    let group = spec.group.as_str();
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else {
        for msg in names::dns1123_subdomain(group) {
            errs.push(FieldError::invalid("spec.group", &json!(group), msg));
        }
        if !group.contains('.') {
            errs.push(FieldError::invalid("spec.group", &json!(group), "should be a domain with at least one dot"));
        }
        let protected = ["k8s.io", "kubernetes.io"].iter().any(|d| group == *d || group.ends_with(&format!(".{d}")));
        let approved = crd.metadata.annotations.as_ref().is_some_and(|a| a.contains_key(APPROVAL_ANNOTATION));
        if protected && !approved {
            errs.push(FieldError::required(
                key("metadata.annotations", APPROVAL_ANNOTATION),
                format!("protected groups must have approval annotation \"{APPROVAL_ANNOTATION}\", see https://github.com/kubernetes/enhancements/pull/1111"),
            ));
        }
    }
    let name = crd.metadata.name.as_deref().unwrap_or_default();
    if name != format!("{}.{}", spec.names.plural, group) {
        errs.push(FieldError::invalid("metadata.name", &json!(name), "must be spec.names.plural+\".\"+spec.group"));
    }
    if !["Cluster", "Namespaced"].contains(&spec.scope.as_str()) {
        errs.push(FieldError::not_supported("spec.scope", &json!(spec.scope), &["Cluster", "Namespaced"]));
    }
    validate_names(&spec.names, "spec.names", &mut errs);
    validate_versions(&spec.versions, check, &mut errs);
    if let Some(conv) = &spec.conversion {
        match conv.strategy.as_str() {
            "None" => {}
            "Webhook" if conv.webhook.is_none() => errs.push(FieldError::required("spec.conversion.webhook", "")),
            "Webhook" => {}
            other => {
                errs.push(FieldError::not_supported("spec.conversion.strategy", &json!(other), &["None", "Webhook"]))
            }
        }
    }
    errs
}

fn dns1035(value: &str, path: &str, prefix: &str, errs: &mut Vec<FieldError>) {
    let msgs = names::dns1035_label(value);
    if !value.is_empty() && !msgs.is_empty() {
        errs.push(FieldError::invalid(path, &json!(value), format!("{prefix}{}", msgs.join(","))));
    }
}

fn validate_names(n: &CustomResourceDefinitionNames, path: &str, errs: &mut Vec<FieldError>) {
    if n.plural.is_empty() {
        errs.push(FieldError::required(child(path, "plural"), ""));
    }
    dns1035(&n.plural, &child(path, "plural"), "", errs);
    dns1035(n.singular.as_deref().unwrap_or_default(), &child(path, "singular"), "", errs);
    const MIXED: &str = "may have mixed case, but should otherwise match: ";
    if n.kind.is_empty() {
        errs.push(FieldError::required(child(path, "kind"), ""));
    }
    dns1035(&n.kind.to_ascii_lowercase(), &child(path, "kind"), MIXED, errs);
    if let Some(list_kind) = n.list_kind.as_deref().filter(|l| !l.is_empty()) {
        dns1035(&list_kind.to_ascii_lowercase(), &child(path, "listKind"), MIXED, errs);
        if list_kind == n.kind {
            errs.push(FieldError::invalid(
                child(path, "listKind"),
                &json!(list_kind),
                "kind and listKind may not be the same",
            ));
        }
    }
    for (field, values) in [("shortNames", &n.short_names), ("categories", &n.categories)] {
        for v in values.iter().flatten() {
            dns1035(v, &child(path, field), "", errs);
        }
    }
}

fn validate_versions(versions: &[CustomResourceDefinitionVersion], check: SchemaCheck, errs: &mut Vec<FieldError>) {
    if versions.is_empty() {
        errs.push(FieldError::required("spec.versions", "must have exactly one version marked as storage version"));
        return;
    }
    let storage = versions.iter().filter(|v| v.storage).count();
    if storage != 1 {
        let listed: Vec<&str> = versions.iter().map(|v| v.name.as_str()).collect();
        errs.push(FieldError::invalid(
            "spec.versions",
            &json!(listed),
            "must have exactly one version marked as storage version",
        ));
    }
    let mut seen = HashSet::new();
    for (i, v) in versions.iter().enumerate() {
        let vpath = index("spec.versions", i);
        let npath = child(&vpath, "name");
        if v.name.is_empty() {
            errs.push(FieldError::required(&npath, ""));
        }
        dns1035(&v.name, &npath, "", errs);
        if !seen.insert(v.name.as_str()) {
            errs.push(FieldError::duplicate(&npath, &json!(v.name)));
        }
        let spath = child(&vpath, "schema.openAPIV3Schema");
        match v.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) {
            None => errs.push(FieldError::required(&spath, "schemas are required")),
            Some(props) => match serde_json::to_value(props) {
                Ok(schema) => validate_schema(&schema, &spath, check, errs),
                Err(e) => errs.push(FieldError::invalid_raw(&spath, "{...}", e.to_string())),
            },
        }
        if let Some(scale) = v.subresources.as_ref().and_then(|s| s.scale.as_ref()) {
            let p = child(&vpath, "subresources.scale");
            json_path_under(&scale.spec_replicas_path, &[".spec."], &child(&p, "specReplicasPath"), ".spec", errs);
            json_path_under(
                &scale.status_replicas_path,
                &[".status."],
                &child(&p, "statusReplicasPath"),
                ".status",
                errs,
            );
            if let Some(sel) = &scale.label_selector_path {
                json_path_under(
                    sel,
                    &[".spec.", ".status."],
                    &child(&p, "labelSelectorPath"),
                    "either .spec or .status",
                    errs,
                );
            }
        }
        for (c, col) in v.additional_printer_columns.iter().flatten().enumerate() {
            let cpath = index(&child(&vpath, "additionalPrinterColumns"), c);
            if col.name.is_empty() {
                errs.push(FieldError::required(child(&cpath, "name"), ""));
            }
            const TYPES: [&str; 5] = ["integer", "number", "string", "boolean", "date"];
            if !TYPES.contains(&col.type_.as_str()) {
                errs.push(FieldError::not_supported(child(&cpath, "type"), &json!(col.type_), &TYPES));
            }
            if col.json_path.is_empty() {
                errs.push(FieldError::required(child(&cpath, "JSONPath"), ""));
            }
        }
    }
}

fn json_path_under(value: &str, prefixes: &[&str], path: &str, what: &str, errs: &mut Vec<FieldError>) {
    if !prefixes.iter().any(|p| value.starts_with(p)) {
        errs.push(FieldError::invalid(path, &json!(value), format!("should be a json path under {what}")));
    }
}

fn validate_schema(schema: &Value, path: &str, check: SchemaCheck, errs: &mut Vec<FieldError>) {
    match schema.get("type").and_then(Value::as_str).unwrap_or_default() {
        "object" => {}
        "" => errs.push(FieldError::required(child(path, "type"), "must not be empty at the root")),
        other => errs.push(FieldError::invalid(child(path, "type"), &json!(other), "must be object at the root")),
    }
    if let Some(Value::Object(meta)) = schema.get("properties").and_then(|p| p.get("metadata"))
        && let Some(Value::Object(props)) = meta.get("properties")
        && props.keys().any(|k| k != "name" && k != "generateName")
    {
        errs.push(FieldError::forbidden(
            key(&child(path, "properties"), "metadata"),
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ));
    }
    let before = errs.len();
    structural(schema, path, errs);
    if errs.len() == before
        && check == SchemaCheck::Compile
        && let Err(e) = CrdValidator::new(schema)
    {
        errs.push(FieldError::invalid_raw(path, "{...}", e.to_string()));
    }
}

/// The structural-schema rules users most often break.
fn structural(s: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let Some(obj) = s.as_object() else { return };
    let flag = |k: &str| obj.get(k).and_then(Value::as_bool);
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or_default();
    let int_or_string = flag("x-kubernetes-int-or-string") == Some(true);
    let preserve = flag("x-kubernetes-preserve-unknown-fields");
    if preserve == Some(false) {
        errs.push(FieldError::invalid(
            child(path, "x-kubernetes-preserve-unknown-fields"),
            &json!(false),
            "must be true or undefined",
        ));
    }
    if ty.is_empty() && !int_or_string && preserve != Some(true) {
        if obj.contains_key("properties") || obj.contains_key("additionalProperties") {
            errs.push(FieldError::required(child(path, "type"), "must not be empty for specified object fields"));
        } else if obj.contains_key("items") {
            errs.push(FieldError::required(child(path, "type"), "must not be empty for specified array items"));
        }
    }
    if ty == "array" && !obj.contains_key("items") {
        errs.push(FieldError::required(child(path, "items"), "must be specified"));
    }
    if obj.contains_key("properties") && obj.contains_key("additionalProperties") {
        errs.push(FieldError::forbidden(
            child(path, "additionalProperties"),
            "additionalProperties and properties are mutual exclusive",
        ));
    }
    if let Some(Value::Object(props)) = obj.get("properties") {
        for (k, v) in props {
            structural(v, &key(&child(path, "properties"), k), errs);
        }
    }
    if let Some(a @ Value::Object(_)) = obj.get("additionalProperties") {
        structural(a, &child(path, "additionalProperties"), errs);
    }
    if let Some(i @ Value::Object(_)) = obj.get("items") {
        structural(i, &child(path, "items"), errs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(v: Value) -> CustomResourceDefinition {
        serde_json::from_value(v).unwrap()
    }

    fn good() -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"kind": "Widget", "plural": "widgets", "listKind": "WidgetList", "shortNames": ["wd"]},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                        "properties": {"n": {"type": "integer"}}}}}},
                    "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.n", "statusReplicasPath": ".status.n"}}}]}})
    }

    fn msgs(v: Value) -> Vec<String> {
        validate_crd(&crd(v)).iter().map(FieldError::message).collect()
    }

    #[test]
    fn valid_crd_passes() {
        assert_eq!(msgs(good()), Vec::<String>::new());
    }

    #[test]
    fn names_and_versions() {
        let mut v = good();
        v["metadata"]["name"] = json!("gadgets.example.com");
        v["spec"]["names"]["listKind"] = json!("Widget");
        v["spec"]["versions"][0]["storage"] = json!(false);
        let m = msgs(v);
        assert!(
            m.contains(
                &"metadata.name: Invalid value: \"gadgets.example.com\": must be spec.names.plural+\".\"+spec.group"
                    .to_string()
            ),
            "{m:?}"
        );
        assert!(m.contains(
            &"spec.names.listKind: Invalid value: \"Widget\": kind and listKind may not be the same".to_string()
        ));
        assert!(m.iter().any(|e| e.starts_with("spec.versions: Invalid value: ")
            && e.ends_with("must have exactly one version marked as storage version")));
    }

    #[test]
    fn schemas() {
        let mut v = good();
        v["spec"]["versions"][0]["schema"]["openAPIV3Schema"] =
            json!({"type": "object", "properties": {"spec": {"properties": {"a": {"type": "array"}}}}});
        assert_eq!(
            msgs(v),
            [
                "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
                "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].items: Required value: must be specified"
            ]
        );
        let mut v = good();
        v["spec"]["versions"][0]["schema"] = json!(null);
        assert_eq!(msgs(v), ["spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"]);
        let mut v = good();
        v["spec"]["group"] = json!("x.k8s.io");
        v["metadata"]["name"] = json!("widgets.x.k8s.io");
        assert!(
            msgs(v)[0]
                .starts_with("metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups")
        );
    }
}

//! Generates `crates/apiserver/src/protobuf/schema.json` from k8s-pb (field numbers) and k8s-openapi (JSON names).
//! Regenerate with `UPDATE_GENERATED=1 cargo test --test it protobuf_schema::`.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// The kinds the server accepts as protobuf bodies: (apiVersion, kind, k8s-pb type). `*` matches
/// any apiVersion because client-go registers DeleteOptions in every group version.
const ROOTS: &[(&str, &str, &str)] = &[
    ("v1", "Namespace", "api.core.v1.Namespace"),
    ("v1", "ConfigMap", "api.core.v1.ConfigMap"),
    ("v1", "Secret", "api.core.v1.Secret"),
    ("v1", "ServiceAccount", "api.core.v1.ServiceAccount"),
    ("v1", "Service", "api.core.v1.Service"),
    ("v1", "Endpoints", "api.core.v1.Endpoints"),
    ("v1", "Event", "api.core.v1.Event"),
    ("v1", "Pod", "api.core.v1.Pod"),
    ("v1", "Node", "api.core.v1.Node"),
    ("v1", "ResourceQuota", "api.core.v1.ResourceQuota"),
    ("apps/v1", "Deployment", "api.apps.v1.Deployment"),
    ("apps/v1", "ReplicaSet", "api.apps.v1.ReplicaSet"),
    ("apps/v1", "StatefulSet", "api.apps.v1.StatefulSet"),
    ("apps/v1", "DaemonSet", "api.apps.v1.DaemonSet"),
    ("batch/v1", "Job", "api.batch.v1.Job"),
    ("batch/v1", "CronJob", "api.batch.v1.CronJob"),
    ("rbac.authorization.k8s.io/v1", "Role", "api.rbac.v1.Role"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole", "api.rbac.v1.ClusterRole"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding", "api.rbac.v1.RoleBinding"),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "api.rbac.v1.ClusterRoleBinding"),
    ("certificates.k8s.io/v1", "CertificateSigningRequest", "api.certificates.v1.CertificateSigningRequest"),
    ("coordination.k8s.io/v1", "Lease", "api.coordination.v1.Lease"),
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview", "api.authorization.v1.SelfSubjectAccessReview"),
    ("authorization.k8s.io/v1", "SubjectAccessReview", "api.authorization.v1.SubjectAccessReview"),
    ("authorization.k8s.io/v1", "SelfSubjectRulesReview", "api.authorization.v1.SelfSubjectRulesReview"),
    ("authentication.k8s.io/v1", "TokenRequest", "api.authentication.v1.TokenRequest"),
    ("authentication.k8s.io/v1", "TokenReview", "api.authentication.v1.TokenReview"),
    ("authentication.k8s.io/v1", "SelfSubjectReview", "api.authentication.v1.SelfSubjectReview"),
    ("policy/v1", "Eviction", "api.policy.v1.Eviction"),
    ("*", "DeleteOptions", "apimachinery.pkg.apis.meta.v1.DeleteOptions"),
];

/// Messages included though no root kind reaches them: the envelope every protobuf body is
/// wrapped in, and special types the decoder converts, so their field numbers come from k8s-pb
/// like everything else.
const EXTRA: &[&str] = &[
    "apimachinery.pkg.runtime.Unknown",
    "apimachinery.pkg.runtime.RawExtension",
    "apimachinery.pkg.apis.meta.v1.Duration",
];

/// Types with a custom JSON form (k8s-openapi models them as newtypes or enums, so it has no field
/// names for them): their fields keep prost's names in lowerCamel and the runtime converts them.
const SPECIAL: &[&str] = &[
    "apimachinery.pkg.apis.meta.v1.Time",
    "apimachinery.pkg.apis.meta.v1.MicroTime",
    "apimachinery.pkg.apis.meta.v1.Duration",
    "apimachinery.pkg.apis.meta.v1.FieldsV1",
    "apimachinery.pkg.api.resource.Quantity",
    "apimachinery.pkg.util.intstr.IntOrString",
    "apimachinery.pkg.runtime.RawExtension",
    "apimachinery.pkg.runtime.Unknown",
    "apimachinery.pkg.runtime.TypeMeta",
    // `type ExtraValue []string` in Go: a message wrapping `items` in protobuf, a bare array in JSON.
    "api.authentication.v1.ExtraValue",
    "api.authorization.v1.ExtraValue",
    "api.certificates.v1.ExtraValue",
];

/// One prost field as declared in k8s-pb.
#[derive(Debug, Clone)]
struct PbField {
    name: String,
    tag: u32,
    kind: String,
    repeated: bool,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `src` directories of k8s-pb and k8s-openapi, from `cargo metadata`.
fn crate_sources() -> (PathBuf, PathBuf) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let src = |name: &str, version_prefix: &str| -> PathBuf {
        let pkg = meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name && p["version"].as_str().unwrap().starts_with(version_prefix))
            .unwrap_or_else(|| panic!("{name} {version_prefix} is not a dependency"));
        Path::new(pkg["manifest_path"].as_str().unwrap()).parent().unwrap().join("src")
    };
    (src("k8s-pb", "0.9."), src("k8s-openapi", "0.29."))
}

/// Strips prost's wrappers and returns the message type a field refers to, resolved against the
/// module it is declared in.
fn message_type(module: &[&str], ty: &str) -> String {
    // rustfmt leaves a trailing comma inside wrapped generics (`Vec<\n    T,\n>`).
    let mut t: String = ty.chars().filter(|c| !c.is_whitespace()).collect::<String>().replace(",>", ">");
    if let Some(rest) = t.strip_prefix("::prost::alloc::collections::BTreeMap<") {
        let (_, value) = rest.split_once(',').expect("map has a value type");
        t = value.strip_suffix('>').unwrap().to_string();
    }
    for wrapper in ["::core::option::Option<", "::prost::alloc::vec::Vec<", "::prost::alloc::boxed::Box<"] {
        while let Some(inner) = t.strip_prefix(wrapper) {
            t = inner.strip_suffix('>').unwrap().to_string();
        }
    }
    let mut path: Vec<&str> = module.to_vec();
    let mut parts: Vec<&str> = t.split("::").collect();
    if parts[0] == "crate" {
        path.clear();
        parts.remove(0);
    }
    while parts.first() == Some(&"super") {
        path.pop();
        parts.remove(0);
    }
    path.extend(parts);
    path.join(".")
}

fn scalar(kind: &str) -> String {
    match kind {
        "string" | "bool" | "int32" | "int64" | "uint32" | "double" | "bytes" => kind.to_string(),
        other => panic!("unexpected prost scalar type {other}"),
    }
}

/// Parses one `#[prost(...)]` attribute and the declaration after it.
fn parse_field(module: &[&str], attr: &str, decl: &str) -> PbField {
    let attr = attr.trim().strip_prefix("#[prost(").unwrap().strip_suffix(")]").unwrap();
    let tag: u32 = attr.split("tag = \"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
    let decl = decl.trim().strip_prefix("pub ").unwrap();
    let (name, ty) = decl.split_once(':').unwrap();
    let name = name.trim().trim_start_matches("r#").to_string();
    let ty = ty.trim().trim_end_matches(',');
    let first = attr.split(',').next().unwrap().trim();
    let kind = if let Some(map) = attr.strip_prefix("btree_map = \"") {
        let (k, v) = map.split('"').next().unwrap().split_once(", ").unwrap();
        let v = if v == "message" { format!("message:{}", message_type(module, ty)) } else { scalar(v) };
        format!("map<{},{v}>", scalar(k))
    } else if first == "message" {
        format!("message:{}", message_type(module, ty))
    } else {
        scalar(first.split(" = ").next().unwrap())
    };
    let repeated = attr.split(',').any(|p| p.trim() == "repeated");
    PbField { name, tag, kind, repeated }
}

/// Every message of one k8s-pb module file, by struct name.
fn parse_pb_module(src: &Path, module: &[&str]) -> BTreeMap<String, Vec<PbField>> {
    let file = src.join(module.join("/")).join("mod.rs");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    let mut current: Option<(String, Vec<PbField>)> = None;
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("pub struct ") {
            if let Some(name) = rest.strip_suffix(" {") {
                current = Some((name.to_string(), Vec::new()));
            }
        } else if line == "}" {
            if let Some((name, fields)) = current.take() {
                out.insert(name, fields);
            }
        } else if let (Some((_, fields)), true) = (current.as_mut(), line.trim_start().starts_with("#[prost(")) {
            // The declaration may be wrapped over several lines by rustfmt; it ends with a `,` outside
            // the type's angle brackets.
            let mut decl = String::new();
            for next in lines.by_ref() {
                let t = next.trim();
                if decl.is_empty() && !t.starts_with("pub ") {
                    continue;
                }
                decl.push_str(t);
                let depth = decl.matches('<').count() as i64 - decl.matches('>').count() as i64;
                if t.ends_with(',') && depth == 0 {
                    break;
                }
            }
            fields.push(parse_field(module, line, &decl));
        }
    }
    out
}

/// JSON keys of every k8s-openapi struct in one module directory, by lowercased struct name.
fn openapi_keys(src: &Path, module: &[&str]) -> BTreeMap<String, Vec<String>> {
    let dir = src.join("v1_33").join(module.join("/"));
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(&dir) else { return out };
    for entry in entries {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let Some(name) = text.lines().find_map(|l| l.strip_prefix("pub struct ")) else { continue };
        let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let keys = text
            .lines()
            .filter(|l| l.contains("=> Field::Key_"))
            .map(|l| l.trim().split('"').nth(1).unwrap().to_string())
            .collect();
        out.insert(name.to_ascii_lowercase(), keys);
    }
    out
}

fn normalise(s: &str) -> String {
    s.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect()
}

fn lower_camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Renders the schema: the kind table and every reachable message, one field per line.
fn render() -> String {
    let (pb_src, openapi_src) = crate_sources();
    let mut pb_modules: BTreeMap<String, BTreeMap<String, Vec<PbField>>> = BTreeMap::new();
    let mut pb_fields = |full: &str| -> Vec<PbField> {
        let (module, name) = full.rsplit_once('.').unwrap();
        let segments: Vec<&str> = module.split('.').collect();
        let pb = pb_modules.entry(module.to_string()).or_insert_with(|| parse_pb_module(&pb_src, &segments));
        pb.get(name).unwrap_or_else(|| panic!("k8s-pb has no message {full}")).clone()
    };
    let mut openapi_modules: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut messages: BTreeMap<String, Vec<(u32, String, String, bool)>> = BTreeMap::new();
    // Each queued message carries the JSON keys of the struct it is inlined into, for embedded Go
    // structs that k8s-openapi has no type of its own for (VolumeSource, ProbeHandler).
    let mut queue: VecDeque<(String, Vec<String>)> = ROOTS.iter().map(|r| (r.2.to_string(), Vec::new())).collect();
    queue.extend(EXTRA.iter().map(|e| (e.to_string(), Vec::new())));
    let mut seen: BTreeSet<String> = queue.iter().map(|q| q.0.clone()).collect();
    let mut omitted = Vec::new();
    while let Some((full, inlined_into)) = queue.pop_front() {
        let (module, name) = full.rsplit_once('.').unwrap();
        let segments: Vec<&str> = module.split('.').collect();
        let fields = pb_fields(&full);
        let special = SPECIAL.contains(&full.as_str());
        let keys = if special {
            Vec::new()
        } else {
            let oa = openapi_modules.entry(module.to_string()).or_insert_with(|| openapi_keys(&openapi_src, &segments));
            match oa.get(&name.to_ascii_lowercase()) {
                Some(keys) => keys.clone(),
                None if !inlined_into.is_empty() => inlined_into,
                None => panic!("k8s-openapi has no type for {full}"),
            }
        };
        let mut entry = Vec::new();
        for f in fields {
            let target = f.kind.split("message:").nth(1).map(|t| t.trim_end_matches('>').to_string());
            let mut inline_keys = Vec::new();
            let json = if special {
                lower_camel(&f.name)
            } else {
                let want = normalise(&f.name);
                match keys.iter().find(|k| normalise(k) == want) {
                    Some(k) => k.clone(),
                    // A Go embedded struct: a nested message in protobuf whose fields sit in the
                    // parent in JSON. An empty JSON name tells the decoder to merge it.
                    None if f.kind.starts_with("message:")
                        && !f.repeated
                        && pb_fields(target.as_deref().unwrap())
                            .iter()
                            .any(|inner| keys.iter().any(|k| normalise(k) == normalise(&inner.name))) =>
                    {
                        inline_keys = keys.clone();
                        String::new()
                    }
                    None => {
                        // Newer than the Kubernetes version the server implements (k8s-pb may track a
                        // later release): left out, so the decoder skips it as kube skips unknown
                        // protobuf fields.
                        omitted.push(format!("{full}.{}", f.name));
                        continue;
                    }
                }
            };
            if let Some(target) = target
                && seen.insert(target.clone())
            {
                queue.push_back((target, inline_keys));
            }
            entry.push((f.tag, json, f.kind, f.repeated));
        }
        entry.sort();
        messages.insert(full, entry);
    }

    let q = |s: &str| serde_json::to_string(s).unwrap();
    let mut out = String::from("{\n  \"kinds\": {\n");
    let kinds: BTreeMap<String, &str> = ROOTS.iter().map(|(v, k, t)| (format!("{v}/{k}"), *t)).collect();
    let kinds: Vec<String> = kinds.iter().map(|(k, t)| format!("    {}: {}", q(k), q(t))).collect();
    out.push_str(&kinds.join(",\n"));
    out.push_str("\n  },\n  \"omitted\": [\n");
    omitted.sort();
    let omitted: Vec<String> = omitted.iter().map(|o| format!("    {}", q(o))).collect();
    out.push_str(&omitted.join(",\n"));
    out.push_str("\n  ],\n  \"messages\": {\n");
    let rendered: Vec<String> = messages
        .iter()
        .map(|(name, fields)| {
            let fields: Vec<String> = fields
                .iter()
                .map(|(tag, json, kind, repeated)| {
                    format!(
                        "      {{\"tag\": {tag}, \"json\": {}, \"kind\": {}, \"repeated\": {repeated}}}",
                        q(json),
                        q(kind)
                    )
                })
                .collect();
            format!("    {}: [\n{}\n    ]", q(name), fields.join(",\n"))
        })
        .collect();
    out.push_str(&rendered.join(",\n"));
    out.push_str("\n  }\n}\n");
    out
}

#[test]
fn protobuf_schema_is_current() {
    let path = root().join("crates/apiserver/src/protobuf/schema.json");
    let fresh = render();
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale (run UPDATE_GENERATED=1 cargo test --test it protobuf_schema::)",
        path.display()
    );
}

#[test]
fn schema_maps_known_fields() {
    let schema: serde_json::Value = serde_json::from_str(&render()).unwrap();
    let cm = &schema["messages"]["api.core.v1.ConfigMap"];
    let field = |tag: u64| cm.as_array().unwrap().iter().find(|f| f["tag"] == tag).unwrap().clone();
    assert_eq!(field(3)["json"], "binaryData");
    assert_eq!(field(3)["kind"], "map<string,bytes>");
    assert_eq!(field(1)["kind"], "message:apimachinery.pkg.apis.meta.v1.ObjectMeta");
    let spec = schema["messages"]["api.core.v1.ServiceSpec"].as_array().unwrap();
    assert!(spec.iter().any(|f| f["json"] == "externalIPs" && f["repeated"] == true));
    assert_eq!(schema["kinds"]["apps/v1/Deployment"], "api.apps.v1.Deployment");
}

//! OpenAPI path items for one resource: collection, object, all-namespaces list, subresources.

use serde_json::{Map, Value, json};

use super::params;
use super::schemas::{self, DELETE_OPTIONS, PATCH, STATUS, reference, schema_name};
use crate::registry::resources::{ResourceDef, Subresource};

/// The body kind of an operation: its schema name and (group, version, kind).
struct Body {
    schema: String,
    group: String,
    version: String,
    kind: String,
}

impl Body {
    fn of(def: &ResourceDef) -> Self {
        Self {
            schema: schema_name(def, &def.kind),
            group: def.group.clone(),
            version: def.version.clone(),
            kind: def.kind.clone(),
        }
    }

    fn list_of(def: &ResourceDef) -> Self {
        Self { schema: schema_name(def, &def.list_kind), kind: def.list_kind.clone(), ..Self::of(def) }
    }

    fn for_sub(def: &ResourceDef, sub: &Subresource) -> Self {
        match sub.foreign_kind() {
            Some((g, v, k)) => {
                Self { schema: schemas::foreign_schema(g, v, k).0, group: g.into(), version: v.into(), kind: k.into() }
            }
            None => Self::of(def),
        }
    }
}

/// `apps` → `Apps`, `rbac.authorization.k8s.io` → `RbacAuthorization`, core → `Core`.
fn group_camel(group: &str) -> String {
    if group.is_empty() {
        return "Core".into();
    }
    let trimmed = group.strip_suffix(".k8s.io").unwrap_or(group);
    trimmed.split(['.', '-']).map(capitalize).collect()
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

fn tag(def: &ResourceDef) -> String {
    let camel = group_camel(&def.group);
    let mut c = camel.chars();
    let lower = c.next().map(|f| f.to_ascii_lowercase().to_string() + c.as_str()).unwrap_or_default();
    format!("{lower}_{}", def.version)
}

fn responses(codes: &[(&str, &str)], schema: &str) -> Value {
    let mut m = Map::new();
    for (code, description) in codes {
        let content = json!({"application/json": {"schema": reference(schema)}, "application/yaml": {"schema": reference(schema)}});
        m.insert((*code).into(), json!({"description": description, "content": content}));
    }
    m.insert("401".into(), json!({"description": "Unauthorized"}));
    Value::Object(m)
}

/// One operation under construction. `action` is kube's `x-kubernetes-action`; `id_verb` starts
/// the operationId (`listAppsV1NamespacedDeployment`).
struct Op<'a> {
    def: &'a ResourceDef,
    action: &'static str,
    id_verb: &'static str,
    id_suffix: &'static str,
    description: String,
    params: Vec<Value>,
    request: Option<Value>,
    responses: Value,
    body: Body,
}

impl<'a> Op<'a> {
    fn new(def: &'a ResourceDef, action: &'static str, id_verb: &'static str, body: Body) -> Self {
        Self {
            def,
            action,
            id_verb,
            id_suffix: "",
            description: String::new(),
            params: Vec::new(),
            request: None,
            responses: Value::Null,
            body,
        }
    }

    fn suffix(mut self, s: &'static str) -> Self {
        self.id_suffix = s;
        self
    }

    fn describe(mut self, d: String) -> Self {
        self.description = d;
        self
    }

    fn params(mut self, p: Vec<Value>) -> Self {
        self.params = p;
        self
    }

    fn request(mut self, r: Value) -> Self {
        self.request = Some(r);
        self
    }

    fn responds(mut self, codes: &[(&str, &str)], schema: &str) -> Self {
        self.responses = responses(codes, schema);
        self
    }

    fn build(self) -> Value {
        // kube writes `deleteAppsV1CollectionNamespacedDeployment` and
        // `listAppsV1DeploymentForAllNamespaces`.
        let (pre, post) = match self.id_suffix {
            "Collection" => ("Collection", ""),
            other => ("", other),
        };
        let scope = if self.def.namespaced && post != "ForAllNamespaces" { "Namespaced" } else { "" };
        let id = format!(
            "{}{}{}{pre}{scope}{}{post}",
            self.id_verb,
            group_camel(&self.def.group),
            capitalize(&self.def.version),
            self.def.kind,
        );
        let mut op = json!({
            "tags": [tag(self.def)],
            "description": self.description,
            "operationId": id,
            "parameters": self.params,
            "responses": self.responses,
            "x-kubernetes-action": self.action,
            "x-kubernetes-group-version-kind": {"group": self.body.group, "version": self.body.version, "kind": self.body.kind},
        });
        if let Some(req) = self.request {
            op["requestBody"] = req;
        }
        op
    }
}

fn write_body(schema: &str) -> Value {
    json!({"content": {"*/*": {"schema": reference(schema)}}, "required": true})
}

/// Patch content types. Strategic merge patch is deliberately not advertised: kubectl would then
/// compute SMP from these schemas, whose merge keys come only from the server's table (see
/// `patch_meta`); without it kubectl falls back to its compiled-in types (and still sends SMP),
/// which is what real clusters get.
fn patch_body() -> Value {
    let types = ["application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"];
    let content: Map<String, Value> =
        types.iter().map(|t| ((*t).to_string(), json!({"schema": reference(PATCH)}))).collect();
    json!({"content": content, "required": true})
}

fn delete_body() -> Value {
    json!({"content": {"*/*": {"schema": reference(DELETE_OPTIONS)}}})
}

fn path_params(def: &ResourceDef, item: bool) -> Vec<Value> {
    let mut out = Vec::new();
    if item {
        out.push(params::name(&def.kind));
    }
    if def.namespaced {
        out.push(params::namespace());
    }
    out.push(params::pretty());
    out
}

/// Every path of one resource and its subresources, with the operations its verbs allow.
pub fn for_resource(def: &ResourceDef) -> Vec<(String, Value)> {
    let prefix = def.url_prefix();
    let collection = if def.namespaced {
        format!("{prefix}/namespaces/{{namespace}}/{}", def.plural)
    } else {
        format!("{prefix}/{}", def.plural)
    };
    let item = format!("{collection}/{{name}}");
    let kind = &def.kind;
    let schema = schema_name(def, kind);
    let list_schema = schema_name(def, &def.list_kind);
    let mut out = Vec::new();

    let mut coll = Map::new();
    if def.supports("list") {
        let op = Op::new(def, "list", "list", Body::list_of(def))
            .describe(format!("list or watch objects of kind {kind}"))
            .params(params::for_list())
            .responds(&[("200", "OK")], &list_schema);
        coll.insert("get".into(), op.build());
    }
    if def.supports("create") {
        let op = Op::new(def, "post", "create", Body::of(def))
            .describe(format!("create a {kind}"))
            .params(params::for_write())
            .request(write_body(&schema))
            .responds(&[("200", "OK"), ("201", "Created"), ("202", "Accepted")], &schema);
        coll.insert("post".into(), op.build());
    }
    if def.supports("deletecollection") {
        let op = Op::new(def, "deletecollection", "delete", Body::of(def))
            .suffix("Collection")
            .describe(format!("delete collection of {kind}"))
            .params(params::for_delete_collection())
            .request(delete_body())
            .responds(&[("200", "OK")], STATUS);
        coll.insert("delete".into(), op.build());
    }
    if !coll.is_empty() {
        coll.insert("parameters".into(), Value::Array(path_params(def, false)));
        out.push((collection, Value::Object(coll)));
    }

    if def.namespaced && def.supports("list") {
        let op = Op::new(def, "list", "list", Body::list_of(def))
            .suffix("ForAllNamespaces")
            .describe(format!("list or watch objects of kind {kind}"))
            .params(params::for_list())
            .responds(&[("200", "OK")], &list_schema);
        let all = json!({"get": op.build(), "parameters": [params::pretty()]});
        out.push((format!("{prefix}/{}", def.plural), all));
    }

    let mut obj = Map::new();
    if def.supports("get") {
        let op = Op::new(def, "get", "read", Body::of(def))
            .describe(format!("read the specified {kind}"))
            .responds(&[("200", "OK")], &schema);
        obj.insert("get".into(), op.build());
    }
    if def.supports("update") {
        obj.insert("put".into(), replace(def, Body::of(def), "", format!("replace the specified {kind}")));
    }
    if def.supports("patch") {
        obj.insert("patch".into(), patch(def, Body::of(def), "", format!("partially update the specified {kind}")));
    }
    if def.supports("delete") {
        let op = Op::new(def, "delete", "delete", Body::of(def))
            .describe(format!("delete a {kind}"))
            .params(params::for_delete())
            .request(delete_body())
            .responds(&[("200", "OK"), ("202", "Accepted")], STATUS);
        obj.insert("delete".into(), op.build());
    }
    if !obj.is_empty() {
        obj.insert("parameters".into(), Value::Array(path_params(def, true)));
        out.push((item.clone(), Value::Object(obj)));
    }

    for sub in &def.subresources {
        if let Some(path_item) = subresource_item(def, sub) {
            out.push((format!("{item}/{}", sub.name()), path_item));
        }
    }
    out
}

fn replace(def: &ResourceDef, body: Body, suffix: &'static str, description: String) -> Value {
    let schema = body.schema.clone();
    Op::new(def, "put", "replace", body)
        .suffix(suffix)
        .describe(description)
        .params(params::for_write())
        .request(write_body(&schema))
        .responds(&[("200", "OK"), ("201", "Created")], &schema)
        .build()
}

fn patch(def: &ResourceDef, body: Body, suffix: &'static str, description: String) -> Value {
    let schema = body.schema.clone();
    Op::new(def, "patch", "patch", body)
        .suffix(suffix)
        .describe(description)
        .params(params::for_patch())
        .request(patch_body())
        .responds(&[("200", "OK"), ("201", "Created")], &schema)
        .build()
}

fn subresource_item(def: &ResourceDef, sub: &Subresource) -> Option<Value> {
    let suffix = match sub {
        Subresource::Status => "Status",
        Subresource::Scale { .. } => "Scale",
        Subresource::Approval => "Approval",
        Subresource::Token => "Token",
        Subresource::Finalize => "Finalize",
        Subresource::Binding => "Binding",
        // Proxying is a connect operation with no body kind; clients do not need it described.
        Subresource::Proxy => return None,
    };
    let body = || Body::for_sub(def, sub);
    let schema = body().schema;
    let what = format!("{} of the specified {}", sub.name(), def.kind);
    let mut m = Map::new();
    for verb in sub.verbs() {
        match *verb {
            "get" => {
                let op = Op::new(def, "get", "read", body())
                    .suffix(suffix)
                    .describe(format!("read {what}"))
                    .responds(&[("200", "OK")], &schema);
                m.insert("get".into(), op.build());
            }
            "update" => {
                m.insert("put".into(), replace(def, body(), suffix, format!("replace {what}")));
            }
            "patch" => {
                m.insert("patch".into(), patch(def, body(), suffix, format!("partially update {what}")));
            }
            "create" => {
                let op = Op::new(def, "post", "create", body())
                    .suffix(suffix)
                    .describe(format!("create {what}"))
                    .params(params::for_write())
                    .request(write_body(&schema))
                    .responds(&[("200", "OK"), ("201", "Created"), ("202", "Accepted")], &schema);
                m.insert("post".into(), op.build());
            }
            _ => {}
        }
    }
    m.insert("parameters".into(), Value::Array(path_params(def, true)));
    Some(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(group_camel(""), "Core");
        assert_eq!(group_camel("rbac.authorization.k8s.io"), "RbacAuthorization");
        assert_eq!(group_camel("policy.karmada.io"), "PolicyKarmadaIo");
        assert_eq!(group_camel("multicluster.x-k8s.io"), "MulticlusterXK8sIo");
    }
}

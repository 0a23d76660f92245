//! kubectl's `plaintext` explain template (kubectl 1.33, pkg/explain/v2/templates/plaintext.tmpl)
//! over one OpenAPI v3 document: the kind's header, then the description and fields of the
//! kind or of the field path. Each function below is one of the template's definitions, with
//! Go template semantics kept where they show in the output (empty values are false, map keys
//! are visited in sorted order, `$ref` cycles are cut by the history of references followed).

use std::collections::BTreeSet;

use serde_json::Value;

use super::wrap::wrap;

/// How deep the walk may nest (schemas, references, array items). kube's deepest kinds need
/// about 30 levels; a document deeper than this is refused rather than overflowing the stack.
const MAX_DEPTH: usize = 1000;
/// How much text one explanation may produce (`--recursive` over a schema whose references
/// fan out could otherwise grow without end).
const MAX_OUTPUT: usize = 64 << 20;

/// What to explain: a resource of a group-version, and the field path inside its kind.
pub struct Request<'a> {
    pub group: &'a str,
    pub version: &'a str,
    pub resource: &'a str,
    pub fields: &'a [String],
    pub recursive: bool,
}

/// The text kubectl writes to stdout, and the error it stops with, if any. kubectl writes the
/// header before it looks at the fields, so an unknown field still prints the header.
pub struct Rendered {
    pub text: String,
    pub error: Option<String>,
}

/// Renders `req` from `document` (the group-version's `/openapi/v3/...` document).
pub fn render(document: &Value, req: &Request) -> Rendered {
    let walk = Walk { doc: document, recursive: req.recursive };
    let mut text = String::new();
    let error = walk.main(req, &mut text).err();
    Rendered { text, error }
}

struct Walk<'a> {
    doc: &'a Value,
    recursive: bool,
}

type History = BTreeSet<String>;

/// A Go template's truth: absent, null, false, 0, "" and empty arrays and maps are false.
fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

fn field<'v>(schema: &'v Value, key: &str) -> Option<&'v Value> {
    schema.as_object().and_then(|o| o.get(key))
}

/// A value as Go's `fmt` prints it in a template.
fn go_print(v: &Value) -> String {
    match v {
        Value::Null => "<no value>".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{f:.0}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The template's `indent`: every line, the first included, shifted right.
fn indent(amount: usize, s: &str) -> String {
    let pad = " ".repeat(amount);
    format!("{pad}{}", s.replace('\n', &format!("\n{pad}")))
}

/// `additionalProperties` when it is a schema (not `true`/`false`) that says something.
fn map_values(schema: &Value) -> Option<&Value> {
    field(schema, "additionalProperties").filter(|v| !v.is_boolean() && truthy(Some(v)))
}

fn all_of(schema: &Value) -> &[Value] {
    field(schema, "allOf").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn sorted_properties(schema: &Value) -> Vec<(&String, &Value)> {
    let mut props: Vec<_> = field(schema, "properties").and_then(Value::as_object).into_iter().flatten().collect();
    props.sort_by(|a, b| a.0.cmp(b.0));
    props
}

impl Walk<'_> {
    /// The template's `resolveRef`: a `#/…` reference followed through the document's maps;
    /// None when it is not a local reference or leads to anything but a map.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        let fragment = reference.strip_prefix('#').filter(|f| !f.is_empty())?;
        let mut cur = self.doc;
        for key in fragment.split('/').filter(|k| !k.is_empty()) {
            cur = cur.as_object()?.get(key)?;
        }
        cur.is_object().then_some(cur)
    }

    /// A schema's `$ref`, or "".
    fn reference_of<'v>(&self, schema: &'v Value) -> &'v str {
        field(schema, "$ref").and_then(Value::as_str).unwrap_or_default()
    }

    /// The schema a `$ref` names when it names a non-empty one, else the schema itself.
    fn resolved<'v>(&'v self, schema: &'v Value) -> &'v Value {
        self.resolve(self.reference_of(schema)).filter(|v| truthy(Some(v))).unwrap_or(schema)
    }

    fn main(&self, req: &Request, out: &mut String) -> Result<(), String> {
        let prefix = if req.group.is_empty() { "/api".to_string() } else { format!("/apis/{}", req.group) };
        let (v, r) = (req.version, req.resource);
        let search = [
            format!("{prefix}/{v}/{r}"),
            format!("{prefix}/{v}/{r}/{{name}}"),
            format!("{prefix}/{v}/namespaces/{{namespace}}/{r}"),
            format!("{prefix}/{v}/namespaces/{{namespace}}/{r}/{{name}}"),
        ];
        // Every path that exists is looked at, the last one found winning (the template's
        // `break` leaves only the loop over methods).
        let mut gvk: Option<&Value> = None;
        for path in &search {
            let Some(item) = self.doc.get("paths").and_then(|p| p.get(path)).filter(|i| truthy(Some(i))) else {
                continue;
            };
            for method in ["get", "post", "put", "patch", "delete"] {
                let Some(op) = field(item, method).filter(|o| truthy(Some(o))) else { continue };
                gvk = field(op, "x-kubernetes-group-version-kind");
                if truthy(gvk) {
                    break;
                }
            }
        }
        let Some(gvk) = gvk.filter(|g| truthy(Some(g))) else {
            return Err(format!("error: GVR ({}/{v}, Resource={r}) not found in OpenAPI schema", req.group));
        };
        let part = |k: &str| field(gvk, k).map(go_print).unwrap_or_else(|| "<no value>".into());
        if truthy(field(gvk, "group")) {
            out.push_str(&format!("GROUP:      {}\n", part("group")));
        }
        out.push_str(&format!("KIND:       {}\nVERSION:    {}\n\n", part("kind"), part("version")));
        let schema = self.schema(gvk, req.fields)?;
        if schema.is_empty() {
            let printed = match gvk.as_object() {
                Some(m) => {
                    let mut keys: Vec<_> = m.iter().map(|(k, v)| format!("{k}:{}", go_print(v))).collect();
                    keys.sort();
                    format!("map[{}]", keys.join(" "))
                }
                None => go_print(gvk),
            };
            return Err(format!("error: GVK {printed} not found in OpenAPI schema"));
        }
        out.push_str(&schema);
        out.push('\n');
        Ok(())
    }

    /// The template's `schema`: the first component (by name) that is the kind's, explained.
    fn schema(&self, gvk: &Value, fields: &[String]) -> Result<String, String> {
        let Some(schemas) = self.doc.get("components").and_then(|c| c.get("schemas")).and_then(Value::as_object) else {
            return Ok(String::new());
        };
        let mut names: Vec<&String> = schemas.keys().collect();
        names.sort();
        for name in names {
            let schema = &schemas[name];
            let kinds = field(schema, "x-kubernetes-group-version-kind").and_then(Value::as_array);
            if !kinds.is_some_and(|k| k.contains(gvk)) {
                continue;
            }
            let text = self.output(schema, &History::new(), fields, 0)?;
            if text.is_empty() {
                let last = fields.last().map_or("", String::as_str);
                return Err(format!("error: field \"{last}\" does not exist"));
            }
            return Ok(text);
        }
        Ok(String::new())
    }

    /// The template's `output`: follows the field path, then prints the description and the
    /// field list of where it ends; "" when the path leads nowhere.
    fn output(&self, schema: &Value, history: &History, fields: &[String], depth: usize) -> Result<String, String> {
        let depth = deeper(depth)?;
        let reference = self.reference_of(schema);
        let mut next = history.clone();
        next.insert(reference.to_string());
        let resolved = self.resolved(schema);
        let Some((first, rest)) = fields.split_first() else {
            let description = self.description(resolved, depth)?;
            let description = if description.is_empty() { "<empty>".to_string() } else { description };
            let mut out = format!("DESCRIPTION:\n{}\n", indent(4, &wrap(&description, 76)));
            let list = self.field_list(resolved, 1, &History::new(), depth)?;
            if !list.is_empty() {
                out.push_str("FIELDS:\n");
                out.push_str(&list);
            }
            return Ok(out);
        };
        if !reference.is_empty() && history.contains(reference) {
            return Ok(String::new());
        }
        if let Some(sub) = field(resolved, "properties").and_then(|p| field(p, first)).filter(|s| truthy(Some(s))) {
            let mut out = String::new();
            if rest.is_empty() {
                let kind = self.type_guess(sub, depth)?;
                out = format!("FIELD: {first} <{kind}>\n{}\n\n", extract_enum(sub, true, None, 0));
            }
            out.push_str(&self.output(sub, &History::new(), rest, depth)?);
            return Ok(out);
        }
        if let Some(items) = field(resolved, "items").filter(|i| truthy(Some(i))) {
            return self.output(items, &next, fields, depth);
        }
        if let Some(values) = map_values(resolved) {
            return self.output(values, &next, fields, depth);
        }
        for sub in all_of(resolved) {
            let text = self.output(sub, &next, fields, depth)?;
            if !text.is_empty() {
                return Ok(text);
            }
        }
        Ok(String::new())
    }

    /// The template's `fieldList`: each property (one line each with `--recursive`, nested
    /// fields below it), then those of `allOf`, array items and map values.
    fn field_list(&self, schema: &Value, level: usize, history: &History, depth: usize) -> Result<String, String> {
        let depth = deeper(depth)?;
        let reference = self.reference_of(schema);
        if !reference.is_empty() && history.contains(reference) {
            return Ok(String::new());
        }
        let mut next = history.clone();
        next.insert(reference.to_string());
        let resolved = self.resolved(schema);
        let mut out = String::new();
        for (name, sub) in sorted_properties(resolved) {
            out.push_str(&self.field_detail(name, resolved, level, depth)?);
            if self.recursive {
                out.push_str(&self.field_list(sub, level + 1, &next, depth)?);
            }
            if out.len() > MAX_OUTPUT {
                return Err(format!("error: the explanation is longer than {} MiB", MAX_OUTPUT >> 20));
            }
        }
        for sub in all_of(resolved) {
            out.push_str(&self.field_list(sub, level, &next, depth)?);
        }
        if let Some(items) = field(resolved, "items").filter(|i| truthy(Some(i))) {
            out.push_str(&self.field_list(items, level, &next, depth)?);
        }
        if let Some(values) = map_values(resolved) {
            out.push_str(&self.field_list(values, level, &next, depth)?);
        }
        Ok(out)
    }

    /// The template's `fieldDetail`: `name<TAB><type>`, `-required-`, the first enum values,
    /// and (without `--recursive`) the wrapped description.
    fn field_detail(&self, name: &str, parent: &Value, level: usize, depth: usize) -> Result<String, String> {
        let pad = level * 2;
        let schema = field(parent, "properties").and_then(|p| field(p, name)).unwrap_or(&Value::Null);
        let mut out = format!("{}\t<{}>", indent(pad, name), self.type_guess(schema, depth)?);
        let required = field(parent, "required").and_then(Value::as_array);
        if required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))) {
            out.push_str(" -required-");
        }
        out.push_str(&extract_enum(schema, false, Some(4), pad));
        out.push('\n');
        if !self.recursive {
            let description = field(schema, "description").filter(|d| truthy(Some(d))).map(go_print);
            let description = description.unwrap_or_else(|| "<no description>".into());
            // Go converts a negative width to a huge unsigned one: no wrapping at all.
            let width = 78usize.checked_sub(pad).unwrap_or(usize::MAX);
            out.push_str(&indent(pad + 2, &wrap(&description, width)));
            out.push_str("\n\n");
        }
        Ok(out)
    }

    /// The template's `description`: the schema's own, then those of `allOf`, array items and
    /// map values, each followed by a newline.
    fn description(&self, schema: &Value, depth: usize) -> Result<String, String> {
        let depth = deeper(depth)?;
        let schema = self.resolved(schema);
        if !truthy(Some(schema)) {
            return Ok(String::new());
        }
        let mut out = String::new();
        if let Some(d) = field(schema, "description").filter(|d| truthy(Some(d))) {
            out.push_str(&go_print(d));
            out.push('\n');
        }
        for sub in all_of(schema) {
            out.push_str(&self.description(sub, depth)?);
        }
        if let Some(items) = field(schema, "items").filter(|i| truthy(Some(i))) {
            out.push_str(&self.description(items, depth)?);
        }
        if let Some(values) = map_values(schema) {
            out.push_str(&self.description(values, depth)?);
        }
        Ok(out)
    }

    /// The template's `typeGuess`: `string`, `Object`, `[]Container`, `map[string]string`, the
    /// referenced type's short name for objects.
    fn type_guess(&self, schema: &Value, depth: usize) -> Result<String, String> {
        let depth = deeper(depth)?;
        if !truthy(Some(schema)) {
            return Err("error: expected schema argument to subtemplate 'typeguess'".into());
        }
        if let Some(items) = field(schema, "items").filter(|i| truthy(Some(i))) {
            return Ok(format!("[]{}", self.type_guess(items, depth)?));
        }
        if let Some(values) = map_values(schema) {
            return Ok(format!("map[string]{}", self.type_guess(values, depth)?));
        }
        let all = all_of(schema);
        if all.len() == 1 && !truthy(field(schema, "properties")) {
            return self.type_guess(&all[0], depth);
        }
        let type_of = |s: &Value| field(s, "type").filter(|t| truthy(Some(t))).map(go_print);
        if let Some(reference) = field(schema, "$ref").filter(|r| truthy(Some(r))) {
            let reference = go_print(reference);
            let target = self.resolve(&reference).filter(|t| truthy(Some(t)));
            return Ok(match target.and_then(type_of) {
                Some(t) if t != "object" => t,
                _ => {
                    let name = reference.rsplit('/').next().unwrap_or_default();
                    match name.rsplit('.').next().unwrap_or_default() {
                        "" => "Object".into(),
                        short => short.into(),
                    }
                }
            });
        }
        Ok(match type_of(schema) {
            Some(t) if t != "object" => t,
            _ => "Object".into(),
        })
    }
}

fn deeper(depth: usize) -> Result<usize, String> {
    match depth < MAX_DEPTH {
        true => Ok(depth + 1),
        false => Err(format!("error: the schema nests deeper than {MAX_DEPTH} levels")),
    }
}

/// The template's `extractEnum`: `ENUM:` with one value a line for the field asked about, or
/// `enum: a, b, c, d, ....` (at most `limit` values) under a field of a list.
fn extract_enum(schema: &Value, long: bool, limit: Option<usize>, pad: usize) -> String {
    let Some(values) = field(schema, "enum").and_then(Value::as_array).filter(|v| !v.is_empty()) else {
        return String::new();
    };
    let mut out = if long { "ENUM:".to_string() } else { format!("\n{}enum: ", " ".repeat(pad)) };
    for (i, value) in values.iter().enumerate() {
        if limit.is_some_and(|l| i >= l) {
            out.push_str(", ....");
            break;
        }
        if long {
            out.push_str("\n    ");
        } else if i > 0 {
            out.push_str(", ");
        }
        match value {
            Value::String(s) if s.is_empty() => out.push_str("\"\""),
            other => out.push_str(&go_print(other)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Request, render};

    /// A document serving `things` of kind `Thing` in `example.com/v1` with `schema`.
    fn document(schema: Value) -> Value {
        let gvk = json!({"group": "example.com", "kind": "Thing", "version": "v1"});
        let mut schema = schema;
        schema["x-kubernetes-group-version-kind"] = json!([gvk.clone()]);
        json!({
            "paths": {"/apis/example.com/v1/things": {"get": {"x-kubernetes-group-version-kind": gvk}}},
            "components": {"schemas": {"com.example.v1.Thing": schema}},
        })
    }

    fn explain(doc: &Value, fields: &[&str], recursive: bool) -> (String, Option<String>) {
        let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        let req = Request { group: "example.com", version: "v1", resource: "things", fields: &fields, recursive };
        let out = render(doc, &req);
        (out.text, out.error)
    }

    #[test]
    fn a_reference_cycle_is_followed_once() {
        let doc = document(json!({
            "description": "A thing.",
            "properties": {"next": {"allOf": [{"$ref": "#/components/schemas/com.example.v1.Thing"}]}},
        }));
        let (text, error) = explain(&doc, &[], true);
        assert_eq!(error, None);
        assert_eq!(
            text,
            "GROUP:      example.com\nKIND:       Thing\nVERSION:    v1\n\nDESCRIPTION:\n    A thing.\n    \nFIELDS:\n  next\t<Thing>\n    next\t<Thing>\n\n"
        );
        // Following the path through the cycle ends where the reference repeats.
        assert_eq!(
            explain(&doc, &["next", "next", "nothing"], false).1.unwrap(),
            "error: field \"nothing\" does not exist"
        );
    }

    #[test]
    fn a_schema_nested_beyond_the_bound_is_refused_not_overflowed() {
        let mut schema = json!({"type": "string"});
        for _ in 0..1500 {
            schema = json!({"type": "array", "items": schema});
        }
        let doc = document(json!({"properties": {"deep": schema}}));
        let (text, error) = explain(&doc, &["deep"], false);
        assert_eq!(error.unwrap(), "error: the schema nests deeper than 1000 levels");
        assert!(text.starts_with("GROUP:      example.com\n"), "{text}");
    }

    #[test]
    fn a_resource_the_document_does_not_serve_names_the_gvr() {
        let doc = document(json!({}));
        let req = Request { group: "", version: "v1", resource: "pods", fields: &[], recursive: false };
        let out = render(&doc, &req);
        assert_eq!(
            (out.text.as_str(), out.error.unwrap().as_str()),
            ("", "error: GVR (/v1, Resource=pods) not found in OpenAPI schema")
        );
    }
}

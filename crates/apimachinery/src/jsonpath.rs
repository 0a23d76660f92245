//! The part of client-go's JSONPath (`k8s.io/client-go/util/jsonpath`) that CRD printer columns
//! use: `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[1:3]`, `[*]`, `.*`, `..name`, and filters such as
//! `[?(@.type=="Ready")]` or `[?(@.ready)]`.
//!
//! Evaluation follows client-go with missing keys allowed (as the CRD table convertor sets it):
//! a missing field yields no result instead of an error, a field of an array yields nothing
//! (arrays need `[*]` or an index), and a filter on something that is not an array is an error.

use serde_json::Value;

/// Why a path could not be parsed or evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPathError {
    /// The path is not valid syntax (`unterminated [`, a filter without `@`, ...).
    #[error("invalid JSONPath {path:?}: {reason}")]
    Syntax { path: String, reason: String },
    /// The path is valid but cannot apply to this object (filter on a non-array, bad index).
    #[error("{0}")]
    Evaluation(String),
}

/// A parsed path.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPath {
    steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// A map key; the empty name is the current value itself (`{.}`).
    Field(String),
    /// Every value of a map or element of an array.
    Wildcard,
    /// The current value and all its descendants, for the step after `..`.
    Recursive,
    /// `[start:end]`; a single index is `start:start+1`, negative values count from the end.
    Slice { start: Option<i64>, end: Option<i64>, single: bool },
    /// Several keys or indices: `['a','b']` or `[0,2]`.
    Union(Vec<Step>),
    /// `[?(@.path op literal)]`, or `[?(@.path)]` for existence.
    Filter { left: Vec<Step>, test: Option<(CmpOp, Literal)> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
enum Literal {
    Str(String),
    Num(f64),
    Bool(bool),
}

impl JsonPath {
    /// Parses `.a.b`, `{.a.b}` or `$.a.b`.
    pub fn parse(path: &str) -> Result<Self, JsonPathError> {
        let syntax = |reason: &str| JsonPathError::Syntax { path: path.to_string(), reason: reason.to_string() };
        let mut body = path.trim();
        if let Some(inner) = body.strip_prefix('{') {
            body = inner.strip_suffix('}').ok_or_else(|| syntax("unclosed action"))?.trim();
        }
        body = body.strip_prefix('$').unwrap_or(body);
        let steps = parse_steps(body).map_err(|reason| syntax(&reason))?;
        Ok(Self { steps })
    }

    /// Every value the path selects, in document order.
    pub fn find<'v>(&self, root: &'v Value) -> Result<Vec<&'v Value>, JsonPathError> {
        eval(&self.steps, vec![root])
    }
}

/// Parses a sequence of steps: `.name`, `..name`, `[...]`.
fn parse_steps(s: &str) -> Result<Vec<Step>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                if chars.get(i) == Some(&'.') {
                    steps.push(Step::Recursive);
                    i += 1;
                    if chars.get(i) == Some(&'[') {
                        continue;
                    }
                }
                let (name, next) = field_name(&chars, i);
                i = next;
                steps.push(if name == "*" { Step::Wildcard } else { Step::Field(name) });
            }
            '[' => {
                let end = closing_bracket(&chars, i).ok_or("unterminated [")?;
                let inner: String = chars[i + 1..end].iter().collect();
                steps.push(bracket(inner.trim())?);
                i = end + 1;
            }
            c if c.is_whitespace() => i += 1,
            // client-go also accepts a bare name at the start (`{metadata.name}` is not valid,
            // but `{.metadata.name}` is); anything else is unrecognised.
            c => return Err(format!("unrecognized character {c:?}")),
        }
    }
    Ok(steps)
}

/// A field name after `.`: everything up to a terminator, with `\x` meaning a literal `x` (so
/// `app\.kubernetes\.io/name` is one key).
fn field_name(chars: &[char], mut i: usize) -> (String, usize) {
    let mut name = String::new();
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' if i + 1 < chars.len() => {
                name.push(chars[i + 1]);
                i += 2;
            }
            '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}' => break,
            c if c.is_whitespace() => break,
            c => {
                name.push(c);
                i += 1;
            }
        }
    }
    (name, i)
}

/// The index of the `]` closing the `[` at `open`, skipping quoted text and nested brackets.
fn closing_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(_) if c == '\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// The step inside `[...]`.
fn bracket(inner: &str) -> Result<Step, String> {
    if let Some(expr) = inner.strip_prefix('?') {
        let expr = expr.trim();
        let expr = expr
            .strip_prefix('(')
            .and_then(|e| e.strip_suffix(')'))
            .ok_or_else(|| format!("filter {inner:?} must be written ?(...)"))?;
        return filter(expr.trim());
    }
    if inner == "*" {
        return Ok(Step::Wildcard);
    }
    if let Some(name) = quoted(inner) {
        return Ok(Step::Field(name));
    }
    if inner.contains(',') {
        let parts = split_outside_quotes(inner, ',');
        let steps = parts.iter().map(|p| bracket(p.trim())).collect::<Result<Vec<_>, _>>()?;
        return Ok(Step::Union(steps));
    }
    if inner.contains(':') {
        let mut parts = inner.split(':');
        let bound = |p: Option<&str>| -> Result<Option<i64>, String> {
            match p.map(str::trim).filter(|p| !p.is_empty()) {
                None => Ok(None),
                Some(p) => p.parse::<i64>().map(Some).map_err(|_| format!("invalid array index {p:?}")),
            }
        };
        let start = bound(parts.next())?;
        let end = bound(parts.next())?;
        return Ok(Step::Slice { start, end, single: false });
    }
    let index = inner.parse::<i64>().map_err(|_| format!("invalid array index {inner:?}"))?;
    Ok(Step::Slice { start: Some(index), end: None, single: true })
}

fn quoted(s: &str) -> Option<String> {
    let q = s.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let inner = s.strip_prefix(q)?.strip_suffix(q)?;
    Some(inner.replace(&format!("\\{q}"), &q.to_string()))
}

fn split_outside_quotes(s: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quote = None;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == sep => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

/// `@.path`, `@.path == literal` and the other comparisons.
fn filter(expr: &str) -> Result<Step, String> {
    const OPS: [(&str, CmpOp); 6] = [
        ("==", CmpOp::Eq),
        ("!=", CmpOp::Ne),
        ("<=", CmpOp::Le),
        (">=", CmpOp::Ge),
        ("<", CmpOp::Lt),
        (">", CmpOp::Gt),
    ];
    let found = find_operator(expr, &OPS);
    let (left, test) = match found {
        Some((at, len, op)) => {
            let right = expr[at + len..].trim();
            (expr[..at].trim(), Some((op, literal(right)?)))
        }
        None => (expr, None),
    };
    let path = left.strip_prefix('@').ok_or_else(|| format!("filter {expr:?} must start with @"))?;
    Ok(Step::Filter { left: parse_steps(path)?, test })
}

/// The first comparison operator outside quotes: (byte offset, length, operator).
fn find_operator(expr: &str, ops: &[(&str, CmpOp)]) -> Option<(usize, usize, CmpOp)> {
    let mut quote = None;
    for (at, c) in expr.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None => {
                if let Some((text, op)) = ops.iter().find(|(text, _)| expr[at..].starts_with(text)) {
                    return Some((at, text.len(), *op));
                }
            }
        }
    }
    None
}

fn literal(s: &str) -> Result<Literal, String> {
    if let Some(text) = quoted(s) {
        return Ok(Literal::Str(text));
    }
    match s {
        "true" => return Ok(Literal::Bool(true)),
        "false" => return Ok(Literal::Bool(false)),
        _ => {}
    }
    s.parse::<f64>().map(Literal::Num).map_err(|_| format!("unrecognized filter value {s:?}"))
}

fn eval<'v>(steps: &[Step], mut current: Vec<&'v Value>) -> Result<Vec<&'v Value>, JsonPathError> {
    for step in steps {
        let mut next = Vec::new();
        for value in current {
            apply(step, value, &mut next)?;
        }
        current = next;
    }
    Ok(current)
}

fn apply<'v>(step: &Step, value: &'v Value, out: &mut Vec<&'v Value>) -> Result<(), JsonPathError> {
    match step {
        Step::Field(name) if name.is_empty() => out.push(value),
        Step::Field(name) => {
            if let Some(v) = value.as_object().and_then(|m| m.get(name)) {
                out.push(v);
            }
        }
        Step::Wildcard => match value {
            Value::Object(m) => out.extend(m.values()),
            Value::Array(a) => out.extend(a.iter()),
            _ => {}
        },
        Step::Recursive => descendants(value, out),
        Step::Slice { start, end, single } => {
            let Value::Array(items) = value else { return Ok(()) };
            let len = items.len() as i64;
            let resolve = |i: i64| if i < 0 { i + len } else { i };
            let from = resolve(start.unwrap_or(0));
            let to = if *single { from + 1 } else { end.map(resolve).unwrap_or(len) };
            if from == to {
                return Ok(());
            }
            if from < 0 || from >= len {
                return Err(JsonPathError::Evaluation(format!(
                    "array index out of bounds: index {from}, length {len}"
                )));
            }
            let to = to.clamp(from, len);
            out.extend(items[from as usize..to as usize].iter());
        }
        Step::Union(steps) => {
            for s in steps {
                apply(s, value, out)?;
            }
        }
        Step::Filter { left, test } => {
            let Value::Array(items) = value else {
                return Err(JsonPathError::Evaluation(format!("{value} is not array or slice and cannot be filtered")));
            };
            for item in items {
                let found = eval(left, vec![item])?;
                let keep = match (test, found.as_slice()) {
                    (None, found) => !found.is_empty(),
                    (Some(_), []) => false,
                    (Some((op, lit)), [one]) => compare(one, *op, lit),
                    (Some(_), _) => {
                        return Err(JsonPathError::Evaluation("can only compare one element at a time".into()));
                    }
                };
                if keep {
                    out.push(item);
                }
            }
        }
    }
    Ok(())
}

fn descendants<'v>(value: &'v Value, out: &mut Vec<&'v Value>) {
    out.push(value);
    match value {
        Value::Object(m) => m.values().for_each(|v| descendants(v, out)),
        Value::Array(a) => a.iter().for_each(|v| descendants(v, out)),
        _ => {}
    }
}

/// Compares a found value with a filter literal. Values of different types are never equal.
fn compare(value: &Value, op: CmpOp, lit: &Literal) -> bool {
    use std::cmp::Ordering;
    let ordering = match (value, lit) {
        (Value::String(a), Literal::Str(b)) => a.as_str().partial_cmp(b.as_str()),
        (Value::Number(a), Literal::Num(b)) => a.as_f64().and_then(|a| a.partial_cmp(b)),
        (Value::Bool(a), Literal::Bool(b)) => Some(a.cmp(b)),
        _ => None,
    };
    match (op, ordering) {
        (CmpOp::Eq, o) => o == Some(Ordering::Equal),
        (CmpOp::Ne, o) => o != Some(Ordering::Equal),
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::Le, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::Ge, Some(o)) => o != Ordering::Less,
        (_, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find(path: &str, obj: &Value) -> Vec<Value> {
        JsonPath::parse(path).unwrap().find(obj).unwrap().into_iter().cloned().collect()
    }

    fn sample() -> Value {
        json!({
            "metadata": {"name": "x", "labels": {"app.kubernetes.io/name": "web"}},
            "spec": {"replicas": 3, "ports": [{"port": 80, "name": "http"}, {"port": 443, "name": "https"}]},
            "status": {"conditions": [
                {"type": "Synced", "status": "True"},
                {"type": "Ready", "status": "False", "reason": "Waiting"}
            ]}
        })
    }

    #[test]
    fn fields_indices_and_wildcards() {
        let obj = sample();
        assert_eq!(find(".spec.replicas", &obj), [json!(3)]);
        assert_eq!(find("{.spec.replicas}", &obj), [json!(3)]);
        assert_eq!(find("$.metadata.name", &obj), [json!("x")]);
        assert_eq!(find(".spec.ports[0].port", &obj), [json!(80)]);
        assert_eq!(find(".spec.ports[-1].name", &obj), [json!("https")]);
        assert_eq!(find(".spec.ports[*].port", &obj), [json!(80), json!(443)]);
        assert_eq!(find(".spec.ports[0:1].port", &obj), [json!(80)]);
        assert_eq!(find(".spec.ports[0,1].name", &obj), [json!("http"), json!("https")]);
        assert_eq!(find(".metadata['name']", &obj), [json!("x")]);
        assert_eq!(find(".metadata.labels.app\\.kubernetes\\.io/name", &obj), [json!("web")]);
        assert_eq!(find(".metadata.labels['app.kubernetes.io/name']", &obj), [json!("web")]);
        assert_eq!(find("..port", &obj), [json!(80), json!(443)]);
        assert_eq!(find(".", &obj), std::slice::from_ref(&obj));
    }

    #[test]
    fn missing_keys_give_nothing() {
        let obj = sample();
        assert!(find(".spec.nothing.deeper", &obj).is_empty());
        // A field of an array selects nothing: client-go needs [*] for that.
        assert!(find(".spec.ports.port", &obj).is_empty());
        let err = JsonPath::parse(".spec.ports[5]").unwrap().find(&obj).unwrap_err();
        assert_eq!(err.to_string(), "array index out of bounds: index 5, length 2");
    }

    #[test]
    fn filters() {
        let obj = sample();
        assert_eq!(find(r#".status.conditions[?(@.type=="Ready")].status"#, &obj), [json!("False")]);
        assert_eq!(find(".status.conditions[?(@.type == 'Synced')].status", &obj), [json!("True")]);
        assert_eq!(find(r#".status.conditions[?(@.type!="Ready")].type"#, &obj), [json!("Synced")]);
        assert_eq!(find(".status.conditions[?(@.reason)].type", &obj), [json!("Ready")]);
        assert_eq!(find(".spec.ports[?(@.port>100)].name", &obj), [json!("https")]);
        assert_eq!(find(".spec.ports[?(@.port<=80)].name", &obj), [json!("http")]);
        assert!(find(r#".status.conditions[?(@.type=="Gone")].status"#, &obj).is_empty());
        let err = JsonPath::parse("..spec[?(@.a)]").unwrap().find(&obj).unwrap_err();
        assert!(err.to_string().contains("cannot be filtered"), "{err}");
    }

    #[test]
    fn syntax_errors() {
        for bad in [".a[0", ".a[x]", ".a[?(b)]", "a.b", "{.a", ".a[?(@.b==)]"] {
            let err = JsonPath::parse(bad).unwrap_err();
            assert!(matches!(err, JsonPathError::Syntax { .. }), "{bad}: {err}");
        }
    }
}

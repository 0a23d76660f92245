//! Sets of field paths and their `FieldsV1` encoding, as structured-merge-diff's fieldpath
//! package defines them: `f:name` for a field, `k:{"name":"x"}` for an item of an associative
//! list, `v:"x"` for a value of a set-like list, `i:0` for an index, and `.` for the node itself.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// One step of a path. The variant order is the sort order kube uses (fields, keys, values,
/// indexes), so encoded sets list their entries as kube does.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathElement {
    /// An object field.
    Field(String),
    /// An associative list item, by its key fields and values (sorted by field name).
    Key(Vec<(String, String)>),
    /// A set-like list item, by its value as compact JSON.
    Value(String),
    /// A list item by position (lists kube cannot key).
    Index(usize),
}

impl PathElement {
    /// The key of an associative-list item from its key fields (values as JSON).
    pub fn key(fields: impl IntoIterator<Item = (String, Value)>) -> Self {
        let mut pairs: Vec<(String, String)> = fields.into_iter().map(|(k, v)| (k, v.to_string())).collect();
        pairs.sort();
        PathElement::Key(pairs)
    }

    /// The item of a set-like list holding `v`.
    pub fn value(v: &Value) -> Self {
        PathElement::Value(v.to_string())
    }

    /// The `FieldsV1` object key (`f:spec`, `k:{"name":"x"}`).
    fn encode(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(pairs) => {
                let body: Vec<String> =
                    pairs.iter().map(|(k, v)| format!("{}:{v}", Value::String(k.clone()))).collect();
                format!("k:{{{}}}", body.join(","))
            }
            PathElement::Value(v) => format!("v:{v}"),
            PathElement::Index(i) => format!("i:{i}"),
        }
    }

    fn decode(s: &str) -> Option<Self> {
        let (kind, rest) = s.split_once(':')?;
        match kind {
            "f" => Some(PathElement::Field(rest.to_string())),
            "k" => match serde_json::from_str::<Value>(rest).ok()? {
                Value::Object(m) => Some(PathElement::key(m)),
                _ => None,
            },
            "v" => serde_json::from_str::<Value>(rest).ok().map(|v| PathElement::value(&v)),
            "i" => rest.parse().ok().map(PathElement::Index),
            _ => None,
        }
    }

    /// The values of a key element's fields, parsed back to JSON.
    pub fn key_values(&self) -> Vec<(String, Value)> {
        match self {
            PathElement::Key(pairs) => {
                pairs.iter().map(|(k, v)| (k.clone(), serde_json::from_str(v).unwrap_or(Value::Null))).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for PathElement {
    /// As kube prints paths in conflicts: `.spec`, `[name="x"]`, `[="x"]`, `[0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(pairs) => {
                let body: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, "[{}]", body.join(","))
            }
            PathElement::Value(v) => write!(f, "[={v}]"),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path from the object's root.
pub type Path = Vec<PathElement>;

/// `.spec.replicas` for a path.
pub fn path_string(path: &[PathElement]) -> String {
    path.iter().map(ToString::to_string).collect()
}

/// A set of paths as a tree: `members` are paths ending here, `children` lead further.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.values().all(Set::is_empty)
    }

    /// Adds `path` (a non-empty path; an empty one is ignored).
    pub fn insert(&mut self, path: &[PathElement]) {
        match path {
            [] => {}
            [last] => {
                self.members.insert(last.clone());
            }
            [first, rest @ ..] => self.children.entry(first.clone()).or_default().insert(rest),
        }
    }

    pub fn contains(&self, path: &[PathElement]) -> bool {
        match path {
            [] => false,
            [last] => self.members.contains(last),
            [first, rest @ ..] => self.children.get(first).is_some_and(|c| c.contains(rest)),
        }
    }

    /// Whether the set holds `path` or anything below it.
    pub(crate) fn contains_prefix(&self, path: &[PathElement]) -> bool {
        match path {
            [] => !self.is_empty(),
            [last] => self.members.contains(last) || self.children.get(last).is_some_and(|c| !c.is_empty()),
            [first, rest @ ..] => self.children.get(first).is_some_and(|c| c.contains_prefix(rest)),
        }
    }

    /// The subset below `pe` (paths relative to it).
    pub fn child(&self, pe: &PathElement) -> Option<&Set> {
        self.children.get(pe)
    }

    /// Adds every path of `other` below `prefix`.
    pub fn insert_all_under(&mut self, prefix: &[PathElement], other: &Set) {
        match prefix.split_first() {
            None => self.union_with(other),
            Some((first, rest)) => self.children.entry(first.clone()).or_default().insert_all_under(rest, other),
        }
    }

    pub(crate) fn union_with(&mut self, other: &Set) {
        self.members.extend(other.members.iter().cloned());
        for (pe, child) in &other.children {
            self.children.entry(pe.clone()).or_default().union_with(child);
        }
    }

    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.union_with(other);
        out
    }

    /// Paths of `self` not in `other`.
    pub fn difference(&self, other: &Set) -> Set {
        let mut out = Set::new();
        for m in &self.members {
            if !other.members.contains(m) {
                out.members.insert(m.clone());
            }
        }
        for (pe, child) in &self.children {
            let rest = match other.children.get(pe) {
                Some(o) => child.difference(o),
                None => child.clone(),
            };
            if !rest.is_empty() {
                out.children.insert(pe.clone(), rest);
            }
        }
        out
    }

    /// Whether a path is in both sets.
    pub(crate) fn intersects(&self, other: &Set) -> bool {
        self.members.iter().any(|m| other.members.contains(m))
            || self.children.iter().any(|(pe, child)| other.children.get(pe).is_some_and(|o| child.intersects(o)))
    }

    /// Whether every path of `other` is in this set.
    pub(crate) fn includes(&self, other: &Set) -> bool {
        other.members.iter().all(|m| self.members.contains(m))
            && other
                .children
                .iter()
                .all(|(pe, child)| child.is_empty() || self.children.get(pe).is_some_and(|mine| mine.includes(child)))
    }

    /// Paths in both sets.
    pub(crate) fn intersection(&self, other: &Set) -> Set {
        let mut out = Set::new();
        for m in &self.members {
            if other.members.contains(m) {
                out.members.insert(m.clone());
            }
        }
        for (pe, child) in &self.children {
            if let Some(o) = other.children.get(pe) {
                let both = child.intersection(o);
                if !both.is_empty() {
                    out.children.insert(pe.clone(), both);
                }
            }
        }
        out
    }

    /// Removes `path` and everything below it.
    pub fn remove_prefix(&mut self, path: &[PathElement]) {
        match path {
            [] => *self = Set::new(),
            [last] => {
                self.members.remove(last);
                self.children.remove(last);
            }
            [first, rest @ ..] => {
                if let Some(c) = self.children.get_mut(first) {
                    c.remove_prefix(rest);
                    if c.is_empty() {
                        self.children.remove(first);
                    }
                }
            }
        }
    }

    /// Every path in the set, parents before their descendants.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect_paths(&mut Vec::new(), &mut out);
        out.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        out
    }

    fn collect_paths(&self, prefix: &mut Path, out: &mut Vec<Path>) {
        for m in &self.members {
            prefix.push(m.clone());
            out.push(prefix.clone());
            prefix.pop();
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// The `fieldsV1` JSON object.
    pub(crate) fn to_fields_v1(&self) -> Value {
        let mut out = Map::new();
        let mut elements: BTreeSet<&PathElement> = self.members.iter().collect();
        elements.extend(self.children.iter().filter(|(_, c)| !c.is_empty()).map(|(pe, _)| pe));
        for pe in elements {
            let value = match self.children.get(pe).filter(|c| !c.is_empty()) {
                None => Value::Object(Map::new()),
                Some(child) => {
                    let mut inner = Map::new();
                    if self.members.contains(pe) {
                        inner.insert(".".into(), Value::Object(Map::new()));
                    }
                    if let Value::Object(m) = child.to_fields_v1() {
                        inner.extend(m);
                    }
                    Value::Object(inner)
                }
            };
            out.insert(pe.encode(), value);
        }
        Value::Object(out)
    }

    /// Reads a `fieldsV1` object; entries that do not parse are skipped.
    pub(crate) fn from_fields_v1(v: &Value) -> Set {
        let mut set = Set::new();
        let Value::Object(m) = v else { return set };
        for (k, inner) in m {
            let Some(pe) = PathElement::decode(k) else { continue };
            let Value::Object(im) = inner else { continue };
            if im.is_empty() || im.contains_key(".") {
                set.members.insert(pe.clone());
            }
            let child = Set::from_fields_v1(inner);
            if !child.is_empty() {
                set.children.insert(pe, child);
            }
        }
        set
    }
}

//! The server side of strategic merge patch: k8s.io/apimachinery's `mergeMap` and `mergeSlice`
//! with `MergeParallelList` and `IgnoreUnmatchedNulls` set, as kube-apiserver runs them.
//!
//! Quirks are kept on purpose, because clients depend on the exact results: a `$patch: delete`
//! map becomes `{}` rather than disappearing, a value landing where the original had nothing (or
//! a different JSON type) is taken verbatim with any directives inside it, and `$patch: merge` is
//! refused as upstream refuses it.

use serde_json::{Map, Value};

use super::errors::{SmpError, go_value};
use super::keys::{FieldMeta, Strategy, TypeSchema};
use super::order::{self, ItemKind};

const DIRECTIVE: &str = "$patch";
const DELETE: &str = "delete";
const REPLACE: &str = "replace";
const MERGE: &str = "merge";
const RETAIN_KEYS: &str = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER: &str = "$setElementOrder";

/// The patch metadata of one field; the default (no strategy, no schema) for fields the table
/// does not list, which then merge as plain JSON.
#[derive(Clone, Copy, Default)]
struct Meta {
    strategy: Option<Strategy>,
    merge_key: &'static str,
    ty: Option<&'static TypeSchema>,
}

impl Meta {
    fn of(ty: Option<&'static TypeSchema>, key: &str) -> Self {
        match ty.and_then(|t| t.field(key)) {
            Some(FieldMeta { strategy, merge_key, ty, .. }) => {
                Meta { strategy: Some(*strategy), merge_key: merge_key.unwrap_or(""), ty: *ty }
            }
            None => Meta::default(),
        }
    }

    fn merges_lists(self) -> bool {
        self.strategy.is_some_and(Strategy::merges_lists)
    }

    fn replaces(self) -> bool {
        self.strategy == Some(Strategy::Replace)
    }
}

/// Go's JSON value kinds as `reflect.TypeOf` tells them apart (integers and floats differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoType {
    Nil,
    Bool,
    Int,
    Float,
    String,
    Slice,
    Map,
}

fn go_type(v: &Value) -> GoType {
    match v {
        Value::Null => GoType::Nil,
        Value::Bool(_) => GoType::Bool,
        Value::Number(n) if n.is_i64() => GoType::Int,
        Value::Number(_) => GoType::Float,
        Value::String(_) => GoType::String,
        Value::Array(_) => GoType::Slice,
        Value::Object(_) => GoType::Map,
    }
}

/// Go's `mergeMap`: merges `patch` into `original` under the schema `ty`.
pub(crate) fn merge_map(
    mut original: Map<String, Value>,
    mut patch: Map<String, Value>,
    ty: Option<&'static TypeSchema>,
) -> Result<Map<String, Value>, SmpError> {
    if let Some(directive) = patch.get(DIRECTIVE) {
        return match directive.as_str() {
            Some(REPLACE) => {
                patch.remove(DIRECTIVE);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::new()),
            _ => Err(SmpError::bad_patch_type(directive, &Value::Object(patch.clone()))),
        };
    }
    apply_retain_keys(&mut original, &mut patch)?;
    merge_set_element_order(&mut original, &mut patch, ty)?;
    for (k, patch_v) in patch {
        let (key, is_delete_list) = if k.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            (extract_key(&k, DELETE_FROM_PRIMITIVE_LIST)?, true)
        } else {
            (k, false)
        };
        if patch_v.is_null() {
            original.remove(&key);
            continue;
        }
        // A `$deleteFromPrimitiveList` has nothing to remove from a missing (or differently
        // typed) field; taking its items as the value would add what it asked to delete.
        let Some(orig_v) = original.remove(&key) else {
            if !is_delete_list {
                original.insert(key, patch_v);
            }
            continue;
        };
        if go_type(&orig_v) != go_type(&patch_v) {
            original.insert(key, if is_delete_list { orig_v } else { patch_v });
            continue;
        }
        let meta = Meta::of(ty, &key);
        let merged = match (orig_v, patch_v) {
            (Value::Object(o), Value::Object(p)) => {
                if meta.replaces() {
                    Value::Object(p)
                } else {
                    Value::Object(merge_map(o, p, meta.ty)?)
                }
            }
            (Value::Array(o), Value::Array(p)) => Value::Array(merge_slice_handler(o, p, meta, is_delete_list)?),
            (_, p) => p,
        };
        original.insert(key, merged);
    }
    Ok(original)
}

/// Go's `extractKey`: `$setElementOrder/containers` → `containers`.
fn extract_key(s: &str, prefix: &str) -> Result<String, SmpError> {
    match s.split_once('/') {
        Some((p, rest)) if p == prefix => Ok(rest.to_string()),
        _ if prefix == DELETE_FROM_PRIMITIVE_LIST => Err(SmpError::bad_primitive_list()),
        _ => Err(SmpError::bad_set_element_order()),
    }
}

/// Go's `applyRetainKeysDirective`: clears fields of `original` not named in `$retainKeys`,
/// after checking that the patch sets nothing outside that list.
fn apply_retain_keys(original: &mut Map<String, Value>, patch: &mut Map<String, Value>) -> Result<(), SmpError> {
    let Some(retain) = patch.remove(RETAIN_KEYS) else { return Ok(()) };
    let Value::Array(retain) = retain else { return Err(SmpError::bad_retain_keys()) };
    let keep = |k: &str| retain.iter().any(|v| v.as_str() == Some(k));
    for (k, v) in patch.iter() {
        if v.is_null() || k.starts_with(DELETE_FROM_PRIMITIVE_LIST) || k.starts_with(SET_ELEMENT_ORDER) {
            continue;
        }
        if !keep(k) {
            return Err(SmpError::bad_retain_keys());
        }
    }
    original.retain(|k, _| keep(k));
    Ok(())
}

/// Go's `mergePatchIntoOriginal`: merges each list that has a `$setElementOrder/<field>` and
/// orders the result by it (`$setElementOrder` first, then the patch, then the live order).
fn merge_set_element_order(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
    ty: Option<&'static TypeSchema>,
) -> Result<(), SmpError> {
    let keys: Vec<String> = patch.keys().filter(|k| k.starts_with(SET_ELEMENT_ORDER)).cloned().collect();
    for key in keys {
        let order_v = patch.remove(&key).unwrap_or(Value::Null);
        let Value::Array(set_order) = order_v else {
            return Err(SmpError::bad_arg_type("[]interface {}", &order_v));
        };
        let field = extract_key(&key, SET_ELEMENT_ORDER)?;
        let orig_list = match original.get(&field) {
            None => None,
            Some(Value::Array(a)) => Some(a.clone()),
            Some(other) => return Err(SmpError::bad_arg_type("[]interface {}", other)),
        };
        let patch_list = match patch.get(&field) {
            None => None,
            Some(Value::Array(a)) => Some(a.clone()),
            Some(other) => return Err(SmpError::bad_arg_type("[]interface {}", other)),
        };
        let meta = Meta::of(ty, &field);
        let mk = meta.merge_key;
        validate_set_order(patch_list.as_deref().unwrap_or(&[]), &set_order, mk)?;
        let merged = match (orig_list.clone(), patch_list.clone()) {
            (Some(o), None) => o,
            (None, Some(p)) => p,
            (Some(o), Some(p)) => merge_slice_handler(o, p, meta, false)?,
            (None, None) => continue,
        };
        let kind = slice_kind(&[orig_list.as_deref().unwrap_or(&[]), patch_list.as_deref().unwrap_or(&[])])?;
        let (patch_items, server_only) = if mk.is_empty() {
            if kind == ItemKind::Map {
                // Upstream hashes the maps and panics; there is no order to apply without a key.
                return Err(SmpError::bad_set_element_order());
            }
            order::partition_primitives(merged, &set_order)
        } else {
            order::partition_maps(merged, &set_order, mk)?
        };
        let both = order::normalize_element_order(
            patch_items,
            server_only,
            &set_order,
            orig_list.as_deref().unwrap_or(&[]),
            mk,
            kind,
        )?;
        original.insert(field.clone(), Value::Array(both));
        patch.remove(&field);
    }
    Ok(())
}

/// Go's `validatePatchWithSetOrderList`: the patch's items must appear in `$setElementOrder`, in
/// the same relative order.
fn validate_set_order(patch_list: &[Value], set_order: &[Value], merge_key: &str) -> Result<(), SmpError> {
    if set_order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let non_delete =
        if merge_key.is_empty() { patch_list.to_vec() } else { order::split_deletes(patch_list.to_vec())?.0 };
    let (mut pi, mut si) = (0, 0);
    while pi < non_delete.len() && si < set_order.len() {
        if non_delete[pi].as_object().is_some_and(|m| m.contains_key(DIRECTIVE)) {
            pi += 1;
            continue;
        }
        if merge_key_value_equal(&non_delete[pi], &set_order[si], merge_key)? {
            pi += 1;
        }
        si += 1;
    }
    if pi < non_delete.len() && si >= set_order.len() {
        return Err(SmpError::other(format!(
            "The order in patch list:\n{}\n doesn't match {SET_ELEMENT_ORDER} list:\n{}\n",
            go_value(&Value::Array(patch_list.to_vec())),
            go_value(&Value::Array(set_order.to_vec()))
        )));
    }
    Ok(())
}

fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool, SmpError> {
    if merge_key.is_empty() {
        return Ok(left == right);
    }
    let key_of = |v: &Value| -> Result<Value, SmpError> {
        let m = v.as_object().ok_or_else(|| SmpError::bad_arg_type("map[string]interface {}", v))?;
        m.get(merge_key).cloned().ok_or_else(|| SmpError::no_merge_key(v, merge_key))
    };
    Ok(key_of(left)? == key_of(right)?)
}

/// Go's `mergeSliceHandler`: merged lists merge, every other list is replaced by the patch's.
fn merge_slice_handler(
    original: Vec<Value>,
    patch: Vec<Value>,
    meta: Meta,
    is_delete_list: bool,
) -> Result<Vec<Value>, SmpError> {
    if meta.merges_lists() { merge_slice(original, patch, meta, is_delete_list) } else { Ok(patch) }
}

/// Go's `sliceElementType`: all items of all lists share one JSON type, and it is not a list.
fn slice_kind(lists: &[&[Value]]) -> Result<ItemKind, SmpError> {
    let mut first: Option<GoType> = None;
    for v in lists.iter().flat_map(|l| l.iter()) {
        let t = go_type(v);
        match first {
            None if t == GoType::Slice => return Err(SmpError::no_list_of_lists()),
            None => first = Some(t),
            Some(f) if f != t => {
                let all: Vec<Value> = lists.iter().map(|l| Value::Array(l.to_vec())).collect();
                return Err(SmpError::other(format!(
                    "list element types are not identical: {}",
                    go_value(&Value::Array(all))
                )));
            }
            Some(_) => {}
        }
    }
    match first {
        None => Err(SmpError::other("no elements in any of the given slices")),
        Some(GoType::Map) => Ok(ItemKind::Map),
        Some(_) => Ok(ItemKind::Scalar),
    }
}

/// Go's `mergeSlice`: primitives are unioned (or removed, for a `$deleteFromPrimitiveList`),
/// maps are merged by merge key after applying `$patch` items, then the order is normalised.
fn merge_slice(
    original: Vec<Value>,
    patch: Vec<Value>,
    meta: Meta,
    is_delete_list: bool,
) -> Result<Vec<Value>, SmpError> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let kind = slice_kind(&[&original, &patch])?;
    let mk = meta.merge_key;
    let (original, patch, merged) = if kind == ItemKind::Scalar {
        if is_delete_list {
            return Ok(original.into_iter().filter(|v| !patch.contains(v)).collect());
        }
        let both: Vec<Value> = original.iter().chain(patch.iter()).cloned().collect();
        (original, patch, order::dedupe_scalars(both))
    } else {
        if mk.is_empty() {
            // Only lists of strings merge without a key in the built-in types.
            return Err(SmpError::other("cannot merge lists without merge key for type string"));
        }
        let (original, patch) = apply_list_directives(original, patch, mk)?;
        let merged = merge_items(original.clone(), &patch, mk, meta.ty)?;
        (original, patch, merged)
    };
    let (patch_items, server_only) = if mk.is_empty() {
        order::partition_primitives(merged, &patch)
    } else {
        order::partition_maps(merged, &patch, mk)?
    };
    order::normalize_element_order(patch_items, server_only, &patch, &original, mk, kind)
}

/// Go's `mergeSliceWithSpecialElements`: applies `$patch: delete` items (removing every match),
/// and `$patch: replace` (the patch's other items become the list); returns the new original and
/// the patch without directive items.
fn apply_list_directives(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let mut plain = Vec::new();
    let mut replace = false;
    for v in patch {
        let Some(directive) = v.as_object().and_then(|m| m.get(DIRECTIVE)) else {
            plain.push(v);
            continue;
        };
        match directive.as_str() {
            Some(DELETE) => {
                let Some(value) = v.get(merge_key) else { return Err(SmpError::no_merge_key(&v, merge_key)) };
                while let Some(i) = order::find_map(&original, merge_key, value)? {
                    original.remove(i);
                }
            }
            Some(REPLACE) => replace = true,
            Some(MERGE) => return Err(SmpError::other("merging lists cannot yet be specified in the patch")),
            _ => return Err(SmpError::bad_patch_type(directive, &v)),
        }
    }
    if replace { Ok((plain, Vec::new())) } else { Ok((original, plain)) }
}

/// Go's `mergeSliceWithoutSpecialElements`: each patch item merges into the original item with
/// the same merge key value, or is appended.
fn merge_items(
    mut original: Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    ty: Option<&'static TypeSchema>,
) -> Result<Vec<Value>, SmpError> {
    for v in patch {
        let Some(value) = v.get(merge_key) else { return Err(SmpError::no_merge_key(v, merge_key)) };
        match order::find_map(&original, merge_key, value)? {
            Some(i) => match (std::mem::take(&mut original[i]), v) {
                (Value::Object(o), Value::Object(p)) => original[i] = Value::Object(merge_map(o, p.clone(), ty)?),
                (_, other) => return Err(SmpError::bad_arg_type("map[string]interface {}", other)),
            },
            None => original.push(v.clone()),
        }
    }
    Ok(original)
}

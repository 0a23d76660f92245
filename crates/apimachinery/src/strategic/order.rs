//! Element order of merged lists: patch items in the patch's (or `$setElementOrder`'s) order,
//! interleaved with the items only the server had, in their old order, as kube does it.
//!
//! kube sorts with `sort.SliceStable` and a comparator that calls items it cannot place "less";
//! that is not a strict order, so the result depends on Go's exact algorithm, which
//! [`go_stable_sort`] reproduces step for step.

use serde_json::Value;

use super::errors::SmpError;

/// Items compared as maps (by merge key) or as themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Map,
    Scalar,
}

const DIRECTIVE: &str = "$patch";

/// The position of `val` in `list`: by merge key value for maps (a missing key counts as Go's
/// `nil`, equal to any other missing key), by value otherwise; -1 when absent.
fn index(list: &[Value], val: &Value, merge_key: &str, kind: ItemKind) -> Option<usize> {
    match kind {
        ItemKind::Map => {
            let key_of = |v: &Value| v.as_object().and_then(|m| m.get(merge_key)).cloned();
            let want = key_of(val);
            list.iter().position(|v| key_of(v) == want)
        }
        ItemKind::Scalar => list.iter().position(|v| v == val),
    }
}

/// Go's `deduplicateScalars`: drops repeats by swapping in the last item (order changes).
pub(crate) fn dedupe_scalars(mut s: Vec<Value>) -> Vec<Value> {
    let mut length = s.len() as isize - 1;
    let mut i = 0isize;
    while i < length {
        let mut j = i + 1;
        while j <= length {
            if s[i as usize] == s[j as usize] {
                s[j as usize] = s[length as usize].clone();
                s.truncate(length as usize);
                length -= 1;
                j -= 1;
            }
            j += 1;
        }
        i += 1;
    }
    s
}

/// Splits `merged` into the primitives present in `by` and the rest, keeping order.
pub(crate) fn partition_primitives(merged: Vec<Value>, by: &[Value]) -> (Vec<Value>, Vec<Value>) {
    merged.into_iter().partition(|v| by.contains(v))
}

/// Splits `merged` into the maps whose merge key value appears in `by` and the rest.
pub(crate) fn partition_maps(
    merged: Vec<Value>,
    by: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let mut patch = Vec::new();
    let mut server_only = Vec::new();
    for v in merged {
        let Some(m) = v.as_object() else { return Err(SmpError::bad_arg_type("map[string]interface {}", &v)) };
        let Some(key) = m.get(merge_key) else { return Err(SmpError::no_merge_key(&v, merge_key)) };
        if find_map(by, merge_key, key)?.is_some() {
            patch.push(v);
        } else {
            server_only.push(v);
        }
    }
    Ok((patch, server_only))
}

/// Go's `findMapInSliceBasedOnKeyValue`: the index of the first map whose `key` equals `value`.
pub fn find_map(list: &[Value], key: &str, value: &Value) -> Result<Option<usize>, SmpError> {
    for (i, v) in list.iter().enumerate() {
        let Some(m) = v.as_object() else { return Err(SmpError::other(format!("value for key {i} is not a map."))) };
        if m.get(key) == Some(value) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Go's `normalizeElementOrder`: sorts the patch items by `patch_order` and the server-only items
/// by `server_order`, then interleaves them.
pub(crate) fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Result<Vec<Value>, SmpError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    Ok(merge_sorted(server_only, patch, server_order, merge_key, kind))
}

/// Go's `normalizeSliceOrder`: maps must carry the merge key; `$patch: delete` items go last.
fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Result<Vec<Value>, SmpError> {
    let (mut to_sort, to_delete) = if kind == ItemKind::Map {
        for item in to_sort.iter().chain(order) {
            match item.as_object() {
                None => return Err(SmpError::bad_arg_type("map[string]interface {}", item)),
                Some(m) if !m.contains_key(merge_key) => return Err(SmpError::no_merge_key(item, merge_key)),
                Some(_) => {}
            }
        }
        split_deletes(to_sort)?
    } else {
        (to_sort, Vec::new())
    };
    go_stable_sort(&mut to_sort, |a, b| match (index(order, a, merge_key, kind), index(order, b, merge_key, kind)) {
        (Some(i), Some(j)) => i < j,
        _ => true,
    });
    to_sort.extend(to_delete);
    Ok(to_sort)
}

/// Go's `extractToDeleteItems`: (items to keep, items marked `$patch: delete`).
pub(crate) fn split_deletes(list: Vec<Value>) -> Result<(Vec<Value>, Vec<Value>), SmpError> {
    let mut keep = Vec::new();
    let mut delete = Vec::new();
    for v in list {
        let Some(m) = v.as_object() else { return Err(SmpError::bad_arg_type("map[string]interface {}", &v)) };
        if m.get(DIRECTIVE).and_then(Value::as_str) == Some("delete") {
            delete.push(v);
        } else {
            keep.push(v);
        }
    }
    Ok((keep, delete))
}

/// Go's `mergeSortedSlice`: inserts each item of `left` before the first item of `right` that
/// comes after it in `server_order`; the relative order within each list is kept.
fn merge_sorted(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: &str,
    kind: ItemKind,
) -> Vec<Value> {
    let less =
        |l: &Value, r: &Value| match (index(server_order, l, merge_key, kind), index(server_order, r, merge_key, kind))
        {
            (Some(i), Some(j)) => i < j,
            _ => false,
        };
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => out.extend(left.next()),
            (None, Some(_)) => out.extend(right.next()),
            (Some(l), Some(r)) => {
                if less(l, r) {
                    out.extend(left.next());
                } else {
                    out.extend(right.next());
                }
            }
        }
    }
    out
}

/// Go's `sort.SliceStable`: insertion sort over blocks of 20, then in-place symmetric merges.
pub(crate) fn go_stable_sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, &less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, &less);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(data, a, a + block, b, &less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, &less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sym_merge<T>(data: &mut [T], a: usize, m: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i.saturating_sub(1) {
            data.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&data[m], &data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&data[p - c], &data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_sort_sorts_and_keeps_ties_in_order() {
        // More than one block of 20, so the merge phase runs too.
        let mut v: Vec<(u32, usize)> = (0..57).map(|i| ((i * 37 % 11) as u32, i)).collect();
        go_stable_sort(&mut v, |a, b| a.0 < b.0);
        for w in v.windows(2) {
            assert!(w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1), "{w:?}");
        }
    }

    #[test]
    fn dedupe_swaps_in_the_last_item_like_go() {
        let v: Vec<Value> = ["a", "b", "a", "c"].iter().map(|s| Value::from(*s)).collect();
        assert_eq!(dedupe_scalars(v), [Value::from("a"), Value::from("b"), Value::from("c")]);
        let v: Vec<Value> = ["a", "a", "b", "c"].iter().map(|s| Value::from(*s)).collect();
        assert_eq!(dedupe_scalars(v), [Value::from("a"), Value::from("c"), Value::from("b")]);
    }
}

//! Fuzz bodies shared by the `fuzz/` cargo-fuzz targets and the proptest-driven unit tests.
//!
//! Each body takes arbitrary bytes and panics only when a property is violated, which is what
//! a fuzzer reports; so the asserts here are the point, not error handling.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::field_selector::FieldSelector;
use super::patch::{apply_json_patch, apply_merge_patch};
use super::selector::LabelSelector;
use super::strategic::{apply_strategic_merge_patch, schema_for};

/// Parses the input as label and field selectors; whatever parses must print to a string that
/// parses back to the same selector, and matching must not panic.
pub fn selector_body(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if let Ok(sel) = LabelSelector::parse(s) {
        let shown = sel.to_string();
        assert_eq!(LabelSelector::parse(&shown).as_ref(), Ok(&sel), "label selector {s:?} printed as {shown:?}");
        let labels: BTreeMap<String, String> = sel
            .requirements()
            .iter()
            .map(|r| (r.key().to_string(), r.values().first().cloned().unwrap_or_default()))
            .collect();
        let _ = sel.matches(&labels);
    }
    if let Ok(sel) = FieldSelector::parse(s) {
        let shown = sel.to_string();
        assert_eq!(FieldSelector::parse(&shown).as_ref(), Ok(&sel), "field selector {s:?} printed as {shown:?}");
        let _ = sel.matches(&|f: &str| Some(f.to_string()));
    }
}

/// The object both patch kinds are applied to.
pub fn patch_target() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "x", "namespace": "default", "labels": {"a": "1"}, "finalizers": ["f"]},
        "data": {"k": "v", "list": "1,2"},
        "spec": {"items": [1, {"n": null}, [2]], "nested": {"deep": {"x": true}}}
    })
}

/// Applies the input as a JSON patch and as a merge patch to [`patch_target`]. Neither may
/// panic. A successful merge patch yields an object in which each top-level patch key is
/// present (non-null value) or absent (null), and the patch applies again to its own result.
/// (Full idempotence does not hold: like kube's merge, nulls in objects nested in arrays are
/// pruned only where the target had no object.)
pub fn patch_body(data: &[u8]) {
    let target = patch_target();
    let _ = apply_json_patch(&target, data);
    let Ok(merged) = apply_merge_patch(&target, data) else { return };
    let (Value::Object(out), Ok(Value::Object(patch))) = (&merged, serde_json::from_slice::<Value>(data)) else {
        panic!("merge patch accepted a non-object patch or produced a non-object");
    };
    for (k, v) in &patch {
        assert_eq!(out.contains_key(k), !v.is_null(), "key {k:?} after merging {v}");
    }
    assert!(apply_merge_patch(&merged, data).is_ok(), "merge patch does not re-apply");
}

/// The Deployment strategic merge patches are applied to: lists merged by key (containers, env,
/// ports, volumes), a primitive set (finalizers), a retainKeys object and a replaced list.
pub fn strategic_target() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "x", "namespace": "default", "labels": {"a": "1"}, "finalizers": ["f", "g"]},
        "spec": {
            "replicas": 1,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
            "template": {"spec": {
                "containers": [
                    {"name": "a", "image": "i", "env": [{"name": "E", "value": "1"}], "ports": [{"containerPort": 80}]},
                    {"name": "b", "image": "j"}
                ],
                "volumes": [{"name": "v", "emptyDir": {}}],
                "tolerations": [{"key": "k"}]
            }}
        }
    })
}

/// Applies the input as a strategic merge patch to [`strategic_target`] with the Deployment's
/// patch metadata. It must not panic and may only fail with 400 or 422. Without a top-level
/// `$patch`, each other top-level key of an accepted patch is present (non-null value) or absent
/// (null) afterwards, and the patch applies again to its own result.
pub fn strategic_body(data: &[u8]) {
    let target = strategic_target();
    let schema = schema_for("apps", "Deployment");
    let patched = match apply_strategic_merge_patch(&target, data, schema) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.code == 400 || e.code == 422, "strategic patch failed with {}: {}", e.code, e.message);
            return;
        }
    };
    let Value::Object(out) = &patched else { panic!("strategic patch produced a non-object: {patched}") };
    let Ok(Value::Object(patch)) = serde_json::from_slice::<Value>(data) else { return };
    if patch.contains_key("$patch") {
        return;
    }
    for (k, v) in patch.iter().filter(|(k, _)| !k.starts_with('$')) {
        assert_eq!(out.contains_key(k), !v.is_null(), "key {k:?} after strategic patch {v}");
    }
    if let Err(e) = apply_strategic_merge_patch(&patched, data, schema) {
        assert!(e.code == 400 || e.code == 422, "re-applying failed with {}: {}", e.code, e.message);
    }
}

/// Reads the input as the frames a SPDY peer sends, under a server's bounds (1 MiB frames):
/// nothing panics, and every frame read encodes to bytes that read back as the same frame.
pub fn spdy_body(data: &[u8]) {
    use super::spdy::{FrameReader, FrameWriter, MAX_FRAME};
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    runtime.block_on(async {
        let (mut reader, mut writer, mut again) =
            (FrameReader::new(1 << 20), FrameWriter::default(), FrameReader::new(MAX_FRAME));
        let mut input = data;
        while let Ok(frame) = reader.read(&mut input).await {
            let bytes = writer.encode(&frame);
            let back = again.read(&mut bytes.as_slice()).await;
            assert_eq!(back.as_ref(), Ok(&frame), "{frame:?} encoded as {bytes:?}");
        }
    });
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    fn json_leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-5i64..5).prop_map(Value::from),
            "[a-z]{0,3}".prop_map(Value::from),
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        json_leaf().prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map("[a-z]{1,2}|metadata|spec|data|labels|items", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn pointer() -> impl Strategy<Value = String> {
        let seg = prop_oneof![
            Just("metadata".to_string()),
            Just("labels".to_string()),
            Just("spec".to_string()),
            Just("items".to_string()),
            Just("data".to_string()),
            Just("-".to_string()),
            "[0-3]".prop_map(String::from),
            "[a-z~/]{0,2}".prop_map(String::from),
        ];
        proptest::collection::vec(seg, 0..4).prop_map(|segs| segs.iter().map(|s| format!("/{s}")).collect())
    }

    fn operation() -> impl Strategy<Value = Value> {
        let ops = prop_oneof![
            Just("add"),
            Just("remove"),
            Just("replace"),
            Just("move"),
            Just("copy"),
            Just("test"),
            Just("bogus")
        ];
        (ops, pointer(), pointer(), json_value(), any::<bool>()).prop_map(|(op, path, from, value, with_value)| {
            let mut o = json!({"op": op, "path": path, "from": from});
            if with_value {
                o["value"] = value;
            }
            o
        })
    }

    /// JSON shaped like strategic merge patches of a Deployment: its field names, merge keys and
    /// every directive, so the fuzzer reaches the merge code rather than only the parser.
    fn smp_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            (-2i64..3).prop_map(Value::from),
            prop_oneof![Just("a"), Just("b"), Just("delete"), Just("replace"), Just("merge"), Just("name"), Just("x")]
                .prop_map(Value::from),
        ];
        let key = prop_oneof![
            Just("metadata"),
            Just("spec"),
            Just("template"),
            Just("containers"),
            Just("env"),
            Just("ports"),
            Just("volumes"),
            Just("finalizers"),
            Just("strategy"),
            Just("tolerations"),
            Just("name"),
            Just("containerPort"),
            Just("image"),
            Just("value"),
            Just("labels"),
            Just("$patch"),
            Just("$retainKeys"),
            Just("$setElementOrder/containers"),
            Just("$setElementOrder/finalizers"),
            Just("$setElementOrder/env"),
            Just("$deleteFromPrimitiveList/finalizers"),
            Just("$deleteFromPrimitiveList"),
            Just("$setElementOrder"),
        ];
        leaf.prop_recursive(4, 24, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map(key.clone(), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn strategic_body_holds_on_patch_shaped_json(p in smp_value()) {
            strategic_body(p.to_string().as_bytes());
        }

        #[test]
        fn strategic_body_holds_on_random_json(p in json_value()) {
            strategic_body(p.to_string().as_bytes());
        }

        #[test]
        fn strategic_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..40)) {
            strategic_body(&b);
        }

        #[test]
        fn selector_body_holds_on_random_text(s in "[a-z0-9!=<>(),. /\\\\_-]{0,30}|\\PC{0,30}") {
            selector_body(s.as_bytes());
        }

        #[test]
        fn spdy_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..64)) {
            spdy_body(&b);
        }

        #[test]
        fn spdy_body_holds_on_kubectls_frames_with_a_byte_changed(at in 0usize..113, to in any::<u8>()) {
            // kubectl 1.27's first three SYN_STREAMs (see spdy's tests), one byte changed.
            let hex = concat!(
                "80030001000000290000000100000000000078f9e3c6a7c26260606004a7b392a2d4c45c6851c29a0a0a6800000000ffff",
                "800300010000001700000003000000000000c22e555c92929907000000ffff",
                "800300010000001900000005000000000000c22ac5565c92925f5a02000000ffff",
            );
            let mut bytes: Vec<u8> =
                (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
            bytes[at] = to;
            spdy_body(&bytes);
        }

        #[test]
        fn spdy_body_holds_on_control_frame_shaped_bytes(
            kind in 1u8..10,
            flags in any::<u8>(),
            payload in proptest::collection::vec(any::<u8>(), 0..40),
        ) {
            let mut frame = vec![0x80, 3, 0, kind, flags, 0, 0, payload.len() as u8];
            frame.extend(payload);
            spdy_body(&frame);
        }

        #[test]
        fn selector_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..40)) {
            selector_body(&b);
        }

        #[test]
        fn patch_body_holds_on_json_patches(ops in proptest::collection::vec(operation(), 0..5)) {
            patch_body(Value::from(ops).to_string().as_bytes());
        }

        #[test]
        fn patch_body_holds_on_merge_patches(p in json_value()) {
            patch_body(p.to_string().as_bytes());
        }

        #[test]
        fn patch_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..40)) {
            patch_body(&b);
        }
    }
}

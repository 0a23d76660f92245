//! Unit tests for patch.rs: RFC behaviour, kube's status codes, and the no-panic property.

use serde_json::json;

use super::*;

fn obj() -> Value {
    json!({"metadata": {"name": "x", "labels": {"a": "1"}}, "spec": {"replicas": 1, "list": [1, 2, 3]}})
}

fn code(r: Result<Value, ApiError>) -> (u16, String) {
    match r {
        Ok(v) => (200, v.to_string()),
        Err(e) => (e.code, e.message),
    }
}

#[test]
fn json_patch_applies() {
    let p = br#"[{"op":"test","path":"/metadata/name","value":"x"},
                {"op":"replace","path":"/spec/replicas","value":3},
                {"op":"add","path":"/spec/list/-","value":4},
                {"op":"remove","path":"/metadata/labels/a"},
                {"op":"copy","from":"/metadata/name","path":"/metadata/labels/n"},
                {"op":"move","from":"/spec/list/0","path":"/spec/first"}]"#;
    let got = apply_json_patch(&obj(), p);
    assert_eq!(
        got,
        Ok(
            json!({"metadata": {"name": "x", "labels": {"n": "x"}}, "spec": {"replicas": 3, "list": [2, 3, 4], "first": 1}})
        )
    );
    assert_eq!(apply_json_patch(&obj(), b"null"), Ok(obj()));
    assert_eq!(apply_json_patch(&obj(), b"[]"), Ok(obj()));
}

#[test]
fn json_patch_failures_are_422() {
    for p in [
        r#"[{"op":"test","path":"/metadata/name","value":"y"}]"#,
        r#"[{"op":"remove","path":"/nope"}]"#,
        r#"[{"op":"replace","path":"/spec/missing","value":1}]"#,
        r#"[{"op":"bogus","path":"/spec"}]"#,
        r#"[{"op":"add","path":"no-slash","value":1}]"#,
        r#"[{"path":"/spec"}]"#,
        r#"[null]"#,
        r#"[{"op":"move","from":"/spec","path":"/spec/inner"}]"#,
    ] {
        let err = apply_json_patch(&obj(), p.as_bytes());
        let err = err.err();
        assert_eq!(err.as_ref().map(|e| e.code), Some(422), "{p}");
        let status = err.map(|e| e.to_status_json()).unwrap_or_default();
        assert_eq!(status["reason"], "Invalid");
        assert_eq!(status["message"], "the server rejected our request due to an error in our request");
        assert_eq!(status["details"], json!({}));
    }
}

#[test]
fn json_patch_decode_errors_are_400() {
    let cases = [
        (
            r#"{"op":"add"}"#,
            "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
        ),
        (r#"["x"]"#, "error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp"),
        (
            r#"[{"op":1,"path":"/a"}]"#,
            "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string",
        ),
    ];
    for (p, want) in cases {
        assert_eq!(code(apply_json_patch(&obj(), p.as_bytes())), (400, want.to_string()), "{p}");
    }
    let (c, msg) = code(apply_json_patch(&obj(), b"[{"));
    assert_eq!(c, 400);
    assert!(msg.starts_with("error decoding patch: "), "{msg}");
}

#[test]
fn json_patch_operation_limit() {
    let one = r#"{"op":"test","path":"/metadata/name","value":"x"}"#;
    let many = format!("[{}]", vec![one; MAX_JSON_PATCH_OPERATIONS + 1].join(","));
    let err = apply_json_patch(&obj(), many.as_bytes()).err();
    assert_eq!(err.as_ref().map(|e| e.code), Some(413));
    assert_eq!(
        err.map(|e| e.message).unwrap_or_default(),
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );
}

#[test]
fn undo_sequence_that_panics_json_patch_is_safe() {
    // json_patch::patch would try to undo a move into the root and hit `unreachable!`.
    let p = br#"[{"op":"move","from":"/metadata","path":""},{"op":"test","path":"/zzz","value":1}]"#;
    assert_eq!(code(apply_json_patch(&obj(), p)).0, 422);
}

#[test]
fn created_merge_patches_carry_only_the_change() {
    let old = json!({"metadata": {"labels": {"a": "1", "b": "2"}, "name": "x"}, "spec": {"r": [1]}});
    let new = json!({"metadata": {"labels": {"a": "3", "c": "4"}, "name": "x"}, "spec": {"r": [1]}});
    let patch = create_merge_patch(&old, &new);
    assert_eq!(patch, json!({"metadata": {"labels": {"a": "3", "b": null, "c": "4"}}}));
    assert_eq!(apply_merge_patch(&old, patch.to_string().as_bytes()), Ok(new));
    assert_eq!(create_merge_patch(&old, &old), json!({}));
}

#[test]
fn merge_patch_semantics() {
    let p = br#"{"metadata":{"labels":{"a":null,"b":"2"}},"spec":{"list":[9,null,{"k":null}],"new":{"x":null,"y":1}}}"#;
    assert_eq!(
        apply_merge_patch(&obj(), p),
        Ok(json!({"metadata": {"name": "x", "labels": {"b": "2"}},
                  "spec": {"replicas": 1, "list": [9, null, {}], "new": {"y": 1}}}))
    );
    // An object replaced by a scalar, and a scalar replaced by an object with nulls.
    let p = br#"{"metadata":"gone","spec":{"replicas":{"a":null,"b":1}}}"#;
    assert_eq!(
        apply_merge_patch(&obj(), p),
        Ok(json!({"metadata": "gone", "spec": {"replicas": {"b": 1}, "list": [1, 2, 3]}}))
    );
    assert_eq!(apply_merge_patch(&obj(), b"{}"), Ok(obj()));
}

#[test]
fn merge_patch_errors() {
    assert_eq!(code(apply_merge_patch(&obj(), b"null")), (400, "Invalid JSON Patch".to_string()));
    assert_eq!(
        code(apply_merge_patch(&obj(), b"[1]")),
        (
            400,
            "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
                .to_string()
        )
    );
    assert_eq!(code(apply_merge_patch(&obj(), b"\"s\"")).0, 400);
    assert_eq!(code(apply_merge_patch(&obj(), b"{")).0, 400);
}

/// `n` copies of the whole `data` map into itself: each doubles the document.
fn doubling_copies(n: usize) -> String {
    let ops: Vec<String> = (0..n).map(|i| format!(r#"{{"op":"copy","from":"/data","path":"/data/k{i}"}}"#)).collect();
    format!("[{}]", ops.join(","))
}

#[test]
fn copies_past_the_budget_fail_before_growing() {
    let doc = json!({"data": {"seed": "x".repeat(100)}});
    // A dozen doublings of ~110 bytes stay under 1 MiB; sixty would need exabytes.
    let ok = apply_json_patch_within(&doc, doubling_copies(12).as_bytes(), 1 << 20).unwrap();
    assert!(ok.to_string().len() > 400_000);
    let err = apply_json_patch_within(&doc, doubling_copies(60).as_bytes(), 1 << 20).unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (422, UNPROCESSABLE_MSG));
    // The budget is what all copies add together, as upstream counts it.
    let value = "y".repeat(40);
    let two = r#"[{"op":"copy","from":"/v","path":"/a"},{"op":"copy","from":"/v","path":"/b"}]"#;
    let doc = json!({ "v": value });
    assert!(apply_json_patch_within(&doc, two.as_bytes(), 84).is_ok());
    assert_eq!(apply_json_patch_within(&doc, two.as_bytes(), 83).unwrap_err().code, 422);
    // The default budget is kube's 3 MiB.
    assert_eq!(apply_json_patch(&json!({"data": {"s": "x"}}), doubling_copies(60).as_bytes()).unwrap_err().code, 422);
}

#[test]
fn operations_that_nest_too_deep_fail() {
    // Copying a map into itself nests it one level further each time.
    let ops: Vec<String> = (0..MAX_DEPTH + 5)
        .map(|i| {
            let path = "/a".repeat(i + 1);
            format!(r#"{{"op":"copy","from":"/a","path":"{path}/a"}}"#)
        })
        .collect();
    let err = apply_json_patch(&json!({"a": {}}), format!("[{}]", ops.join(",")).as_bytes()).unwrap_err();
    assert_eq!(err.code, 422);
    let deep = (0..MAX_DEPTH).fold(json!(1), |inner, _| json!({ "a": inner }));
    let add = format!(r#"[{{"op":"add","path":"/x","value":{deep}}}]"#);
    assert_eq!(apply_json_patch(&json!({}), add.as_bytes()).unwrap_err().code, 422);
    let add = format!(r#"[{{"op":"add","path":"/x","value":{}}}]"#, deep["a"]);
    assert!(apply_json_patch(&json!({}), add.as_bytes()).is_ok());
}

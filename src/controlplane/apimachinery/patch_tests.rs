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

//! Raw requests to a plane through kube's client, for tests that check the exact status code
//! and body the server answers.

#![allow(dead_code)]

use http::{Method, Request};
use kube::Client;
use serde_json::Value;

/// Sends a raw request and returns (status code, body as JSON, or as a JSON string when the
/// body is not JSON).
pub async fn send(client: &Client, method: Method, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    let req = Request::builder().method(method).uri(path).header("content-type", content_type).body(body).unwrap();
    let resp = client.send(req.map(kube::client::Body::from)).await.unwrap();
    let code = resp.status().as_u16();
    let bytes = http_body_util::BodyExt::collect(resp.into_body()).await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (code, json)
}

//! The dashboard from a test's side: a one-time login link from the real
//! `karmadactl dashboard`, and raw HTTPS calls to the plane that carry (or leave out) the
//! session cookie and the anti-CSRF header, through kube's client with no credentials of its
//! own.

#![allow(dead_code)]

use std::path::Path;

use http::{HeaderMap, Method, Request};
use serde_json::Value;

pub const CSRF: (&str, &str) = ("X-Karmada-Dashboard", "1");

/// `karmadactl dashboard -o json` with `kubeconfig`: the link, its lifetime and its user.
pub fn login_link(home: &Path, kubeconfig: &Path) -> Value {
    let mut cmd = super::karmadactl(home);
    cmd.args(["dashboard", "-o", "json", "--kubeconfig"]).arg(kubeconfig);
    let run = super::run(cmd);
    assert_eq!(run.code, 0, "karmadactl dashboard failed:\n{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("dashboard -o json prints JSON")
}

/// The code in a login link's fragment.
pub fn code_of(link: &Value) -> String {
    let url = link["url"].as_str().expect("a url");
    url.split_once("#code=").expect("the code is in the fragment").1.to_string()
}

/// A client for `kubeconfig`'s server that trusts its CA; its user's credentials, if any,
/// are sent too (an anonymous kubeconfig makes the browser's position).
pub async fn client(kubeconfig: &Path) -> kube::Client {
    let kc = kube::config::Kubeconfig::read_from(kubeconfig).expect("a kubeconfig");
    let cfg = kube::Config::from_custom_kubeconfig(kc, &Default::default()).await.expect("a client config");
    kube::Client::try_from(cfg).expect("a client")
}

/// One answer: status, headers, body (JSON, or the text as a JSON string).
pub struct Answer {
    pub code: u16,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }

    /// The session cookie's value from `Set-Cookie`.
    pub fn session_cookie(&self) -> String {
        let set = self.header("set-cookie");
        let first = set.split(';').next().unwrap_or("");
        let (name, value) = first.split_once('=').expect("a Set-Cookie header");
        assert_eq!(name, "__Host-karmada-dashboard", "{set}");
        value.to_string()
    }
}

/// Sends one request with extra headers and a body.
pub async fn send(client: &kube::Client, method: Method, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(kube::client::Body::from(body.as_bytes().to_vec())).unwrap();
    let resp = client.send(req).await.expect("the plane answers");
    let code = resp.status().as_u16();
    let headers = resp.headers().clone();
    let bytes = http_body_util::BodyExt::collect(resp.into_body()).await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    Answer { code, headers, body }
}

/// Exchanges a login code for a session cookie (and checks the cookie's attributes).
pub async fn exchange(anon: &kube::Client, code: &str) -> String {
    let body = serde_json::json!({ "code": code }).to_string();
    let a =
        send(anon, Method::POST, "/dashboard/api/session", &[CSRF, ("content-type", "application/json")], &body).await;
    assert_eq!(a.code, 200, "{}", a.body);
    let set = a.header("set-cookie").to_string();
    for attribute in ["Path=/", "Secure", "HttpOnly", "SameSite=Strict"] {
        assert!(set.split("; ").any(|p| p == attribute), "{attribute} missing from {set}");
    }
    a.session_cookie()
}

pub fn cookie(secret: &str) -> String {
    format!("__Host-karmada-dashboard={secret}")
}

//! The dashboard's login and session rules over plain HTTPS, replaying what an attacker would
//! try: a used or expired login code, the cookie without the page's anti-CSRF header, a
//! forged cookie, and a restricted user's session doing what its RBAC forbids.

use std::time::Duration;

use http::Method;
use serde_json::json;

use crate::common::dashboard::{CSRF, client, code_of, cookie, exchange, login_link, send};
use crate::common::plane::Plane;

const REVIEW: &str = r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#;
const REVIEWS: &str = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn anonymous_kubeconfig(plane: &Plane) -> std::path::PathBuf {
    plane.user_kubeconfig("anonymous", "    {}\n")
}

#[test]
fn the_page_is_served_with_strict_headers_and_no_login_needed() {
    let plane = Plane::start();
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let page = send(&anon, Method::GET, "/dashboard/", &[], "").await;
        assert_eq!(page.code, 200);
        assert!(page.header("content-type").starts_with("text/html"));
        let csp = page.header("content-security-policy");
        for directive in ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"] {
            assert!(csp.contains(directive), "{directive} missing from {csp}");
        }
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
        assert_eq!(page.header("x-content-type-options"), "nosniff");
        assert_eq!(page.header("referrer-policy"), "no-referrer");
        assert!(page.body.as_str().unwrap().contains("<script type=\"module\" src=\"app.js\"></script>"));
        let script = send(&anon, Method::GET, "/dashboard/app.js", &[], "").await;
        assert_eq!(script.code, 200);
        assert!(script.header("content-type").starts_with("text/javascript"));
        assert_eq!(send(&anon, Method::GET, "/dashboard/secrets.js", &[], "").await.code, 404);
        let redirect = send(&anon, Method::GET, "/dashboard", &[], "").await;
        assert_eq!((redirect.code, redirect.header("location")), (308, "/dashboard/"));
        // Not logged in: the page learns so from the session endpoint.
        assert_eq!(send(&anon, Method::GET, "/dashboard/api/session", &[CSRF], "").await.code, 401);
    });
}

#[test]
fn a_login_link_works_once_and_acts_as_its_user() {
    let plane = Plane::start();
    let link = login_link(plane.dir.path(), &plane.kubeconfig);
    assert!(link["url"].as_str().unwrap().starts_with(&format!("{}/dashboard/#code=", plane.url)), "{link}");
    assert_eq!(link["expiresInSeconds"], 60);
    assert_eq!(link["user"]["username"], "system:admin");
    let code = code_of(&link);
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        // Without the page's header the exchange is refused, and the code is not spent.
        let body = json!({ "code": code }).to_string();
        let forged = send(&anon, Method::POST, "/dashboard/api/session", &[], &body).await;
        assert_eq!(forged.code, 403, "{}", forged.body);
        let secret = exchange(&anon, &code).await;

        // The replayed code is refused.
        let replay = send(&anon, Method::POST, "/dashboard/api/session", &[CSRF], &body).await;
        assert_eq!(replay.code, 401, "{}", replay.body);
        assert!(replay.body["message"].as_str().unwrap().contains("already used"), "{}", replay.body);

        let with_cookie = cookie(&secret);
        let who = send(
            &anon,
            Method::POST,
            REVIEWS,
            &[CSRF, ("cookie", &with_cookie), ("content-type", "application/json")],
            REVIEW,
        )
        .await;
        assert_eq!(who.code, 201, "{}", who.body);
        assert_eq!(who.body["status"]["userInfo"]["username"], "system:admin");
        assert!(
            who.body["status"]["userInfo"]["groups"].as_array().unwrap().contains(&json!("system:masters")),
            "{}",
            who.body
        );

        // The cookie alone (a cross-site form or link would send it) is refused.
        let csrf = send(&anon, Method::GET, "/api/v1/namespaces", &[("cookie", &with_cookie)], "").await;
        assert_eq!(csrf.code, 403, "{}", csrf.body);
        assert!(csrf.body["message"].as_str().unwrap().contains("X-Karmada-Dashboard"), "{}", csrf.body);
        let ok = send(&anon, Method::GET, "/api/v1/namespaces", &[CSRF, ("cookie", &with_cookie)], "").await;
        assert_eq!(ok.code, 200, "{}", ok.body);

        // A session cannot mint itself a fresh login, which would let it outlive its limit.
        let prolong =
            send(&anon, Method::POST, "/dashboard/api/login-codes", &[CSRF, ("cookie", &with_cookie)], "").await;
        assert_eq!(prolong.code, 403, "{}", prolong.body);

        // A cookie the plane never issued is no one.
        let forged = cookie("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
        assert_eq!(send(&anon, Method::GET, "/api/v1/namespaces", &[CSRF, ("cookie", &forged)], "").await.code, 401);

        // Logout ends the session for good and clears the cookie.
        let out = send(&anon, Method::DELETE, "/dashboard/api/session", &[CSRF, ("cookie", &with_cookie)], "").await;
        assert_eq!(out.code, 200);
        assert!(out.header("set-cookie").contains("Max-Age=0"), "{}", out.header("set-cookie"));
        let after = send(&anon, Method::GET, "/api/v1/namespaces", &[CSRF, ("cookie", &with_cookie)], "").await;
        assert_eq!(after.code, 401);
    });
}

#[test]
fn an_expired_login_code_is_refused() {
    let plane = Plane::start_with(&["--dashboard-login-code-ttl", "1s"]);
    let link = login_link(plane.dir.path(), &plane.kubeconfig);
    assert_eq!(link["expiresInSeconds"], 1);
    std::thread::sleep(Duration::from_millis(1500));
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let body = json!({ "code": code_of(&link) }).to_string();
        let late = send(&anon, Method::POST, "/dashboard/api/session", &[CSRF], &body).await;
        assert_eq!(late.code, 401, "{}", late.body);
    });
}

#[test]
fn anonymous_users_get_no_login_code() {
    let plane = Plane::start();
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let a = send(&anon, Method::POST, "/dashboard/api/login-codes", &[], "").await;
        assert_eq!(a.code, 401, "{}", a.body);
    });
}

#[test]
fn a_restricted_users_session_is_refused_what_its_rbac_forbids() {
    let plane = Plane::start();
    plane.create(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cluster-viewer\nrules:\n- apiGroups: [cluster.karmada.io]\n  resources: [clusters]\n  verbs: [get, list, watch]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: viewer-views\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cluster-viewer\nsubjects:\n- kind: User\n  name: viewer\n",
    );
    plane.wait_authorized("viewer", "list", "clusters.cluster.karmada.io", &[]);
    let viewer = plane.cert_kubeconfig("viewer", &["viewers"]);
    let link = login_link(plane.dir.path(), &viewer);
    assert_eq!(link["user"]["username"], "viewer");
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let secret = exchange(&anon, &code_of(&link)).await;
        let c = cookie(&secret);
        let clusters = "/apis/cluster.karmada.io/v1alpha1/clusters";
        let list = send(&anon, Method::GET, clusters, &[CSRF, ("cookie", &c)], "").await;
        assert_eq!(list.code, 200, "{}", list.body);
        let patch = r#"[{"op":"add","path":"/spec/taints","value":[{"key":"cluster.karmada.io/unschedulable","effect":"NoSchedule"}]}]"#;
        let cordon = send(
            &anon,
            Method::PATCH,
            &format!("{clusters}/member1"),
            &[CSRF, ("cookie", &c), ("content-type", "application/json-patch+json")],
            patch,
        )
        .await;
        assert_eq!(cordon.code, 403, "{}", cordon.body);
        let message = cordon.body["message"].as_str().unwrap();
        assert!(message.contains("User \"viewer\" cannot patch resource \"clusters\""), "{message}");
        let secrets = send(&anon, Method::GET, "/api/v1/secrets", &[CSRF, ("cookie", &c)], "").await;
        assert_eq!(secrets.code, 403, "{}", secrets.body);
    });
}

#[test]
fn a_pasted_token_logs_in_as_its_service_account_until_revoked() {
    let plane = Plane::start();
    plane.create("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n  namespace: default\n");
    let token = plane.kubectl_ok(&["create", "token", "robot", "-n", "default"]).trim().to_string();
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let bogus = json!({ "token": "not-a-token" }).to_string();
        assert_eq!(send(&anon, Method::POST, "/dashboard/api/session", &[CSRF], &bogus).await.code, 401);
        let body = json!({ "token": token }).to_string();
        let login = send(&anon, Method::POST, "/dashboard/api/session", &[CSRF], &body).await;
        assert_eq!(login.code, 200, "{}", login.body);
        assert_eq!(login.body["user"]["username"], "system:serviceaccount:default:robot");
        let c = cookie(&login.session_cookie());
        let who =
            send(&anon, Method::POST, REVIEWS, &[CSRF, ("cookie", &c), ("content-type", "application/json")], REVIEW)
                .await;
        assert_eq!(who.body["status"]["userInfo"]["username"], "system:serviceaccount:default:robot", "{}", who.body);
        // The token is checked on every request: deleting its ServiceAccount ends the session.
        plane.kubectl_ok(&["delete", "serviceaccount", "robot", "-n", "default"]);
        let mut code = 0;
        for _ in 0..200 {
            code = send(
                &anon,
                Method::POST,
                REVIEWS,
                &[CSRF, ("cookie", &c), ("content-type", "application/json")],
                REVIEW,
            )
            .await
            .code;
            if code == 401 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(code, 401, "the session outlived its ServiceAccount");
    });
}

#[test]
fn a_link_minted_with_a_token_ends_when_the_token_is_revoked() {
    let plane = Plane::start();
    plane.create("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ci\n  namespace: default\n");
    let token = plane.kubectl_ok(&["create", "token", "ci", "-n", "default"]).trim().to_string();
    let link = login_link(plane.dir.path(), &plane.token_kubeconfig("ci", &token));
    assert_eq!(link["user"]["username"], "system:serviceaccount:default:ci");
    runtime().block_on(async {
        let anon = client(&anonymous_kubeconfig(&plane)).await;
        let c = cookie(&exchange(&anon, &code_of(&link)).await);
        let headers = [CSRF, ("cookie", c.as_str()), ("content-type", "application/json")];
        let who = send(&anon, Method::POST, REVIEWS, &headers, REVIEW).await;
        assert_eq!(who.body["status"]["userInfo"]["username"], "system:serviceaccount:default:ci", "{}", who.body);
        plane.kubectl_ok(&["delete", "serviceaccount", "ci", "-n", "default"]);
        let mut code = 0;
        for _ in 0..200 {
            code = send(&anon, Method::POST, REVIEWS, &headers, REVIEW).await.code;
            if code == 401 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(code, 401, "the session outlived the token it was minted with");
    });
}

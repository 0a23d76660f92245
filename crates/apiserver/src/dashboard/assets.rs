//! The dashboard's page, styles and scripts, embedded in the binary so serving it needs no
//! files on disk and no request to the internet. Every answer carries a strict
//! Content-Security-Policy: scripts and styles only from these files (no inline script, no
//! `eval`), connections only back to the plane, and no framing (clickjacking).

use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `(path under /dashboard/, content type, bytes)`.
const ASSETS: &[(&str, &str, &str)] = &[
    ("index.html", "text/html; charset=utf-8", include_str!("../../dashboard/index.html")),
    ("app.css", "text/css; charset=utf-8", include_str!("../../dashboard/app.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/app.js")),
    ("api.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/api.js")),
    ("dom.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/dom.js")),
    ("overview.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/overview.js")),
    ("clusters.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/clusters.js")),
    ("workloads.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/workloads.js")),
    ("policies.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/policies.js")),
    ("bindings.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/bindings.js")),
    ("events.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/events.js")),
    ("simulated.js", "text/javascript; charset=utf-8", include_str!("../../dashboard/simulated.js")),
];

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// Serves `GET`/`HEAD` of an asset; `/dashboard` and `/dashboard/` are the page.
pub fn serve(method: &Method, path: &str) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return with_headers((StatusCode::METHOD_NOT_ALLOWED, "only GET is served here\n").into_response());
    }
    if path == super::PREFIX {
        let mut resp = StatusCode::PERMANENT_REDIRECT.into_response();
        resp.headers_mut().insert(header::LOCATION, HeaderValue::from_static("/dashboard/"));
        return with_headers(resp);
    }
    let name = path.strip_prefix("/dashboard/").unwrap_or_default();
    let name = if name.is_empty() { "index.html" } else { name };
    let Some((_, content_type, body)) = ASSETS.iter().find(|(n, _, _)| *n == name) else {
        return not_found();
    };
    let body = if method == Method::HEAD { Body::empty() } else { Body::from(*body) };
    let mut resp = (StatusCode::OK, body).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // The assets change with the binary; revalidating each load keeps an upgraded plane's page
    // and scripts in step.
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    with_headers(resp)
}

pub fn not_found() -> Response {
    with_headers((StatusCode::NOT_FOUND, "not found\n").into_response())
}

/// The security headers every dashboard answer carries.
fn with_headers(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    h.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    resp
}

/// Bytes the embedded assets add to the binary.
pub fn embedded_bytes() -> usize {
    ASSETS.iter().map(|(_, _, body)| body.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_asset_holds_inline_script_or_a_remote_url() {
        for (name, _, body) in ASSETS {
            assert!(!body.contains("<script>"), "{name} has an inline script");
            // The SVG namespace is a name, never fetched.
            let body = body.replace("'http://www.w3.org/2000/svg'", "");
            assert!(!body.contains("http://") && !body.contains("https://"), "{name} names a remote URL");
            assert!(!body.contains("innerHTML"), "{name} builds markup from strings");
            assert!(!body.contains("eval("), "{name} evaluates strings");
        }
        assert!(embedded_bytes() < 3 * 1024 * 1024);
    }

    #[test]
    fn unknown_paths_are_404_and_every_answer_has_the_csp() {
        for path in ["/dashboard/", "/dashboard/app.js", "/dashboard/nope", "/dashboard/../etc/passwd"] {
            let resp = serve(&Method::GET, path);
            assert_eq!(resp.headers()[header::CONTENT_SECURITY_POLICY], CSP, "{path}");
        }
        assert_eq!(serve(&Method::GET, "/dashboard/nope").status(), StatusCode::NOT_FOUND);
        assert_eq!(serve(&Method::GET, "/dashboard/").status(), StatusCode::OK);
        assert_eq!(serve(&Method::POST, "/dashboard/").status(), StatusCode::METHOD_NOT_ALLOWED);
    }
}

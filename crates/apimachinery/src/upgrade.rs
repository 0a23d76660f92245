//! Connection upgrades (WebSocket, SPDY/3.1): whether a request asks to switch protocols.

/// Whether `headers` carry `Connection: upgrade` and name `protocol` in `Upgrade`, each as one of
/// a comma-separated list of tokens, in any case (Go's httpstream.IsUpgradeRequest and
/// wsstream.IsWebSocketRequest).
pub fn requested(headers: &http::HeaderMap, protocol: &str) -> bool {
    let has = |name: http::header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    has(http::header::CONNECTION, "upgrade") && has(http::header::UPGRADE, protocol)
}

#[cfg(test)]
mod tests {
    use super::requested;

    fn headers(pairs: &[(&'static str, &'static str)]) -> http::HeaderMap {
        pairs.iter().map(|(k, v)| (http::header::HeaderName::from_static(k), v.parse().unwrap())).collect()
    }

    #[test]
    fn tokens_in_lists_and_any_case() {
        assert!(requested(&headers(&[("connection", "keep-alive, Upgrade"), ("upgrade", "SPDY/3.1")]), "SPDY/3.1"));
        assert!(requested(&headers(&[("connection", "upgrade"), ("upgrade", "WebSocket")]), "websocket"));
        assert!(!requested(&headers(&[("upgrade", "websocket")]), "websocket"));
        assert!(!requested(&headers(&[("connection", "upgrade"), ("upgrade", "h2c")]), "websocket"));
    }
}

//! List continue tokens in kube-apiserver's format: base64 of
//! `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key suffix>"}`, so a paged list is read at
//! one snapshot revision. Ours may add `"remaining"`, the count of items after `start` in that
//! snapshot: it cannot change, so the next page's `remainingItemCount` is a subtraction rather
//! than a count of every key left, which made a paged list's cost grow with its square.

use base64::Engine;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContinueToken {
    pub v: String,
    pub rv: i64,
    /// The key to continue after, relative to the list's prefix.
    pub start: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining: Option<i64>,
}

const VERSION: &str = "meta.k8s.io/v1";

impl ContinueToken {
    pub fn new(rv: i64, start: String) -> Self {
        Self { v: VERSION.into(), rv, start, remaining: None }
    }

    pub fn with_remaining(mut self, remaining: Option<i64>) -> Self {
        self.remaining = remaining;
        self
    }

    pub fn encode(&self) -> String {
        base64::engine::general_purpose::URL_SAFE.encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// Decodes a token; `None` when it is not one of ours (kube answers 400 then).
    pub fn decode(token: &str) -> Option<Self> {
        let bytes = base64::engine::general_purpose::URL_SAFE
            .decode(token)
            .or_else(|_| base64::engine::general_purpose::STANDARD.decode(token))
            .ok()?;
        let t: Self = serde_json::from_slice(&bytes).ok()?;
        // A start key may not climb out of the listed prefix.
        (t.v == VERSION && t.rv > 0 && !t.start.contains("..")).then_some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejects_garbage() {
        let t = ContinueToken::new(42, "default/b".into());
        assert_eq!(ContinueToken::decode(&t.encode()), Some(t));
        assert_eq!(ContinueToken::decode("not base64 !"), None);
        assert_eq!(ContinueToken::decode(&base64::engine::general_purpose::URL_SAFE.encode(b"{}")), None);
        let counted = ContinueToken::new(42, "default/b".into()).with_remaining(Some(7));
        assert_eq!(ContinueToken::decode(&counted.encode()), Some(counted));
        let escape = ContinueToken::new(1, "../secrets/x".into());
        assert_eq!(ContinueToken::decode(&escape.encode()), None);
    }
}

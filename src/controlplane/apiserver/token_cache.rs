//! Successful bearer-token authentications, kept for 10 s as kube-apiserver keeps them (its
//! token success cache TTL; failures are not kept). A client such as the plane's engine
//! sends the same service-account token with every request to a member: without this, each
//! request verifies the JWT's signature and reads the ServiceAccount and Secret again.
//!
//! Entries are keyed by the token's SHA-256, so the cache holds no token. A token that is
//! revoked (its Secret or ServiceAccount deleted) is refused at most 10 s later, as with
//! kube-apiserver.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::controlplane::auth::UserInfo;

/// kube-apiserver's `TokenSuccessCacheTTL`.
pub const SUCCESS_TTL: Duration = Duration::from_secs(10);
/// Bound on entries, so that many distinct tokens cannot grow the cache without limit.
const MAX_ENTRIES: usize = 4096;

#[derive(Default)]
pub struct TokenCache {
    entries: Mutex<HashMap<[u8; 32], (UserInfo, Instant)>>,
}

fn key(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl TokenCache {
    /// Who `token` authenticated as, if that was less than [`SUCCESS_TTL`] before `now`.
    pub fn get(&self, token: &str, now: Instant) -> Option<UserInfo> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(&key(token)).filter(|(_, until)| now < *until).map(|(user, _)| user.clone())
    }

    /// Records that `token` authenticated as `user` at `now`.
    pub fn insert(&self, token: &str, user: &UserInfo, now: Instant) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.retain(|_, (_, until)| now < *until);
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(key(token), (user.clone(), now + SUCCESS_TTL));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(name: &str) -> UserInfo {
        UserInfo { name: name.into(), ..Default::default() }
    }

    #[test]
    fn a_success_is_kept_for_the_ttl_only() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        assert_eq!(cache.get("abc", t0), None);
        cache.insert("abc", &user("alice"), t0);
        assert_eq!(cache.get("abc", t0 + Duration::from_secs(9)), Some(user("alice")));
        assert_eq!(cache.get("abc", t0 + SUCCESS_TTL), None);
        assert_eq!(cache.get("abd", t0), None, "another token is not the same entry");
    }

    #[test]
    fn the_cache_stays_bounded_and_keeps_no_token() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(&format!("token-{i}"), &user("u"), t0);
        }
        let entries = cache.entries.lock().unwrap();
        assert!(entries.len() <= MAX_ENTRIES);
        assert!(!entries.keys().any(|k| k.starts_with(b"token-")));
    }
}

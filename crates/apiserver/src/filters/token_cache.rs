//! Successful bearer-token authentications, kept for 10 s as kube-apiserver keeps them (its
//! token success cache TTL; failures are not kept). A client such as the plane's engine
//! sends the same service-account token with every request to a member: without this, each
//! request verifies the JWT's signature and reads the ServiceAccount and Secret again.
//!
//! Entries are keyed by the token's SHA-256, so the cache holds no token. Unlike
//! kube-apiserver's, the cache is also emptied whenever a Secret or ServiceAccount changes, or a
//! Pod or Node (what a bound token may be bound to) is deleted ([`follow_revocations`]), so
//! deleting one revokes its tokens as soon as the server sees the change, not up to 10 s later.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures::StreamExt;

use karmadactl_store::StoreError;
use sha2::{Digest, Sha256};

use crate::auth::UserInfo;
use crate::state::ApiState;
use crate::storage::store_access;

/// kube-apiserver's `TokenSuccessCacheTTL`.
pub const SUCCESS_TTL: Duration = Duration::from_secs(10);
/// Bound on entries, so that many distinct tokens cannot grow the cache without limit.
const MAX_ENTRIES: usize = 4096;

#[derive(Default)]
pub struct TokenCache {
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_token: HashMap<[u8; 32], (UserInfo, Instant)>,
    /// Counts the times the cache was emptied, so that an authentication which read a Secret
    /// before a change is not cached after it.
    epoch: u64,
}

fn key(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl TokenCache {
    /// Who `token` authenticated as, if that was less than [`SUCCESS_TTL`] before `now`.
    /// Else the epoch to hand to [`Self::insert`] once the token is checked.
    pub fn get(&self, token: &str, now: Instant) -> Result<UserInfo, u64> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        match entries.by_token.get(&key(token)) {
            Some((user, until)) if now < *until => Ok(user.clone()),
            _ => Err(entries.epoch),
        }
    }

    /// Records that `token` authenticated as `user` at `now`, unless the cache was emptied
    /// since `epoch` (what the check read may be stale).
    pub fn insert(&self, token: &str, user: &UserInfo, now: Instant, epoch: u64) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.epoch != epoch {
            return;
        }
        if entries.by_token.len() >= MAX_ENTRIES {
            entries.by_token.retain(|_, (_, until)| now < *until);
            if entries.by_token.len() >= MAX_ENTRIES {
                entries.by_token.clear();
            }
        }
        entries.by_token.insert(key(token), (user.clone(), now + SUCCESS_TTL));
    }

    /// Called by the API server after its own write to `key` commits and before it answers, so a
    /// client that deleted a Secret sees the token refused on its very next request (the watch in
    /// [`follow_revocations`] covers writes by other replicas, a moment later).
    pub fn forget_after_write(&self, key: &str, deleted: bool) {
        if revokes(key, deleted) {
            self.clear();
        }
    }

    /// Forgets every token: what they were checked against changed.
    pub fn clear(&self) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.by_token.clear();
        entries.epoch += 1;
    }
}

/// Empties the cache on every change to a Secret or ServiceAccount and every deletion of a Pod
/// or Node (tokens are checked against them), on every replica sharing the store, until the
/// store closes. Pods change often and only their deletion (or replacement, which deletes)
/// ends a token, so their other changes keep the cache.
pub async fn follow_revocations(state: Arc<ApiState>) {
    loop {
        let rev = state.store.current_revision();
        // Whatever changed while no watch ran is covered by starting empty.
        state.token_cache.clear();
        let watches = ["secrets", "serviceaccounts", "pods", "nodes"]
            .map(|resource| state.store.watch(&store_access::prefix("", resource, None), rev));
        let streams = match watches {
            [Ok(a), Ok(b), Ok(c), Ok(d)] => futures::stream::select_all([a, b, c, d]),
            ref w if w.iter().any(|w| matches!(w, Err(StoreError::Closed))) => return,
            _ => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let mut streams = std::pin::pin!(streams);
        while let Some(ev) = streams.next().await {
            match ev {
                Ok(ev) => {
                    if revokes(&ev.kv.key, ev.kind == karmadactl_store::EventKind::Deleted) {
                        state.token_cache.clear();
                    }
                }
                Err(StoreError::Closed) => return,
                Err(_) => break,
            }
        }
    }
}

/// Whether a write to `key` can end a token: any change to a Secret or ServiceAccount, the
/// deletion of a Pod or Node.
fn revokes(key: &str, deleted: bool) -> bool {
    // Core-group keys, as store_access::prefix("", resource, None) spells them; checked on every
    // write, so without building strings.
    let Some(rest) = key.strip_prefix("/registry/core/") else { return false };
    let under = |resource: &str| rest.strip_prefix(resource).is_some_and(|r| r.starts_with('/'));
    under("secrets") || under("serviceaccounts") || (deleted && (under("pods") || under("nodes")))
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
        let epoch = cache.get("abc", t0).expect_err("nothing cached yet");
        cache.insert("abc", &user("alice"), t0, epoch);
        assert_eq!(cache.get("abc", t0 + Duration::from_secs(9)), Ok(user("alice")));
        assert!(cache.get("abc", t0 + SUCCESS_TTL).is_err());
        assert!(cache.get("abd", t0).is_err(), "another token is not the same entry");
    }

    #[test]
    fn clearing_forgets_and_refuses_checks_that_started_before() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        let epoch = cache.get("abc", t0).expect_err("nothing cached yet");
        cache.insert("abc", &user("alice"), t0, epoch);
        let before = cache.get("xyz", t0).expect_err("not cached");
        cache.clear();
        assert!(cache.get("abc", t0).is_err(), "cleared");
        // A check that read the Secret before the change is not cached after it.
        cache.insert("xyz", &user("bob"), t0, before);
        assert!(cache.get("xyz", t0).is_err());
        let now = cache.get("xyz", t0).expect_err("not cached");
        cache.insert("xyz", &user("bob"), t0, now);
        assert_eq!(cache.get("xyz", t0), Ok(user("bob")));
    }

    #[test]
    fn the_cache_stays_bounded_and_keeps_no_token() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(&format!("token-{i}"), &user("u"), t0, 0);
        }
        let entries = cache.entries.lock().unwrap();
        assert!(!entries.by_token.is_empty() && entries.by_token.len() <= MAX_ENTRIES);
        assert!(!entries.by_token.keys().any(|k| k.starts_with(b"token-")));
    }

    #[test]
    fn writes_that_can_end_a_token_are_recognised_by_their_keys() {
        let key = |resource: &str, ns: Option<&str>| format!("{}x", store_access::prefix("", resource, ns));
        for resource in ["secrets", "serviceaccounts"] {
            assert!(revokes(&key(resource, Some("team")), false), "{resource}");
        }
        for resource in ["pods", "nodes"] {
            assert!(revokes(&key(resource, Some("team")), true), "{resource} deleted");
            assert!(!revokes(&key(resource, Some("team")), false), "{resource} updated");
        }
        assert!(!revokes(&key("configmaps", Some("team")), true));
        assert!(!revokes(&key("secretsx", Some("team")), true), "only the resource itself");
        assert!(!revokes(&format!("{}x", store_access::prefix("apps", "secrets", None)), true), "core group only");
    }
}

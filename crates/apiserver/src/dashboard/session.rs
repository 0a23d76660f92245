//! The dashboard's login codes and sessions, held in this replica's memory only.
//!
//! A login code is minted by an authenticated request and exchanged once, within
//! [`CODE_TTL`], for a session; a session is what the browser's cookie names. Both are random
//! 256-bit secrets of which only the SHA-256 is kept, so the table (or a memory dump of it)
//! cannot be turned back into a working cookie. Both tables are bounded: when one is full of
//! live entries, minting is refused (429) rather than evicting someone else's session.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine as _;
use ring::rand::{SecureRandom, SystemRandom};
use sha2::{Digest, Sha256};

use crate::auth::UserInfo;

/// How long a login code may wait to be exchanged, by default.
pub const CODE_TTL: Duration = Duration::from_secs(60);
/// A session ends this long after login, however active, by default.
pub const SESSION_TTL: Duration = Duration::from_secs(8 * 3600);
/// A session unused for this long ends.
pub const SESSION_IDLE: Duration = Duration::from_secs(3600);
/// Login codes waiting to be exchanged, at most.
pub const MAX_CODES: usize = 256;
/// Live sessions, at most.
pub const MAX_SESSIONS: usize = 1024;

/// How long codes and sessions live (`controlplane serve --dashboard-login-code-ttl`,
/// `--dashboard-session-ttl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    pub code: Duration,
    pub session: Duration,
}

impl Default for Lifetimes {
    fn default() -> Self {
        Lifetimes { code: CODE_TTL, session: SESSION_TTL }
    }
}

/// Who a session acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// The identity the login code was minted for (a client certificate's user, say).
    User(UserInfo),
    /// A bearer token pasted into the login form; it is checked again on every request, so
    /// revoking the token ends the session too.
    Token(String),
}

/// Why a code or session was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown, already used, or expired.
    Invalid,
    /// The table is full of live entries.
    Full,
}

struct Pending {
    credential: Credential,
    /// Who the credential authenticated as when the code was minted, for the page to show.
    user: UserInfo,
    expires: Instant,
    /// When the credential itself stops being valid (a client certificate's notAfter).
    ends_by: Option<Instant>,
}

struct Session {
    credential: Credential,
    expires: Instant,
    last_used: Instant,
}

#[derive(Default)]
struct Tables {
    codes: HashMap<[u8; 32], Pending>,
    sessions: HashMap<[u8; 32], Session>,
}

/// The codes and sessions of one API server replica.
#[derive(Default)]
pub struct Sessions {
    lifetimes: Lifetimes,
    tables: Mutex<Tables>,
}

fn digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    // The system RNG failing leaves the bytes zero; refusing to serve logins is better than
    // minting a predictable secret, so it panics loudly instead.
    SystemRandom::new().fill(&mut bytes).expect("the system random number generator failed");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Secrets are 43 base64url characters; anything longer is not one of ours and is not hashed.
const SECRET_LEN: usize = 43;

impl Sessions {
    pub fn new(lifetimes: Lifetimes) -> Self {
        Sessions { lifetimes, tables: Default::default() }
    }

    pub fn lifetimes(&self) -> Lifetimes {
        self.lifetimes
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Mints a single-use login code whose session will act through `credential` (`user` is
    /// who that is now), ending no later than `ends_by`.
    pub fn mint_code(
        &self,
        credential: Credential,
        user: UserInfo,
        now: Instant,
        ends_by: Option<Instant>,
    ) -> Result<String, Refusal> {
        let mut t = self.tables();
        t.codes.retain(|_, p| p.expires > now);
        if t.codes.len() >= MAX_CODES {
            return Err(Refusal::Full);
        }
        let code = new_secret();
        t.codes.insert(digest(&code), Pending { credential, user, expires: now + self.lifetimes.code, ends_by });
        Ok(code)
    }

    /// Exchanges a login code for a session secret; the code is gone afterwards whatever the
    /// outcome, so a replayed code never works.
    pub fn exchange_code(&self, code: &str, now: Instant) -> Result<(String, UserInfo), Refusal> {
        if code.len() != SECRET_LEN {
            return Err(Refusal::Invalid);
        }
        let pending = self.tables().codes.remove(&digest(code)).ok_or(Refusal::Invalid)?;
        if pending.expires <= now {
            return Err(Refusal::Invalid);
        }
        let secret = self.start(pending.credential, now, pending.ends_by)?;
        Ok((secret, pending.user))
    }

    /// Starts a session for `credential`, ending no later than `ends_by` (a session never
    /// outlives the credential that started it).
    pub fn start(&self, credential: Credential, now: Instant, ends_by: Option<Instant>) -> Result<String, Refusal> {
        let mut t = self.tables();
        t.sessions.retain(|_, s| live(s, now));
        if t.sessions.len() >= MAX_SESSIONS {
            return Err(Refusal::Full);
        }
        let secret = new_secret();
        let expires = ends_by.map_or(now + self.lifetimes.session, |end| end.min(now + self.lifetimes.session));
        t.sessions.insert(digest(&secret), Session { credential, expires, last_used: now });
        Ok(secret)
    }

    /// The credential of a live session, marking it used.
    pub fn lookup(&self, secret: &str, now: Instant) -> Option<Credential> {
        if secret.len() != SECRET_LEN {
            return None;
        }
        let key = digest(secret);
        let mut t = self.tables();
        let session = t.sessions.get_mut(&key)?;
        if !live(session, now) {
            t.sessions.remove(&key);
            return None;
        }
        session.last_used = now;
        Some(session.credential.clone())
    }

    /// Ends a session (logout); unknown secrets are ignored.
    pub fn end(&self, secret: &str) {
        if secret.len() == SECRET_LEN {
            self.tables().sessions.remove(&digest(secret));
        }
    }

    /// Seconds left before the session ends at the latest (for the page's display).
    pub fn remaining(&self, secret: &str, now: Instant) -> Option<u64> {
        let t = self.tables();
        let s = t.sessions.get(&digest(secret))?;
        Some(s.expires.saturating_duration_since(now).as_secs())
    }
}

fn live(s: &Session, now: Instant) -> bool {
    s.expires > now && now.saturating_duration_since(s.last_used) < SESSION_IDLE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alice() -> UserInfo {
        UserInfo { name: "alice".into(), groups: vec!["devs".into()], ..UserInfo::default() }
    }

    #[test]
    fn a_code_works_once() {
        let s = Sessions::default();
        let now = Instant::now();
        let code = s.mint_code(Credential::User(alice()), alice(), now, None).unwrap();
        let (secret, user) = s.exchange_code(&code, now).unwrap();
        assert_eq!(user, alice());
        assert_eq!(s.lookup(&secret, now), Some(Credential::User(alice())));
        assert_eq!(s.exchange_code(&code, now), Err(Refusal::Invalid));
    }

    #[test]
    fn an_expired_code_is_refused_and_spent() {
        let s = Sessions::default();
        let now = Instant::now();
        let code = s.mint_code(Credential::User(alice()), alice(), now, None).unwrap();
        assert_eq!(s.exchange_code(&code, now + CODE_TTL), Err(Refusal::Invalid));
        assert_eq!(s.exchange_code(&code, now), Err(Refusal::Invalid));
    }

    #[test]
    fn sessions_end_when_idle_expired_or_logged_out() {
        let s = Sessions::default();
        let now = Instant::now();
        let a = s.start(Credential::User(alice()), now, None).unwrap();
        assert!(s.lookup(&a, now + SESSION_IDLE).is_none());
        let b = s.start(Credential::User(alice()), now, None).unwrap();
        let mut t = now;
        while t < now + SESSION_TTL {
            assert!(s.lookup(&b, t).is_some());
            t += SESSION_IDLE / 2;
        }
        assert!(s.lookup(&b, t).is_none());
        let c = s.start(Credential::User(alice()), now, None).unwrap();
        s.end(&c);
        assert!(s.lookup(&c, now).is_none());
    }

    #[test]
    fn tables_are_bounded() {
        let s = Sessions::default();
        let now = Instant::now();
        for _ in 0..MAX_CODES {
            s.mint_code(Credential::User(alice()), alice(), now, None).unwrap();
        }
        assert_eq!(s.mint_code(Credential::User(alice()), alice(), now, None), Err(Refusal::Full));
        // Expired codes make room again.
        assert!(s.mint_code(Credential::User(alice()), alice(), now + CODE_TTL, None).is_ok());
        for _ in 0..MAX_SESSIONS {
            s.start(Credential::Token("t".into()), now, None).unwrap();
        }
        assert_eq!(s.start(Credential::Token("t".into()), now, None), Err(Refusal::Full));
    }

    #[test]
    fn malformed_secrets_are_refused_without_work() {
        let s = Sessions::default();
        let now = Instant::now();
        assert!(s.lookup(&"x".repeat(10_000), now).is_none());
        assert_eq!(s.exchange_code("", now), Err(Refusal::Invalid));
    }

    #[test]
    fn a_session_ends_when_its_credential_does() {
        let s = Sessions::default();
        let now = Instant::now();
        let code = s.mint_code(Credential::User(alice()), alice(), now, Some(now + Duration::from_secs(30))).unwrap();
        let (secret, _) = s.exchange_code(&code, now).unwrap();
        assert!(s.lookup(&secret, now + Duration::from_secs(29)).is_some());
        assert_eq!(s.lookup(&secret, now + Duration::from_secs(30)), None);
    }
}

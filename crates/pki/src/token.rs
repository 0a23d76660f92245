//! Bootstrap tokens: generating, parsing, and the `kube-system/bootstrap-token-<id>` Secret.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::Secret;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use subtle::ConstantTimeEq;

use super::random;

/// Upstream's pattern for a whole token (printed in messages).
pub(crate) const TOKEN_PATTERN: &str = r"\A([a-z0-9]{6})\.([a-z0-9]{16})\z";
/// Upstream's pattern for a token ID.
pub(crate) const TOKEN_ID_PATTERN: &str = r"\A([a-z0-9]{6})\z";
/// Upstream's pattern for an extra group.
pub(crate) const GROUP_PATTERN: &str = r"\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\z";
/// The group `token create` puts tokens in by default.
pub const DEFAULT_GROUP: &str = "system:bootstrappers:karmada:default-cluster-token";
/// The usages a token may have, in upstream's order.
pub(crate) const KNOWN_USAGES: [&str; 2] = ["signing", "authentication"];
/// The Secret type of bootstrap tokens.
pub const SECRET_TYPE: &str = "bootstrap.kubernetes.io/token";
/// The namespace bootstrap token Secrets live in.
pub const SECRET_NAMESPACE: &str = "kube-system";
/// Secret names are this prefix and the token ID.
pub(crate) const SECRET_NAME_PREFIX: &str = "bootstrap-token-";

const KEY_ID: &str = "token-id";
const KEY_SECRET: &str = "token-secret";
const KEY_DESCRIPTION: &str = "description";
const KEY_EXPIRATION: &str = "expiration";
const KEY_GROUPS: &str = "auth-extra-groups";
const USAGE_PREFIX: &str = "usage-bootstrap-";

const ID_LEN: usize = 6;
const SECRET_LEN: usize = 16;
const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Errors from parsing, validating or decoding bootstrap tokens.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The operating system's random number generator failed.
    #[error("the system random number generator failed")]
    Random,
    /// A token is not `[a-z0-9]{6}.[a-z0-9]{16}`. The value is not repeated: it may hold a secret.
    #[error("the bootstrap token is not of the form {TOKEN_PATTERN:?}")]
    InvalidToken,
    /// A token ID is not `[a-z0-9]{6}`.
    #[error("the bootstrap token ID {id:?} is not of the form {TOKEN_ID_PATTERN:?}")]
    InvalidTokenId { id: String },
    /// A `token delete` argument is neither an ID nor a whole token. (Upstream repeats the ID
    /// pattern in this message by mistake; both patterns are printed here.)
    #[error("given token didn't match pattern {TOKEN_ID_PATTERN:?} or {TOKEN_PATTERN:?}")]
    InvalidTokenArg,
    /// A usage is not one of `signing`, `authentication`.
    #[error("invalid bootstrap token usage string: {usage}, valid usage options: signing,authentication")]
    InvalidUsage { usage: String },
    /// An extra group does not match the bootstrap group pattern.
    #[error("bootstrap group {group:?} is invalid (must match {GROUP_PATTERN})")]
    InvalidGroup { group: String },
    /// A TTL too long to add to the current time.
    #[error("the token TTL {ttl:?} reaches past the year 9999")]
    TtlTooLong { ttl: Duration },
    /// A Secret is not of the bootstrap token type.
    #[error("secret {name:?} has type {actual:?}, not {SECRET_TYPE:?}")]
    WrongSecretType { name: String, actual: String },
    /// A bootstrap token Secret lacks a required key.
    #[error("bootstrap Token Secret has no {key} data: {name}")]
    MissingData { name: String, key: &'static str },
    /// The Secret's name does not match its `token-id`.
    #[error(
        "bootstrap token name is not of the form 'bootstrap-token-(token-id)'. Actual: {actual:?}. Expected: {expected:?}"
    )]
    NameMismatch { actual: String, expected: String },
    /// The Secret's ID or secret is malformed.
    #[error("bootstrap Token Secret is invalid and couldn't be parsed")]
    InvalidStoredToken {
        #[source]
        source: Box<TokenError>,
    },
    /// The Secret's `expiration` is not an RFC 3339 time.
    #[error("can't parse expiration time of bootstrap token {name:?}")]
    BadExpiration {
        name: String,
        #[source]
        source: jiff::Error,
    },
}

impl TokenError {
    /// What the user can do next, when that is known.
    pub fn hint(&self) -> Option<String> {
        match self {
            TokenError::InvalidToken => Some(
                "a bootstrap token is 6 and 16 characters from a-z and 0-9 joined by a dot, e.g. abcdef.0123456789abcdef."
                    .into(),
            ),
            TokenError::InvalidTokenId { .. } => {
                Some("a token ID is the 6 characters before the dot; `karmadactl token list` shows them.".into())
            }
            TokenError::InvalidTokenArg => Some(
                "pass a token ID (abcdef) or a whole token (abcdef.0123456789abcdef); `karmadactl token list` shows them."
                    .into(),
            ),
            TokenError::InvalidUsage { .. } => Some("use --usages signing,authentication or a subset.".into()),
            TokenError::InvalidGroup { .. } => Some(format!(
                "extra groups must start with system:bootstrappers:, e.g. {DEFAULT_GROUP}."
            )),
            TokenError::TtlTooLong { .. } => Some("use a shorter --ttl, or 0 for a token that never expires.".into()),
            TokenError::Random => {
                Some("check that the operating system's random source (getrandom, /dev/urandom) is available.".into())
            }
            _ => None,
        }
    }
}

/// A bootstrap token `<id>.<secret>`. `Display` prints the whole token (that is what
/// `token create` outputs); `Debug` hides the secret so it never reaches logs.
/// Equality compares the secret in constant time.
#[derive(Clone)]
pub struct BootstrapToken {
    id: String,
    secret: String,
}

impl BootstrapToken {
    /// A new token, every character drawn uniformly from `0-9a-z` by the OS generator.
    pub fn generate() -> Result<Self, TokenError> {
        let chars = random_chars(ID_LEN + SECRET_LEN)?;
        let (id, secret) = chars.split_at(ID_LEN);
        Ok(BootstrapToken { id: id.to_owned(), secret: secret.to_owned() })
    }

    /// Parses `<id>.<secret>` (`[a-z0-9]{6}\.[a-z0-9]{16}`).
    pub fn parse(token: &str) -> Result<Self, TokenError> {
        let (id, secret) = token.split_once('.').ok_or(TokenError::InvalidToken)?;
        Self::from_parts(id, secret)
    }

    /// Builds a token from its two halves, checking both.
    pub fn from_parts(id: &str, secret: &str) -> Result<Self, TokenError> {
        if !is_token_chars(id, ID_LEN) || !is_token_chars(secret, SECRET_LEN) {
            return Err(TokenError::InvalidToken);
        }
        Ok(BootstrapToken { id: id.to_owned(), secret: secret.to_owned() })
    }

    /// The public half, e.g. `abcdef`.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The secret half.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Whether `secret` is this token's secret, compared in constant time.
    pub fn secret_matches(&self, secret: &str) -> bool {
        self.secret.len() == secret.len() && bool::from(self.secret.as_bytes().ct_eq(secret.as_bytes()))
    }
}

impl PartialEq for BootstrapToken {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.secret_matches(&other.secret)
    }
}

impl Eq for BootstrapToken {}

impl FromStr for BootstrapToken {
    type Err = TokenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for BootstrapToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.id, self.secret)
    }
}

impl fmt::Debug for BootstrapToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BootstrapToken").field("id", &self.id).field("secret", &"<redacted>").finish()
    }
}

fn is_token_chars(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
}

/// `n` characters from `0-9a-z`. Bytes of 252 and above are thrown away so that `b % 36` is
/// uniform (252 = 7 × 36); otherwise the first four characters would be slightly likelier.
pub fn random_chars(n: usize) -> Result<String, TokenError> {
    let mut out = String::with_capacity(n);
    let mut buf = [0u8; 64];
    while out.len() < n {
        random::fill(&mut buf).map_err(|_| TokenError::Random)?;
        for b in buf.iter().filter(|b| **b < 252) {
            if out.len() == n {
                break;
            }
            out.push(char::from(ALPHABET[usize::from(*b % 36)]));
        }
    }
    Ok(out)
}

/// Checks a token ID (`[a-z0-9]{6}`).
pub(crate) fn parse_token_id(id: &str) -> Result<String, TokenError> {
    if is_token_chars(id, ID_LEN) { Ok(id.to_owned()) } else { Err(TokenError::InvalidTokenId { id: id.to_owned() }) }
}

/// The token ID named by a `token delete` argument: an ID or a whole token.
pub fn token_id_from_arg(arg: &str) -> Result<String, TokenError> {
    if let Ok(id) = parse_token_id(arg) {
        return Ok(id);
    }
    BootstrapToken::parse(arg).map(|t| t.id).map_err(|_| TokenError::InvalidTokenArg)
}

/// `bootstrap-token-<id>`.
pub fn secret_name(token_id: &str) -> String {
    format!("{SECRET_NAME_PREFIX}{token_id}")
}

/// Checks usages against `signing` and `authentication`.
pub fn validate_usages<S: AsRef<str>>(usages: &[S]) -> Result<(), TokenError> {
    match usages.iter().find(|u| !KNOWN_USAGES.contains(&u.as_ref())) {
        Some(bad) => Err(TokenError::InvalidUsage { usage: bad.as_ref().to_owned() }),
        None => Ok(()),
    }
}

/// Checks an extra group against `\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\z`.
pub fn validate_group(group: &str) -> Result<(), TokenError> {
    let ok = group.strip_prefix("system:bootstrappers:").is_some_and(|rest| {
        let allowed = |b: u8| b.is_ascii_digit() || b.is_ascii_lowercase();
        let bytes = rest.as_bytes();
        match bytes.split_last() {
            Some((last, middle)) => {
                allowed(*last) && middle.len() <= 255 && middle.iter().all(|b| allowed(*b) || *b == b':' || *b == b'-')
            }
            None => false,
        }
    });
    if ok { Ok(()) } else { Err(TokenError::InvalidGroup { group: group.to_owned() }) }
}

/// `now + ttl` in whole seconds, or `None` for a TTL of 0 (the token never expires).
pub fn expiration_from_ttl(now: Timestamp, ttl: Duration) -> Result<Option<Timestamp>, TokenError> {
    if ttl.is_zero() {
        return Ok(None);
    }
    let too_long = || TokenError::TtlTooLong { ttl };
    let span = SignedDuration::try_from(ttl).map_err(|_| too_long())?;
    let at = now.checked_add(span).map_err(|_| too_long())?;
    Timestamp::from_second(at.as_second()).map(Some).map_err(|_| too_long())
}

/// A bootstrap token with what its Secret says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenSecret {
    pub token: BootstrapToken,
    /// Empty means none.
    pub description: String,
    /// `None` means the token never expires.
    pub expiration: Option<Timestamp>,
    /// Sorted when decoded.
    pub usages: Vec<String>,
    pub groups: Vec<String>,
}

impl TokenSecret {
    /// Whether the token has expired at `now` (strictly after its expiration, as Kubernetes checks).
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.expiration.is_some_and(|exp| now > exp)
    }

    /// The Secret `kube-system/bootstrap-token-<id>` as upstream creates it. Usages and groups
    /// are validated first.
    pub fn to_secret(&self) -> Result<Secret, TokenError> {
        validate_usages(&self.usages)?;
        self.groups.iter().try_for_each(|g| validate_group(g))?;
        let mut data = BTreeMap::new();
        let mut put = |k: String, v: &str| data.insert(k, ByteString(v.as_bytes().to_vec()));
        put(KEY_ID.into(), self.token.id());
        put(KEY_SECRET.into(), self.token.secret());
        if !self.description.is_empty() {
            put(KEY_DESCRIPTION.into(), &self.description);
        }
        if let Some(exp) = self.expiration {
            // Whole seconds, `Z`: Go's `Format(time.RFC3339)` of a UTC time.
            let exp = Timestamp::from_second(exp.as_second()).unwrap_or(exp);
            put(KEY_EXPIRATION.into(), &exp.to_string());
        }
        for usage in &self.usages {
            put(format!("{USAGE_PREFIX}{usage}"), "true");
        }
        if !self.groups.is_empty() {
            put(KEY_GROUPS.into(), &self.groups.join(","));
        }
        Ok(Secret {
            metadata: ObjectMeta {
                name: Some(secret_name(self.token.id())),
                namespace: Some(SECRET_NAMESPACE.into()),
                ..ObjectMeta::default()
            },
            type_: Some(SECRET_TYPE.into()),
            data: Some(data),
            ..Secret::default()
        })
    }

    /// Reads a bootstrap token Secret, checking what upstream's `token list` checks: the type,
    /// ID and secret present and well-formed, the name matching the ID, the expiration
    /// parseable. Values come from `data`, or `stringData` for objects not yet stored.
    pub fn from_secret(secret: &Secret) -> Result<Self, TokenError> {
        let name = secret.metadata.name.clone().unwrap_or_default();
        if let Some(actual) = secret.type_.as_deref().filter(|t| *t != SECRET_TYPE) {
            return Err(TokenError::WrongSecretType { name, actual: actual.to_owned() });
        }
        let values = secret_values(secret);
        let get = |key: &str| values.get(key).map(String::as_str).unwrap_or("");
        let id = get(KEY_ID);
        if id.is_empty() {
            return Err(TokenError::MissingData { name, key: KEY_ID });
        }
        let expected = secret_name(id);
        if name != expected {
            return Err(TokenError::NameMismatch { actual: name, expected });
        }
        let token_secret = get(KEY_SECRET);
        if token_secret.is_empty() {
            return Err(TokenError::MissingData { name, key: KEY_SECRET });
        }
        let token = BootstrapToken::from_parts(id, token_secret)
            .map_err(|e| TokenError::InvalidStoredToken { source: Box::new(e) })?;
        let expiration = match get(KEY_EXPIRATION) {
            "" => None,
            text => Some(text.parse::<Timestamp>().map_err(|source| TokenError::BadExpiration { name, source })?),
        };
        let mut usages: Vec<String> = values
            .iter()
            .filter(|(_, v)| v.as_str() == "true")
            .filter_map(|(k, _)| k.strip_prefix(USAGE_PREFIX).map(str::to_owned))
            .collect();
        usages.sort();
        let groups = get(KEY_GROUPS).split(',').map(str::trim).filter(|g| !g.is_empty()).map(str::to_owned).collect();
        Ok(TokenSecret { token, description: get(KEY_DESCRIPTION).to_owned(), expiration, usages, groups })
    }
}

fn secret_values(secret: &Secret) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = secret.string_data.clone().unwrap_or_default();
    for (k, v) in secret.data.iter().flatten() {
        out.insert(k.clone(), String::from_utf8_lossy(&v.0).into_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> BootstrapToken {
        BootstrapToken::parse("abcdef.0123456789abcdef").unwrap()
    }

    #[test]
    fn generated_tokens_are_well_formed_and_differ() {
        let a = BootstrapToken::generate().unwrap();
        let b = BootstrapToken::generate().unwrap();
        assert_eq!(BootstrapToken::parse(&a.to_string()).unwrap(), a);
        assert_ne!(a, b);
        assert_eq!(a.id().len(), 6);
        assert_eq!(a.secret().len(), 16);
    }

    #[test]
    fn random_characters_cover_the_whole_alphabet() {
        let s = random_chars(5000).unwrap();
        assert!(s.bytes().all(|b| ALPHABET.contains(&b)));
        for c in ALPHABET {
            // Each character is expected ~139 times; below 60 would mean a broken draw.
            let n = s.bytes().filter(|b| b == c).count();
            assert!(n > 60, "{} appeared {n} times", char::from(*c));
        }
    }

    #[test]
    fn parse_round_trips_and_rejects_malformed() {
        assert_eq!(token().id(), "abcdef");
        assert_eq!(token().secret(), "0123456789abcdef");
        assert_eq!(token().to_string(), "abcdef.0123456789abcdef");
        for bad in [
            "ABCDEF.0123456789abcdef",
            "abcdef.0123456789ABCDEF",
            "abcdef0123456789abcdef",
            "abcde.0123456789abcdef",
            "abcdef.0123456789abcde",
            "abcdef.0123456789abcdef0",
            "abcdef:0123456789abcdef",
            "abcdef.0123456789abcdé",
            " abcdef.0123456789abcdef",
            "",
        ] {
            assert!(matches!(BootstrapToken::parse(bad), Err(TokenError::InvalidToken)), "{bad}");
        }
    }

    #[test]
    fn debug_hides_the_secret() {
        let debug = format!("{:?}", token());
        assert_eq!(debug, r#"BootstrapToken { id: "abcdef", secret: "<redacted>" }"#);
        let record = TokenSecret {
            token: token(),
            description: String::new(),
            expiration: None,
            usages: vec![],
            groups: vec![],
        };
        assert!(!format!("{record:?}").contains("0123456789abcdef"));
    }

    #[test]
    fn secret_comparison() {
        assert!(token().secret_matches("0123456789abcdef"));
        assert!(!token().secret_matches("0123456789abcdee"));
        assert!(!token().secret_matches("0123456789abcde"));
        assert_ne!(token(), BootstrapToken::parse("abcdef.0123456789abcdee").unwrap());
    }

    #[test]
    fn ids_and_delete_arguments() {
        assert_eq!(parse_token_id("abc123").unwrap(), "abc123");
        assert!(matches!(parse_token_id("abc12"), Err(TokenError::InvalidTokenId { .. })));
        assert_eq!(token_id_from_arg("abc123").unwrap(), "abc123");
        assert_eq!(token_id_from_arg("abcdef.0123456789abcdef").unwrap(), "abcdef");
        let e = token_id_from_arg("nope").unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"given token didn't match pattern "\\A([a-z0-9]{6})\\z" or "\\A([a-z0-9]{6})\\.([a-z0-9]{16})\\z""#
        );
    }

    #[test]
    fn usages_and_groups_are_validated() {
        assert!(validate_usages(&["signing", "authentication"]).is_ok());
        let e = validate_usages(&["signing", "bogus"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid bootstrap token usage string: bogus, valid usage options: signing,authentication"
        );
        assert!(validate_group(DEFAULT_GROUP).is_ok());
        assert!(validate_group("system:bootstrappers:a").is_ok());
        assert!(validate_group(&format!("system:bootstrappers:{}a", "x".repeat(255))).is_ok());
        for bad in [
            "system:bootstrappers:",
            "system:bootstrappers:a-",
            "system:bootstrappers:a:",
            "system:bootstrappers:Abc",
            "system:masters",
            "xsystem:bootstrappers:a",
            "system:bootstrappers:a b",
        ] {
            assert!(matches!(validate_group(bad), Err(TokenError::InvalidGroup { .. })), "{bad}");
        }
        assert!(validate_group(&format!("system:bootstrappers:{}a", "x".repeat(256))).is_err());
    }

    fn record(expiration: Option<Timestamp>) -> TokenSecret {
        TokenSecret {
            token: token(),
            description: "for member1".into(),
            expiration,
            usages: vec!["signing".into(), "authentication".into()],
            groups: vec![DEFAULT_GROUP.into(), "system:bootstrappers:extra".into()],
        }
    }

    fn data_of(secret: &Secret) -> BTreeMap<String, String> {
        secret_values(secret)
    }

    #[test]
    fn secret_is_encoded_like_upstream() {
        let now: Timestamp = "2026-03-01T10:00:00.5Z".parse().unwrap();
        let exp = expiration_from_ttl(now, Duration::from_secs(86400)).unwrap();
        let secret = record(exp).to_secret().unwrap();
        assert_eq!(secret.metadata.name.as_deref(), Some("bootstrap-token-abcdef"));
        assert_eq!(secret.metadata.namespace.as_deref(), Some("kube-system"));
        assert_eq!(secret.type_.as_deref(), Some("bootstrap.kubernetes.io/token"));
        assert!(secret.metadata.labels.is_none());
        let data = data_of(&secret);
        let expected: BTreeMap<String, String> = [
            ("token-id", "abcdef"),
            ("token-secret", "0123456789abcdef"),
            ("description", "for member1"),
            ("expiration", "2026-03-02T10:00:00Z"),
            ("usage-bootstrap-signing", "true"),
            ("usage-bootstrap-authentication", "true"),
            ("auth-extra-groups", "system:bootstrappers:karmada:default-cluster-token,system:bootstrappers:extra"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(data, expected);
    }

    #[test]
    fn round_trip_and_expiry() {
        let now: Timestamp = "2026-03-01T10:00:00Z".parse().unwrap();
        let original = record(expiration_from_ttl(now, Duration::from_secs(3600)).unwrap());
        let back = TokenSecret::from_secret(&original.to_secret().unwrap()).unwrap();
        assert_eq!(back.token, original.token);
        assert_eq!(back.description, "for member1");
        assert_eq!(back.usages, vec!["authentication", "signing"]);
        assert_eq!(back.groups, original.groups);
        assert_eq!(back.expiration, Some("2026-03-01T11:00:00Z".parse().unwrap()));
        assert!(!back.is_expired(now));
        assert!(!back.is_expired("2026-03-01T11:00:00Z".parse().unwrap()));
        assert!(back.is_expired("2026-03-01T11:00:01Z".parse().unwrap()));
    }

    #[test]
    fn ttl_zero_means_no_expiration_key_and_never_expires() {
        let mut r = record(expiration_from_ttl(Timestamp::now(), Duration::ZERO).unwrap());
        r.description.clear();
        r.groups.clear();
        let secret = r.to_secret().unwrap();
        let data = data_of(&secret);
        assert!(!data.contains_key("expiration"));
        assert!(!data.contains_key("description"));
        assert!(!data.contains_key("auth-extra-groups"));
        let back = TokenSecret::from_secret(&secret).unwrap();
        assert_eq!(back.expiration, None);
        assert!(!back.is_expired("9999-01-01T00:00:00Z".parse().unwrap()));
        assert!(back.groups.is_empty());
    }

    #[test]
    fn encoding_validates_usages_and_groups() {
        let mut r = record(None);
        r.usages.push("bogus".into());
        assert!(matches!(r.to_secret(), Err(TokenError::InvalidUsage { .. })));
        let mut r = record(None);
        r.groups.push("system:masters".into());
        assert!(matches!(r.to_secret(), Err(TokenError::InvalidGroup { .. })));
    }

    #[test]
    fn decoding_rejects_broken_secrets() {
        let good = record(None).to_secret().unwrap();
        let with = |f: &dyn Fn(&mut Secret)| {
            let mut s = good.clone();
            f(&mut s);
            TokenSecret::from_secret(&s).unwrap_err()
        };
        let set = |key: &'static str, value: &'static str| {
            move |s: &mut Secret| {
                s.data.as_mut().unwrap().insert(key.into(), ByteString(value.as_bytes().to_vec()));
            }
        };
        let e = with(&|s| {
            s.data.as_mut().unwrap().remove("token-id");
        });
        assert_eq!(e.to_string(), "bootstrap Token Secret has no token-id data: bootstrap-token-abcdef");
        let e = with(&|s| {
            s.data.as_mut().unwrap().remove("token-secret");
        });
        assert!(matches!(e, TokenError::MissingData { key: "token-secret", .. }));
        let e = with(&|s| s.metadata.name = Some("bootstrap-token-zzzzzz".into()));
        assert!(matches!(e, TokenError::NameMismatch { .. }), "{e}");
        let e = with(&set("token-secret", "SHORT"));
        assert!(matches!(e, TokenError::InvalidStoredToken { .. }), "{e}");
        assert!(!e.to_string().contains("SHORT"));
        let e = with(&set("expiration", "tomorrow"));
        assert_eq!(e.to_string(), r#"can't parse expiration time of bootstrap token "bootstrap-token-abcdef""#);
        let e = with(&|s| s.type_ = Some("Opaque".into()));
        assert!(matches!(e, TokenError::WrongSecretType { .. }));
        // A usage key that is not "true" is not a usage.
        let mut s = good.clone();
        s.data.as_mut().unwrap().insert("usage-bootstrap-signing".into(), ByteString(b"false".to_vec()));
        assert_eq!(TokenSecret::from_secret(&s).unwrap().usages, vec!["authentication"]);
    }

    #[test]
    fn expiration_with_offset_parses() {
        let mut s = record(None).to_secret().unwrap();
        s.data.as_mut().unwrap().insert("expiration".into(), ByteString(b"2026-03-01T12:00:00+02:00".to_vec()));
        let back = TokenSecret::from_secret(&s).unwrap();
        assert_eq!(back.expiration, Some("2026-03-01T10:00:00Z".parse().unwrap()));
    }

    #[test]
    fn ttl_overflow_is_an_error() {
        assert!(matches!(
            expiration_from_ttl(Timestamp::now(), Duration::from_secs(u64::MAX)),
            Err(TokenError::TtlTooLong { .. })
        ));
    }
}

//! Image references split the way upstream's `imageparser` splits them: validated with the
//! grammar of distribution's `reference.Parse` (no normalisation, so `nginx` has no registry
//! rather than an implied `docker.io`), then cut into registry, repository and tag or digest.

/// An image reference `[registry/]repository[:tag|@digest]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImageRef {
    pub registry: String,
    pub repository: String,
    pub tag: String,
    pub digest: String,
}

/// distribution's limit on the length of the name part.
const NAME_TOTAL_LENGTH_MAX: usize = 255;

impl ImageRef {
    /// Parses `image`; errors carry distribution's messages.
    ///
    /// As upstream, a reference with both a tag and a digest keeps only the tag.
    pub fn parse(image: &str) -> Result<Self, String> {
        let (name, tag, digest) = match split_reference(image) {
            Some(parts) => parts,
            None if image.is_empty() => return Err("repository name must have at least one component".into()),
            None if split_reference(&image.to_lowercase()).is_some() => {
                return Err("repository name must be lowercase".into());
            }
            None => return Err("invalid reference format".into()),
        };
        if name.len() > NAME_TOTAL_LENGTH_MAX {
            return Err(format!("repository name must not be more than {NAME_TOTAL_LENGTH_MAX} characters"));
        }
        if let Some(d) = digest {
            validate_digest(d)?;
        }
        let (registry, repository) = split_hostname(name);
        let tag = tag.unwrap_or("").to_string();
        let digest = if tag.is_empty() { digest.unwrap_or("").to_string() } else { String::new() };
        Ok(Self { registry, repository, tag, digest })
    }

    /// The tag if there is one, else the digest.
    pub fn tag_or_digest(&self) -> &str {
        if self.tag.is_empty() { &self.digest } else { &self.tag }
    }

    /// Sets a tag or a digest, whichever `input` is; anything else leaves the reference as is.
    pub fn set_tag_or_digest(&mut self, input: &str) {
        if is_tag(input) {
            self.tag = input.to_string();
            self.digest.clear();
        } else if is_digest_pattern(input) {
            self.digest = input.to_string();
            self.tag.clear();
        }
    }

    /// Removes the tag, or the digest when there is no tag.
    pub fn remove_tag_or_digest(&mut self) {
        if !self.tag.is_empty() {
            self.tag.clear();
        } else {
            self.digest.clear();
        }
    }

    fn full_repository(&self) -> String {
        if self.registry.is_empty() {
            self.repository.clone()
        } else {
            format!("{}/{}", self.registry, self.repository)
        }
    }
}

impl std::fmt::Display for ImageRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let repo = self.full_repository();
        if !self.tag.is_empty() {
            write!(f, "{repo}:{}", self.tag)
        } else if !self.digest.is_empty() {
            write!(f, "{repo}@{}", self.digest)
        } else {
            f.write_str(&repo)
        }
    }
}

/// upstream's `SplitHostname`: the first path element is a registry when it looks like a host
/// (has a `.` or a `:`, or is `localhost`).
fn split_hostname(name: &str) -> (String, String) {
    match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" => (first.into(), rest.into()),
        _ => (String::new(), name.into()),
    }
}

/// Splits and checks `name[:tag][@digest]` against the reference grammar (the digest only by
/// its pattern here). None when it does not match.
fn split_reference(s: &str) -> Option<(&str, Option<&str>, Option<&str>)> {
    let (rest, digest) = match s.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (s, None),
    };
    if digest.is_some_and(|d| !is_digest_pattern(d)) {
        return None;
    }
    // A tag follows the last `:` that comes after the last `/`; earlier colons are a port.
    let (name, tag) = match rest.rsplit_once(':') {
        Some((n, t)) if !t.contains('/') => (n, Some(t)),
        _ => (rest, None),
    };
    if tag.is_some_and(|t| !is_tag(t)) || !is_name(name) {
        return None;
    }
    Some((name, tag, digest))
}

/// `[domain/]path-component(/path-component)*`.
fn is_name(name: &str) -> bool {
    let all_path = |s: &str| s.split('/').all(is_path_component);
    if all_path(name) {
        return true;
    }
    match name.split_once('/') {
        Some((domain, rest)) => is_domain_and_port(domain) && all_path(rest),
        None => false,
    }
}

/// `[a-z0-9]+` runs joined by `.`, `_`, `__` or one or more `-`.
fn is_path_component(s: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    if s.is_empty() || !s.starts_with(alnum) || !s.ends_with(alnum) {
        return false;
    }
    let mut separator = String::new();
    for c in s.chars() {
        if alnum(c) {
            let ok = separator.is_empty()
                || matches!(separator.as_str(), "." | "_" | "__")
                || separator.chars().all(|c| c == '-');
            if !ok {
                return false;
            }
            separator.clear();
        } else {
            separator.push(c);
        }
    }
    true
}

/// A host name (dot-separated labels) or bracketed IPv6 address, with an optional port.
fn is_domain_and_port(s: &str) -> bool {
    let (host, port) = if let Some(v6) = s.strip_prefix('[') {
        let Some((addr, after)) = v6.split_once(']') else { return false };
        if addr.is_empty() || !addr.chars().all(|c| c.is_ascii_hexdigit() || c == ':') {
            return false;
        }
        match after {
            "" => return true,
            p => match p.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        match s.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (s, None),
        }
    };
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let host_ok = s.starts_with('[') || host.split('.').all(label_ok);
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    host_ok && port_ok
}

/// `[\w][\w.-]{0,127}`.
fn is_tag(s: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    s.len() <= 128 && s.starts_with(word) && s.chars().all(|c| word(c) || c == '.' || c == '-')
}

/// `algorithm:hex` with at least 32 hex digits, the shape the grammar accepts.
fn is_digest_pattern(s: &str) -> bool {
    let Some((alg, hex)) = s.split_once(':') else { return false };
    let alg_ok = alg.split(['-', '_', '+', '.']).all(|part| {
        part.starts_with(|c: char| c.is_ascii_alphabetic()) && part.chars().all(|c| c.is_ascii_alphanumeric())
    });
    alg_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// go-digest's checks for the algorithms upstream links in (sha256, sha384, sha512).
fn validate_digest(d: &str) -> Result<(), String> {
    let (alg, hex) = d.split_once(':').ok_or("invalid checksum digest format")?;
    let len = match alg {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return Err("unsupported digest algorithm".into()),
    };
    if hex.len() != len {
        return Err("invalid checksum digest length".into());
    }
    if !hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err("invalid checksum digest format".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c";

    fn parts(image: &str) -> (String, String, String, String) {
        let r = ImageRef::parse(image).unwrap();
        (r.registry, r.repository, r.tag, r.digest)
    }

    fn s(a: &str, b: &str, c: &str, d: &str) -> (String, String, String, String) {
        (a.into(), b.into(), c.into(), d.into())
    }

    #[test]
    fn no_implied_registry() {
        assert_eq!(parts("nginx"), s("", "nginx", "", ""));
        assert_eq!(parts("nginx:1.19"), s("", "nginx", "1.19", ""));
        assert_eq!(parts("library/nginx:latest"), s("", "library/nginx", "latest", ""));
        assert_eq!(parts("docker.io/library/nginx"), s("docker.io", "library/nginx", "", ""));
    }

    #[test]
    fn registries_with_ports_and_localhost() {
        assert_eq!(
            parts("fictional.registry.example:10443/karmada/controller:v1.0.0"),
            s("fictional.registry.example:10443", "karmada/controller", "v1.0.0", "")
        );
        assert_eq!(parts("localhost/app"), s("localhost", "app", "", ""));
        assert_eq!(parts("localhost:5000/app:1"), s("localhost:5000", "app", "1", ""));
        assert_eq!(parts("[::1]:5000/app"), s("[::1]:5000", "app", "", ""));
        // A port-looking suffix without a path is a tag.
        assert_eq!(parts("localhost:5000"), s("", "localhost", "5000", ""));
    }

    #[test]
    fn digests() {
        assert_eq!(parts(&format!("registry.k8s.io/pause@{SHA}")), s("registry.k8s.io", "pause", "", SHA));
        // With both, upstream keeps the tag only.
        assert_eq!(parts(&format!("pause:3.9@{SHA}")), s("", "pause", "3.9", ""));
        assert_eq!(ImageRef::parse("pause@sha256:abc").unwrap_err(), "invalid reference format");
        assert_eq!(
            ImageRef::parse(&format!("pause@sha256:{}", "a".repeat(40))).unwrap_err(),
            "invalid checksum digest length"
        );
        assert_eq!(
            ImageRef::parse(&format!("pause@md5:{}", "a".repeat(32))).unwrap_err(),
            "unsupported digest algorithm"
        );
    }

    #[test]
    fn invalid_references() {
        assert_eq!(ImageRef::parse("").unwrap_err(), "repository name must have at least one component");
        assert_eq!(ImageRef::parse("Nginx").unwrap_err(), "repository name must be lowercase");
        assert_eq!(ImageRef::parse("nginx:").unwrap_err(), "invalid reference format");
        assert_eq!(ImageRef::parse("a//b").unwrap_err(), "invalid reference format");
        assert_eq!(ImageRef::parse("-a").unwrap_err(), "invalid reference format");
        assert!(ImageRef::parse(&"a".repeat(256)).unwrap_err().contains("255"));
        assert!(ImageRef::parse("my-app__x.y/z--w:t_1.0-rc").is_ok());
    }

    #[test]
    fn renders_back() {
        for image in ["nginx", "nginx:1", "a.io:1/b/c:d", &format!("a.io/b@{SHA}")] {
            assert_eq!(ImageRef::parse(image).unwrap().to_string(), image);
        }
        let mut r = ImageRef::parse("nginx:1").unwrap();
        r.set_tag_or_digest(SHA);
        assert_eq!(r.to_string(), format!("nginx@{SHA}"));
        r.set_tag_or_digest("not a tag");
        assert_eq!(r.to_string(), format!("nginx@{SHA}"));
        r.remove_tag_or_digest();
        assert_eq!(r.to_string(), "nginx");
    }
}

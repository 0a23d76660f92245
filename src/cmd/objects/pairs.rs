//! `KEY=VALUE` and `KEY-` arguments of `label` and `annotate`, told apart from the resource
//! arguments before them as kubectl tells them apart.

use std::collections::BTreeMap;

/// Splits the arguments into resources and pairs: a pair contains `=` (not first) or ends in
/// `-`; every resource must come before the first pair.
pub fn split(args: &[String], pair_type: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut resources, mut pairs) = (Vec::new(), Vec::new());
    for a in args {
        let is_pair = (a.contains('=') && !a.starts_with('=')) || (a.ends_with('-') && a != "-");
        match (is_pair, pairs.is_empty()) {
            (true, _) => pairs.push(a.clone()),
            (false, true) => resources.push(a.clone()),
            (false, false) => return Err(format!("all resources must be specified before {pair_type} changes: {a}")),
        }
    }
    Ok((resources, pairs))
}

/// Pairs to set and keys to remove, as kubectl's `ParsePairs` reads them (the last value of a
/// key wins; the value may contain `=`).
pub fn parse(pairs: &[String], pair_type: &str) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    let (mut set, mut remove, mut invalid) = (BTreeMap::new(), Vec::new(), Vec::new());
    for p in pairs {
        if let Some((k, v)) = p.split_once('=').filter(|_| !p.starts_with('=')) {
            set.insert(k.to_string(), v.to_string());
        } else if let Some(k) = p.strip_suffix('-').filter(|_| p != "-") {
            remove.push(k.to_string());
        } else {
            invalid.push(p.as_str());
        }
    }
    if !invalid.is_empty() {
        return Err(format!("invalid {pair_type} format: {}", invalid.join(", ")));
    }
    Ok((set, remove))
}

/// kubectl's `--dry-run` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DryRun {
    #[default]
    None,
    Client,
    Server,
}

impl DryRun {
    /// Parses `--dry-run` (a bare `--dry-run` arrives as `unchanged`, meaning client, as in
    /// kubectl); the second value is kubectl's deprecation warning, if any.
    pub fn parse(value: &str) -> Result<(DryRun, Option<String>), String> {
        Ok(match value {
            "unchanged" => {
                (DryRun::Client, Some("--dry-run is deprecated and can be replaced with --dry-run=client.".into()))
            }
            "client" => (DryRun::Client, None),
            "server" => (DryRun::Server, None),
            "none" => (DryRun::None, None),
            b @ ("true" | "1" | "t" | "T" | "TRUE" | "True") => (
                DryRun::Client,
                Some(format!("--dry-run={b} is deprecated (boolean value) and can be replaced with --dry-run=client.")),
            ),
            b @ ("false" | "0" | "f" | "F" | "FALSE" | "False") => (
                DryRun::None,
                Some(format!("--dry-run={b} is deprecated (boolean value) and can be replaced with --dry-run=none.")),
            ),
            other => {
                return Err(format!("Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."));
            }
        })
    }

    /// What kubectl's name printer appends: ` (dry run)` or ` (server dry run)`.
    pub fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn resources_come_before_pairs() {
        let (r, p) = split(&s(&["deploy", "web", "a=b", "c-"]), "label").unwrap();
        assert_eq!((r, p), (s(&["deploy", "web"]), s(&["a=b", "c-"])));
        // `=x` and `-` are resources, as in kubectl.
        let (r, p) = split(&s(&["cm", "=x", "-"]), "label").unwrap();
        assert_eq!((r.len(), p.len()), (3, 0));
        assert_eq!(
            split(&s(&["deploy", "a=b", "web"]), "label").unwrap_err(),
            "all resources must be specified before label changes: web"
        );
    }

    #[test]
    fn pairs_set_and_remove() {
        let (set, remove) = parse(&s(&["a=b=c", "a=d", "x-"]), "annotation").unwrap();
        assert_eq!(set, BTreeMap::from([("a".to_string(), "d".to_string())]));
        assert_eq!(remove, s(&["x"]));
        assert_eq!(parse(&s(&["=a", "b"]), "annotation").unwrap_err(), "invalid annotation format: =a, b");
    }

    #[test]
    fn dry_run_values_are_kubectls() {
        assert_eq!(DryRun::parse("server").unwrap(), (DryRun::Server, None));
        assert_eq!(DryRun::parse("unchanged").unwrap().0, DryRun::Client);
        assert_eq!(DryRun::parse("false").unwrap().0, DryRun::None);
        assert_eq!(
            DryRun::parse("bogus").unwrap_err(),
            "Invalid dry-run value (bogus). Must be \"none\", \"server\", or \"client\"."
        );
    }
}

//! The `--<component>-extra-args` grammar (upstream §3.6): comma-split pieces glued back into
//! `--key=value` arguments, checked, then merged over a component's default command.

/// Why an extra argument was refused; the message names the flag and the offending piece.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtraArgsError {
    /// A piece has leading or trailing whitespace (a shell quoting mistake, usually).
    #[error("invalid --{flag} value {piece:?}: arguments must not start or end with whitespace")]
    Whitespace { flag: String, piece: String },
    /// The first piece is not an option, so there is nothing to glue it to.
    #[error("invalid --{flag} value {piece:?}: every argument must start with \"--\"")]
    NoDashes { flag: String, piece: String },
    /// The merged argument is not `--key` or `--key=value` with an ASCII key.
    #[error(
        "invalid --{flag} argument {arg:?}: it must look like --key or --key=value, the key starting with a letter and holding only letters, digits, '-' and '_'"
    )]
    Malformed { flag: String, arg: String },
}

/// Upstream's `^--[a-zA-Z][a-zA-Z0-9_-]*(=.*)?$`, written out (no regex engine needed for it).
fn well_formed(arg: &str) -> bool {
    let Some(rest) = arg.strip_prefix("--") else { return false };
    let key = rest.split_once('=').map_or(rest, |(k, _)| k);
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Glues the comma-split pieces of one `--<flag>` back into arguments and checks each:
/// a piece that does not start with `--` belongs to the previous value (`--k=v1,v2`).
pub fn parse(flag: &str, pieces: &[String]) -> Result<Vec<String>, ExtraArgsError> {
    let mut args: Vec<String> = Vec::new();
    for piece in pieces {
        if piece.trim() != piece {
            return Err(ExtraArgsError::Whitespace { flag: flag.into(), piece: piece.clone() });
        }
        match args.last_mut() {
            Some(last) if !piece.starts_with("--") => {
                last.push(',');
                last.push_str(piece);
            }
            None if !piece.starts_with("--") => {
                return Err(ExtraArgsError::NoDashes { flag: flag.into(), piece: piece.clone() });
            }
            _ => args.push(piece.clone()),
        }
    }
    for arg in &args {
        if !well_formed(arg) {
            return Err(ExtraArgsError::Malformed { flag: flag.into(), arg: arg.clone() });
        }
    }
    Ok(args)
}

fn key(arg: &str) -> &str {
    arg.split_once('=').map_or(arg, |(k, _)| k)
}

/// Upstream's merge: the binary first, then the defaults whose key no extra argument
/// overrides (in their order), then the extra arguments sorted.
pub fn merge(binary: &str, defaults: &[String], extra: &[String]) -> Vec<String> {
    let mut out = vec![binary.to_string()];
    out.extend(defaults.iter().filter(|d| !extra.iter().any(|e| key(e) == key(d))).cloned());
    let mut extra = extra.to_vec();
    extra.sort();
    out.extend(extra);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &[&str]) -> Vec<String> {
        s.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn glues_values_that_contained_commas() {
        assert_eq!(parse("x", &pieces(&["--k=v1", "v2", "--v=4"])).unwrap(), pieces(&["--k=v1,v2", "--v=4"]));
    }

    #[test]
    fn accepts_what_upstream_accepts() {
        for ok in ["--key==value", "--k=🙂", "--k=a，b", "--flag", "--a_b-c=1"] {
            assert!(parse("x", &pieces(&[ok])).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rejects_what_upstream_rejects() {
        for bad in ["-v=2", "v=2", "--", "--123k", "--key@h", "--my key=v", "--ключ=1", " --v=2", "--v=2\t"] {
            assert!(parse("x", &pieces(&[bad])).is_err(), "{bad:?}");
        }
        let e = parse("etcd-extra-args", &pieces(&["v=2"])).unwrap_err();
        assert_eq!(e.to_string(), "invalid --etcd-extra-args value \"v=2\": every argument must start with \"--\"");
    }

    #[test]
    fn merge_keeps_unoverridden_defaults_in_order_and_sorts_extras() {
        let defaults = pieces(&["--b=1", "--a=2", "--v=2"]);
        let extra = pieces(&["--z=1", "--v=4", "--c"]);
        assert_eq!(merge("bin", &defaults, &extra), pieces(&["bin", "--b=1", "--a=2", "--c", "--v=4", "--z=1"]));
    }
}

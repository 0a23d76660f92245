//! The resource arguments of `get`, with kubectl's grammar: `TYPE[,TYPE...] [NAME...]` or
//! `TYPE/NAME...` (all in that form).

/// One resource type as typed and the names asked for (none: list them all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub type_arg: String,
    pub names: Vec<String>,
}

/// What the arguments ask for, types in the order first named.
pub fn parse(args: &[String]) -> Result<Vec<Wanted>, String> {
    if args.is_empty() {
        return Err("You must specify the type of resource to get.".into());
    }
    if args.iter().any(|a| a.contains('/')) {
        let mut out: Vec<Wanted> = Vec::new();
        for a in args {
            let Some((t, n)) = a.split_once('/').filter(|(t, n)| !t.is_empty() && !n.is_empty() && !n.contains('/'))
            else {
                return Err(if a.contains('/') {
                    format!("arguments in resource/name form must have a single resource and name: {a:?}")
                } else {
                    "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'karmadactl get resource/<resource_name>' instead of 'karmadactl get resource resource/<resource_name>'".into()
                });
            };
            match out.iter_mut().find(|w| w.type_arg == t) {
                Some(w) => w.names.push(n.to_string()),
                None => out.push(Wanted { type_arg: t.to_string(), names: vec![n.to_string()] }),
            }
        }
        return Ok(out);
    }
    let names: Vec<String> = args[1..].to_vec();
    let mut out: Vec<Wanted> = Vec::new();
    for t in args[0].split(',').filter(|t| !t.is_empty()) {
        if !out.iter().any(|w| w.type_arg == t) {
            out.push(Wanted { type_arg: t.to_string(), names: names.clone() });
        }
    }
    if out.is_empty() {
        return Err("You must specify the type of resource to get.".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn types_then_names() {
        let w = parse(&s(&["rs,svc", "a", "b"])).unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0], Wanted { type_arg: "rs".into(), names: s(&["a", "b"]) });
        assert_eq!(w[1].type_arg, "svc");
        assert_eq!(parse(&s(&["deploy"])).unwrap()[0].names, Vec::<String>::new());
    }

    #[test]
    fn type_slash_name_groups_by_type() {
        let w = parse(&s(&["rs/a", "svc/k", "rs/b"])).unwrap();
        assert_eq!(
            w,
            vec![
                Wanted { type_arg: "rs".into(), names: s(&["a", "b"]) },
                Wanted { type_arg: "svc".into(), names: s(&["k"]) }
            ]
        );
    }

    #[test]
    fn mixed_or_empty_forms_are_refused() {
        assert!(parse(&[]).unwrap_err().starts_with("You must specify the type"));
        assert!(parse(&s(&["deploy", "rs/a"])).unwrap_err().starts_with("there is no need"));
        assert!(parse(&s(&["rs/a/b"])).unwrap_err().contains("single resource and name"));
        assert!(parse(&s(&[","])).is_err());
    }
}

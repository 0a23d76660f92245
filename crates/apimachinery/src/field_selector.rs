//! Field selectors with k8s.io/apimachinery/pkg/fields semantics, including `\` escaping.

use std::fmt;

use super::selector::SelectorError;

/// A field selector operator. `==` parses to [`FieldOperator::Equals`], as upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldOperator {
    /// `field=value` or `field==value`.
    Equals,
    /// `field!=value`.
    NotEquals,
}

/// One `field<op>value` term; `value` is unescaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRequirement {
    /// The field label, e.g. `metadata.name` (never escaped upstream).
    pub field: String,
    /// The comparison.
    pub operator: FieldOperator,
    /// The unescaped value.
    pub value: String,
}

impl fmt::Display for FieldRequirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.operator {
            FieldOperator::Equals => "=",
            FieldOperator::NotEquals => "!=",
        };
        write!(f, "{}{op}{}", self.field, escape_field_value(&self.value))
    }
}

/// A field selector: the AND of its terms. Empty selects everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldSelector {
    terms: Vec<FieldRequirement>,
}

/// fields.EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`.
pub fn escape_field_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// fields.UnescapeValue: only `\\`, `\,` and `\=` are escapes, and bare `,`/`=` are errors.
pub fn unescape_field_value(s: &str) -> Result<String, SelectorError> {
    let mut out = String::with_capacity(s.len());
    let mut in_slash = false;
    for c in s.chars() {
        if in_slash {
            if !matches!(c, '\\' | ',' | '=') {
                return Err(SelectorError::Field(format!("invalid field selector: invalid escape sequence: \\{c}")));
            }
            out.push(c);
            in_slash = false;
            continue;
        }
        match c {
            '\\' => in_slash = true,
            // Upstream formats the rune with %v, i.e. as its code point number.
            ',' | '=' => {
                return Err(SelectorError::Field(format!(
                    "invalid field selector: unescapedRune character in value: {}",
                    c as u32
                )));
            }
            c => out.push(c),
        }
    }
    if in_slash {
        return Err(SelectorError::Field("invalid field selector: invalid escape sequence: \\".into()));
    }
    Ok(out)
}

/// splitTerms: splits on commas not preceded by an escaping backslash (escapes kept).
fn split_terms(s: &str) -> Vec<&str> {
    let mut terms = Vec::new();
    let mut start = 0;
    let mut in_slash = false;
    for (i, c) in s.char_indices() {
        if in_slash {
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' {
            terms.push(&s[start..i]);
            start = i + 1;
        }
    }
    terms.push(&s[start..]);
    terms
}

/// splitTerm: the first position where `!=`, `==` or `=` starts splits field from value.
fn split_term(term: &str) -> Option<(&str, FieldOperator, &str)> {
    for (i, _) in term.char_indices() {
        let rest = &term[i..];
        for (op, kind) in
            [("!=", FieldOperator::NotEquals), ("==", FieldOperator::Equals), ("=", FieldOperator::Equals)]
        {
            if let Some(value) = rest.strip_prefix(op) {
                return Some((&term[..i], kind, value));
            }
        }
    }
    None
}

impl FieldSelector {
    /// The selector that matches every object.
    pub fn everything() -> Self {
        Self::default()
    }

    /// fields.ParseSelector. Terms are kept sorted by their canonical form (upstream sorts the
    /// raw terms; the order only shows in `Display`), and a term with an empty field and value
    /// is dropped as upstream's Transform does.
    pub fn parse(s: &str) -> Result<Self, SelectorError> {
        let mut terms = Vec::new();
        if s.is_empty() {
            return Ok(Self::default());
        }
        for part in split_terms(s) {
            if part.is_empty() {
                continue;
            }
            let Some((field, operator, raw)) = split_term(part) else {
                return Err(SelectorError::Field(format!("invalid selector: '{s}'; can't understand '{part}'")));
            };
            let value = unescape_field_value(raw)?;
            if field.is_empty() && value.is_empty() {
                continue;
            }
            terms.push(FieldRequirement { field: field.to_string(), operator, value });
        }
        terms.sort_by_cached_key(ToString::to_string);
        Ok(Self { terms })
    }

    /// Whether every term holds; `get` returns a field's value, and a missing field compares
    /// as the empty string (fields.Set.Get semantics).
    pub fn matches(&self, get: &dyn Fn(&str) -> Option<String>) -> bool {
        self.terms.iter().all(|t| {
            let got = get(&t.field).unwrap_or_default();
            match t.operator {
                FieldOperator::Equals => got == t.value,
                FieldOperator::NotEquals => got != t.value,
            }
        })
    }

    /// The distinct fields used, in order, so the server can reject unsupported ones
    /// (`field label not supported: <f>`).
    pub fn fields(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for t in &self.terms {
            if !out.contains(&t.field.as_str()) {
                out.push(&t.field);
            }
        }
        out
    }

    /// The terms.
    pub fn requirements(&self) -> &[FieldRequirement] {
        &self.terms
    }

    /// Whether the selector has no terms.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// RequiresExactMatch: the value the first `field=value` term on `field` pins, if any.
    pub fn requires_exact_match(&self, field: &str) -> Option<&str> {
        self.terms.iter().find(|t| t.field == field && t.operator == FieldOperator::Equals).map(|t| t.value.as_str())
    }
}

impl fmt::Display for FieldSelector {
    /// Terms joined by `,`, values escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    fn parse_ok(s: &str) -> FieldSelector {
        FieldSelector::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn parses_and_matches() {
        let sel = parse_ok("metadata.name=foo,status.phase!=Running");
        assert_eq!(sel.fields(), vec!["metadata.name", "status.phase"]);
        let obj = BTreeMap::from([("metadata.name", "foo"), ("status.phase", "Pending")]);
        let get = |f: &str| obj.get(f).map(|v| v.to_string());
        assert!(sel.matches(&get));
        assert!(!parse_ok("metadata.name==bar").matches(&get));
        assert!(parse_ok("spec.nodeName=").matches(&get), "a missing field is the empty string");
        assert!(parse_ok("").matches(&get) && parse_ok("").is_empty() && parse_ok(",,").is_empty());
        assert_eq!(sel.requires_exact_match("metadata.name"), Some("foo"));
        assert_eq!(sel.requires_exact_match("status.phase"), None);
        assert_eq!(parse_ok("a==b").to_string(), "a=b");
        assert!(parse_ok("=").is_empty());
    }

    #[test]
    fn escaping() {
        let sel = parse_ok(r"metadata.name=a\,b\=c\\d,x=y");
        assert_eq!(sel.requires_exact_match("metadata.name"), Some(r"a,b=c\d"));
        assert_eq!(sel.to_string(), r"metadata.name=a\,b\=c\\d,x=y");
        assert_eq!(escape_field_value(r"a,b=c\"), r"a\,b\=c\\");
    }

    #[test]
    fn errors_match_apimachinery() {
        let err = |s: &str| FieldSelector::parse(s).map_err(|e| e.to_string()).err().unwrap_or_default();
        assert_eq!(err("a=b,c"), "invalid selector: 'a=b,c'; can't understand 'c'");
        assert_eq!(err("a=b=c"), "invalid field selector: unescapedRune character in value: 61");
        assert_eq!(err("a=b\\"), "invalid field selector: invalid escape sequence: \\");
        assert_eq!(err("a=b\\!"), "invalid field selector: invalid escape sequence: \\!");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn display_round_trips(terms in proptest::collection::vec(("[a-z.]{1,8}", any::<bool>(), "[a-z,=\\\\! ]{0,6}"), 0..4)) {
            let terms = terms
                .into_iter()
                .map(|(field, eq, value)| FieldRequirement {
                    field,
                    operator: if eq { FieldOperator::Equals } else { FieldOperator::NotEquals },
                    value,
                })
                .collect::<Vec<_>>();
            let shown = FieldSelector { terms }.to_string();
            let sel = FieldSelector::parse(&shown);
            prop_assert!(sel.is_ok(), "{}", shown);
            let sel = sel.unwrap_or_default();
            prop_assert_eq!(FieldSelector::parse(&sel.to_string()), Ok(sel));
        }

        #[test]
        fn random_strings_never_panic(s in "\\PC{0,40}") {
            if let Ok(sel) = FieldSelector::parse(&s) {
                prop_assert_eq!(FieldSelector::parse(&sel.to_string()), Ok(sel));
            }
        }
    }
}

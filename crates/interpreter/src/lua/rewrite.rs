//! The one change made to a script's text before it is loaded: each empty table constructor
//! `{}` becomes a call that makes an insertion-ordered table ([`super::ordered`]), so `pairs`
//! over a table the script fills key by key walks it in the order gopher-lua does. Strings and
//! comments are left alone, and lines keep their numbers, so error positions stay true.

use std::borrow::Cow;

/// The global the rewritten constructors call.
pub(super) const ORDERED_TABLE: &str = "__karmada_ordered_table";

/// Lua's keywords: after one of these, `{` starts a constructor rather than call arguments.
const KEYWORDS: [&str; 21] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil", "not", "or",
    "repeat", "return", "then", "true", "until", "while",
];

/// `script` with every empty constructor replaced; borrowed when there is none.
pub(super) fn ordered_constructors(script: &str) -> Cow<'_, str> {
    if !script.contains('{') {
        return Cow::Borrowed(script);
    }
    let bytes = script.as_bytes();
    let mut out = String::with_capacity(script.len() + 64);
    let mut copied = 0;
    let mut i = 0;
    // What precedes the current position: whether `{` there would be call arguments, and
    // whether a line break came since the last token.
    let mut after_call_target = false;
    let mut new_line = false;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                i = skip_comment(bytes, i + 2);
                continue;
            }
            b'"' | b'\'' => {
                i = skip_quoted(bytes, i);
                after_call_target = true;
                new_line = false;
                continue;
            }
            b'[' if long_bracket_level(bytes, i).is_some() => {
                let level = long_bracket_level(bytes, i).unwrap_or_default();
                i = skip_long(bytes, i + level + 2, level);
                after_call_target = true;
                new_line = false;
                continue;
            }
            b'{' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() && bytes[j] != b'\n' {
                    j += 1;
                }
                // `f` and `{}` on the next line is a call Lua 5.1 allows; as `f` and `(...)` it
                // would be refused as ambiguous, so that rare table is left as written.
                if bytes.get(j) == Some(&b'}') && !(after_call_target && new_line) {
                    out.push_str(&script[copied..i]);
                    if after_call_target {
                        out.push_str(&format!("({ORDERED_TABLE}())"));
                    } else {
                        out.push_str(&format!("{ORDERED_TABLE}()"));
                    }
                    copied = j + 1;
                    i = j + 1;
                    after_call_target = true;
                    new_line = false;
                    continue;
                }
                after_call_target = false;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                after_call_target = !KEYWORDS.contains(&&script[start..i]);
                new_line = false;
                continue;
            }
            c if c.is_ascii_digit() => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                after_call_target = false;
                new_line = false;
                continue;
            }
            b')' | b']' | b'}' => after_call_target = true,
            b'\n' => new_line = true,
            c if c.is_ascii_whitespace() => {}
            _ => after_call_target = false,
        }
        if c != b'\n' && !c.is_ascii_whitespace() {
            new_line = false;
        }
        i += 1;
    }
    if copied == 0 {
        return Cow::Borrowed(script);
    }
    out.push_str(&script[copied..]);
    Cow::Owned(out)
}

/// `[[`, `[=[`, ... at `i`: the number of `=` signs.
fn long_bracket_level(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while bytes.get(j) == Some(&b'=') {
        j += 1;
    }
    (bytes.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// The position after the long string or comment whose body starts at `i`.
fn skip_long(bytes: &[u8], mut i: usize, level: usize) -> usize {
    while i < bytes.len() {
        if bytes[i] == b']' {
            let mut j = i + 1;
            while bytes.get(j) == Some(&b'=') {
                j += 1;
            }
            if j - i - 1 == level && bytes.get(j) == Some(&b']') {
                return j + 1;
            }
        }
        i += 1;
    }
    bytes.len()
}

/// The position after the comment whose text starts at `i` (after `--`).
fn skip_comment(bytes: &[u8], i: usize) -> usize {
    if bytes.get(i) == Some(&b'[')
        && let Some(level) = long_bracket_level(bytes, i)
    {
        return skip_long(bytes, i + level + 2, level);
    }
    bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |p| i + p)
}

/// The position after the quoted string starting at `i`.
fn skip_quoted(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b if b == quote => return j + 1,
            b'\n' => return j,
            _ => j += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::ordered_constructors;

    #[test]
    fn empty_constructors_become_ordered_tables_and_nothing_else_changes() {
        let script = "local t = {} f{} return { }, {1}, '{}', \"{}\" -- {}\n--[[ {} ]] x = [==[{}]==] y = g() {}";
        assert_eq!(
            ordered_constructors(script),
            "local t = __karmada_ordered_table() f(__karmada_ordered_table()) return __karmada_ordered_table(), {1}, '{}', \"{}\" -- {}\n--[[ {} ]] x = [==[{}]==] y = g() (__karmada_ordered_table())"
        );
        assert!(matches!(ordered_constructors("return {a = 1}"), std::borrow::Cow::Borrowed(_)));
        // A constructor split over lines is left as written, and so is a call's table argument
        // on the line after the function.
        assert_eq!(ordered_constructors("return {\n}"), "return {\n}");
        assert_eq!(ordered_constructors("f\n{}"), "f\n{}");
        assert_eq!(ordered_constructors("x =\n{}"), "x =\n__karmada_ordered_table()");
    }
}

//! kubectl's word wrapping for explain (the `wrap` template function, which is
//! `github.com/mitchellh/go-wordwrap` v1.0.1): breaks only at white space, keeps leading
//! spaces, counts characters rather than bytes, and lets a word longer than the limit overrun
//! it. Ported rule for rule because explain's output must match kubectl's byte for byte.

/// U+00A0 is white space to Unicode but never a place to break.
const NBSP: char = '\u{a0}';

/// `s` wrapped at `limit` characters per line.
pub fn wrap(s: &str, limit: usize) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let mut current = 0usize;
    let (mut word, mut space) = (String::new(), String::new());
    let (mut word_len, mut space_len) = (0usize, 0usize);
    for c in s.chars() {
        if c == '\n' {
            end_line(&mut out, &word, &space, current + space_len <= limit);
            word.clear();
            word_len = 0;
            space.clear();
            space_len = 0;
            out.push(c);
            current = 0;
        } else if c.is_whitespace() && c != NBSP {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                out.push_str(&space);
                out.push_str(&word);
                space.clear();
                space_len = 0;
                word.clear();
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + word_len + space_len > limit && word_len < limit {
                out.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    end_line(&mut out, &word, &space, current + space_len <= limit);
    out
}

/// What is pending at a newline or the end: a word with the spaces before it, or trailing
/// spaces alone, which are dropped when they would overrun the line.
fn end_line(out: &mut String, word: &str, space: &str, spaces_fit: bool) {
    if !word.is_empty() || spaces_fit {
        out.push_str(space);
    }
    out.push_str(word);
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn breaks_at_the_last_space_that_fits() {
        assert_eq!(wrap("aaa bbb ccc", 7), "aaa bbb\nccc");
        assert_eq!(wrap("aaa bbb ccc", 100), "aaa bbb ccc");
        assert_eq!(wrap("one two", 3), "one\ntwo");
    }

    #[test]
    fn long_words_overrun_and_newlines_restart_the_count() {
        assert_eq!(wrap("a https://example.com/very/long b", 10), "a\nhttps://example.com/very/long\nb");
        assert_eq!(wrap("ab\ncd ef", 5), "ab\ncd ef");
        assert_eq!(wrap("text\n", 76), "text\n");
    }

    #[test]
    fn leading_spaces_stay_and_characters_not_bytes_are_counted() {
        assert_eq!(wrap("  indented line", 20), "  indented line");
        assert_eq!(wrap("ééé ééé", 7), "ééé ééé");
        assert_eq!(wrap("a\u{a0}b c", 3), "a\u{a0}b\nc");
    }
}

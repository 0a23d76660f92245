//! An error as one line of text, for errors reported inside a message (a Status, a CSR's
//! failure condition, a log line) rather than returned.

/// An error with its causes joined by ": " (`client error (Connect): tcp connect error:
/// Connection refused`), for errors reported as text rather than returned: the top-level text
/// alone often does not say what failed.
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let next = s.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = s.source();
    }
    text
}

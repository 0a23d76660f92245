//! The options of a write (CreateOptions, UpdateOptions, PatchOptions) checked as kube's
//! ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions check them, before
//! anything is read or written: for now the `fieldManager`, which is recorded in every object's
//! managedFields and so must stay short and printable.

use karmadactl_apimachinery::{ApiError, BadValue, Cause};

use crate::filters::dispatch::Call;

/// kube's FieldManagerMaxLength.
pub(super) const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// Refuses the request as `<kind>.meta.k8s.io "" is invalid: ...` (422) when `causes` (checks
/// particular to the verb) or the fieldManager checks find anything.
pub(super) fn check(call: &Call, kind: &str, mut causes: Vec<Cause>) -> Result<(), ApiError> {
    causes.extend(field_manager_causes(call.param("fieldManager").unwrap_or("")));
    if causes.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid("meta.k8s.io", kind, "", causes))
}

/// kube's ValidateFieldManager: at most 128 bytes, every character printable.
fn field_manager_causes(manager: &str) -> Vec<Cause> {
    let mut causes = Vec::new();
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        causes.push(Cause::too_long("fieldManager", FIELD_MANAGER_MAX_LENGTH));
    }
    for (i, c) in manager.char_indices().filter(|(_, c)| !is_print(*c)) {
        causes.push(Cause::invalid(
            "fieldManager",
            BadValue::Str(manager.to_string()),
            &format!("invalid character U+{:04X} (at position {i})", c as u32),
        ));
    }
    causes
}

/// Go's unicode.IsPrint, near enough without the Unicode tables: no control characters, no
/// spaces but U+0020, and none of the invisible format or private-use characters.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let invisible = matches!(
        c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
            | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF | 0xF0000..
    );
    !c.is_control() && !c.is_whitespace() && !invisible
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_manager_of_128_bytes_passes_and_129_fails() {
        assert!(field_manager_causes(&"m".repeat(128)).is_empty());
        let causes = field_manager_causes(&"m".repeat(129));
        assert_eq!(causes.len(), 1);
        assert_eq!(causes[0].field, "fieldManager");
        assert_eq!(causes[0].message, "Too long: may not be more than 128 bytes");
    }

    #[test]
    fn unprintable_characters_are_named_with_their_byte_position() {
        let causes = field_manager_causes("ab\u{7}c\u{200B}");
        let messages: Vec<&str> = causes.iter().map(|c| c.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Invalid value: \"ab\\ac\u{200b}\": invalid character U+0007 (at position 2)",
                "Invalid value: \"ab\\ac\u{200b}\": invalid character U+200B (at position 4)"
            ]
        );
        assert!(field_manager_causes("kubectl-client-side-apply é 漢字 ✓").is_empty());
    }
}

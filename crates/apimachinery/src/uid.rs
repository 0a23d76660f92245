//! Object UIDs: the random identifier the API server gives every object, also used by the
//! engine for the permanent ids it labels bindings and Works with.

/// A random RFC 4122 version-4 UUID, as Kubernetes gives every object.
pub fn new_uid() -> String {
    let mut b = [0u8; 16];
    // The system RNG failing is not recoverable for a server that must hand out unique ids;
    // fall back to time-derived bytes rather than panicking mid-request.
    if ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b).is_err() {
        let nanos = jiff::Timestamp::now().as_nanosecond().to_le_bytes();
        b.copy_from_slice(&nanos);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    format!(
        "{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_are_v4_and_unique() {
        let a = new_uid();
        let b = new_uid();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"));
    }
}

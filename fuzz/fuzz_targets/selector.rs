//! Fuzzes label and field selector parsing: what parses prints back to the same selector.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apimachinery::fuzzing::selector_body(data);
    });
}

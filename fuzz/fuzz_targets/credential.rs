//! Fuzzes bearer-token and cluster-info signature parsing: nothing forges a credential.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl::controlplane::auth::fuzzing::credential_body(data);
    });
}

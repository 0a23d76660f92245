//! Fuzzes bearer-token and cluster-info signature parsing: nothing forges a credential.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apiserver::auth::fuzzing::credential_body(data);
    });
}

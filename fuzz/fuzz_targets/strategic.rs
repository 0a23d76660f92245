//! Fuzzes strategic merge patches of a Deployment: no panics, directives honoured.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apimachinery::fuzzing::strategic_body(data);
    });
}

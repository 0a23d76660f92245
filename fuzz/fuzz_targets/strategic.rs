//! Fuzzes strategic merge patches of a Deployment: no panics, directives honoured.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl::controlplane::apimachinery::fuzzing::strategic_body(data);
    });
}

//! Fuzzes JSON patch and merge patch application on a fixed object: no panics, sane merges.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl::controlplane::apimachinery::fuzzing::patch_body(data);
    });
}

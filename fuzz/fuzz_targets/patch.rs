//! Fuzzes JSON patch and merge patch application on a fixed object: no panics, sane merges.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apimachinery::fuzzing::patch_body(data);
    });
}

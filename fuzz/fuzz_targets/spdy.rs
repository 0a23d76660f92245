//! Fuzzes SPDY/3.1 frame reading (exec and attach over SPDY): no panic, and every frame read
//! encodes to bytes that read back as the same frame.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apimachinery::fuzzing::spdy_body(data);
    });
}

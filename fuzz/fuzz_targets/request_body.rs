//! Fuzzes request body decoding (JSON, YAML, protobuf): no panics, bounded growth, stable JSON.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl_apiserver::fuzzing::request_body(data);
    });
}

//! Fuzzes request body decoding (JSON, YAML, protobuf): no panics, bounded growth, stable JSON.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        karmadactl::controlplane::apiserver::fuzzing::request_body(data);
    });
}

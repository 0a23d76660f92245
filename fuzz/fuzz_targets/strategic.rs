//! Fuzzes strategic merge patch application on a Deployment: no panics, only 4xx failures.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    karmadactl::controlplane::apimachinery::fuzzing::strategic_body(data);
});

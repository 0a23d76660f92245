//! Fuzzes JSON patch and merge patch application on a fixed object: no panics, sane merges.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    karmadactl::controlplane::apimachinery::fuzzing::patch_body(data);
});

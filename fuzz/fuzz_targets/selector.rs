//! Fuzzes label and field selector parsing: no panics, and display/parse round trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    karmadactl::controlplane::apimachinery::fuzzing::selector_body(data);
});

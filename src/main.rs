//! Thin entry point: the library parses, runs and classifies; this maps the result to an exit code.

/// mimalloc instead of glibc's malloc: the plane builds and drops a JSON document's worth of
/// small values on every request and watch event, and glibc's free lists cost it about a
/// quarter of its CPU (docs/performance.md, "Cluster failover"). mimalloc hands freed pages back
/// to the OS by itself; SQLite's C code keeps the C library's malloc, which
/// `freed_memory::release` trims. The `system-allocator` feature keeps the C library's malloc
/// for heap profilers that hook it (heaptrack).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(karmadactl::run(std::env::args_os().collect()));
}

//! Handing memory that startup freed back to the operating system.
//!
//! Startup decodes every CRD and lists every cached kind at once; glibc keeps the freed blocks
//! in its per-thread arenas, where they count as resident until reused. Trimming once after
//! each of those phases returns them, so an idle plane shows what it actually holds. It is not
//! done on a timer: a trim locks each arena while it walks it, which a busy server would feel.
//! The `karmadactl` binary gives Rust's heap to mimalloc, which returns freed pages by itself;
//! what glibc still holds there is SQLite's, and builds of these crates with the system
//! allocator (the tests) rely on the trim for all of it.

/// Returns free heap pages to the OS (glibc's `malloc_trim`); nothing on other C libraries.
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only inspects and shrinks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

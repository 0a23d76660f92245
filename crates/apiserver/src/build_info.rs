//! Facts about this build, captured by `build.rs`.

/// The crate version, e.g. `0.1.0`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Full git commit of the source tree, or `unknown` outside a git checkout.
pub const GIT_COMMIT: &str = env!("KARMADACTL_GIT_COMMIT");
/// `clean` or `dirty` (uncommitted changes at build time) as install.sh reports it through
/// KARMADACTL_GIT_TREE_STATE, or `unknown` (a plain `cargo build` does not look at the index).
pub const GIT_TREE_STATE: &str = env!("KARMADACTL_GIT_TREE_STATE");
/// The commit's date (or SOURCE_DATE_EPOCH), RFC 3339 UTC, or `unknown` outside a git checkout;
/// never the wall clock, so rebuilding the same commit gives the same binary.
pub const BUILD_DATE: &str = env!("KARMADACTL_BUILD_DATE");
/// `rustc --version` of the compiler that built this binary.
pub const RUSTC_VERSION: &str = env!("KARMADACTL_RUSTC_VERSION");
/// Target triple this binary was built for.
pub const TARGET: &str = env!("KARMADACTL_TARGET");

/// The first 7 characters of the commit, as git prints it.
pub fn short_commit() -> &'static str {
    if GIT_COMMIT.len() >= 7 && GIT_COMMIT != "unknown" { &GIT_COMMIT[..7] } else { GIT_COMMIT }
}

/// `os/arch` in Go's spelling (`linux/amd64`), as upstream and kubectl print it.
pub fn platform() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "powerpc64" => "ppc64le",
        other => other,
    };
    format!("{}/{}", std::env::consts::OS, arch)
}

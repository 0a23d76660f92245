//! What `/version` reports about the binary serving it. The facts are captured by the binary's
//! own build script and handed in through [`crate::ServerConfig`], so a new commit rebuilds only
//! the crate that captures them, not the API server.

/// Facts about the build of the running binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildInfo {
    /// The version, e.g. `0.1.0`.
    pub version: &'static str,
    /// Full git commit of the source tree, or `unknown`.
    pub git_commit: &'static str,
    /// `clean`, `dirty` or `unknown`.
    pub git_tree_state: &'static str,
    /// The commit's date, RFC 3339 UTC, or `unknown`.
    pub build_date: &'static str,
    /// `rustc --version` of the compiler that built the binary.
    pub rustc_version: &'static str,
    /// Target triple the binary was built for.
    pub target: &'static str,
}

impl BuildInfo {
    /// What a server reports when nobody told it: this crate's version and `unknown`.
    pub const UNKNOWN: BuildInfo = BuildInfo {
        version: env!("CARGO_PKG_VERSION"),
        git_commit: "unknown",
        git_tree_state: "unknown",
        build_date: "unknown",
        rustc_version: "unknown",
        target: "unknown",
    };

    /// The first 7 characters of the commit, as git prints it.
    pub fn short_commit(&self) -> &'static str {
        let commit = self.git_commit;
        if commit.len() >= 7 && commit != "unknown" { &commit[..7] } else { commit }
    }
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

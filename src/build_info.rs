//! Facts about this build, captured by `build.rs` (the API server reports them in `/version`,
//! handed in through its configuration).

pub use karmadactl_apiserver::build_info::{BuildInfo, platform};

/// This binary's build.
pub const CURRENT: BuildInfo = BuildInfo {
    version: env!("CARGO_PKG_VERSION"),
    // `unknown` outside a git checkout.
    git_commit: env!("KARMADACTL_GIT_COMMIT"),
    // `clean` or `dirty` as install.sh reports it through KARMADACTL_GIT_TREE_STATE, or
    // `unknown` (a plain `cargo build` does not look at the index).
    git_tree_state: env!("KARMADACTL_GIT_TREE_STATE"),
    // The commit's date (or SOURCE_DATE_EPOCH), never the wall clock, so rebuilding the same
    // commit gives the same binary.
    build_date: env!("KARMADACTL_BUILD_DATE"),
    rustc_version: env!("KARMADACTL_RUSTC_VERSION"),
    target: env!("KARMADACTL_TARGET"),
};

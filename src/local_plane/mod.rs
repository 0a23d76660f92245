//! An embedded control plane on this machine, as `init --embedded` sets it up, `local up`
//! starts it and `deinit` removes it: its files, its background process, and the first steps a
//! client takes with it. Simulated members (`src/cmd/local/simulated/`) and the local agent
//! (`crate::pull::local_agent`) run as background processes the same way.

pub mod client;
pub mod layout;
pub mod process;

pub use layout::{Layout, Record, default_data_dir};

//! An embedded control plane on this machine, as `init --embedded` sets it up and `deinit`
//! removes it: its files, its background process, and the first steps a client takes with it.

pub mod client;
pub mod layout;
pub mod process;

pub use layout::{Layout, Record, default_data_dir};

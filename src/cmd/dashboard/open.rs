//! Handing a URL to the desktop's browser.

use std::process::{Command, Stdio};

/// Starts the platform's URL opener; `false` when there is none, so the caller prints the
/// URL instead. The opener's own output is discarded: it is not this command's data.
pub fn browser(url: &str) -> bool {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

//! The local terminal under `-t`: raw mode while the session lasts (restored when the guard
//! drops, on every way out), and its size, sent at the start and again on every SIGWINCH, as
//! kubectl's term.TTY does.

use tokio::sync::mpsc;

use super::streams::Size;

/// Whether stdin is a terminal (kubectl's IsTerminalIn).
pub fn stdin_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stdin())
}

/// Raw mode on stdin until dropped.
pub struct Raw {
    saved: libc::termios,
}

impl Raw {
    /// Puts stdin in raw mode (no echo, no line editing, no signals from keys: Ctrl-C goes to
    /// the remote process).
    pub fn enter() -> std::io::Result<Self> {
        // SAFETY: tcgetattr/tcsetattr only read and write the termios struct given to them, and
        // fd 0 stays open for the life of the process.
        unsafe {
            let mut saved: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut saved) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let mut raw = saved;
            libc::cfmakeraw(&mut raw);
            if libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &raw) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(Self { saved })
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        // SAFETY: restores the settings read in `enter` on the same descriptor.
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &self.saved);
        }
    }
}

/// The size of the terminal on stdout (kubectl measures its output), if it is one.
pub fn size() -> Option<Size> {
    // SAFETY: TIOCGWINSZ fills the winsize struct given to it.
    let ws = unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) != 0 {
            return None;
        }
        ws
    };
    Some(Size { width: ws.ws_col, height: ws.ws_row })
}

/// The terminal's sizes: the current one now, then each new one after a SIGWINCH. Must be
/// called inside the runtime.
pub fn sizes() -> mpsc::Receiver<Size> {
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let mut last = size();
        if let Some(s) = last
            && tx.send(s).await.is_err()
        {
            return;
        }
        let Ok(mut winch) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::window_change()) else {
            return;
        };
        while winch.recv().await.is_some() {
            let now = size();
            if now != last
                && let Some(s) = now
            {
                last = now;
                if tx.send(s).await.is_err() {
                    return;
                }
            }
        }
    });
    rx
}

//! The one way commands print: data to stdout, progress and diagnostics to stderr.
//!
//! Nothing else in the crate writes to the terminal. A closed stdout (`karmadactl … | head`) is
//! not an error: the printer notices the broken pipe and quietly drops further data.

use std::cell::Cell;
use std::io::{self, IsTerminal, Write};

/// How chatty stderr may be. `--v=N` (klog style) raises it; progress lines need level ≥ 0.
#[derive(Debug)]
pub struct Printer {
    verbosity: i32,
    stderr_tty: bool,
    stdout_closed: Cell<bool>,
}

impl Printer {
    pub fn new(verbosity: i32) -> Self {
        Self { verbosity, stderr_tty: io::stderr().is_terminal(), stdout_closed: Cell::new(false) }
    }

    /// Whether stderr is a terminal (spinners and prompts only then).
    pub fn stderr_is_tty(&self) -> bool {
        self.stderr_tty
    }

    pub fn verbosity(&self) -> i32 {
        self.verbosity
    }

    /// Machine-readable or requested output. Written as given; add the newline yourself.
    pub fn data(&self, text: &str) -> io::Result<()> {
        if self.stdout_closed.get() {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.stdout_closed.set(true);
                Ok(())
            }
            other => other,
        }
    }

    /// One line of data (a newline is added).
    pub fn line(&self, text: &str) -> io::Result<()> {
        self.data(&format!("{text}\n"))
    }

    /// A progress or status line on stderr.
    pub fn progress(&self, text: &str) {
        let _ = writeln!(io::stderr().lock(), "{text}");
    }

    /// A warning on stderr.
    pub fn warn(&self, text: &str) {
        let _ = writeln!(io::stderr().lock(), "warning: {text}");
    }

    /// A diagnostic shown only at `--v=level` or above.
    pub fn debug(&self, level: i32, text: &str) {
        if self.verbosity >= level {
            let _ = writeln!(io::stderr().lock(), "{text}");
        }
    }
}

/// A long wait shown on stderr: an animated spinner on a terminal, one plain line otherwise
/// (logs and CI output stay readable).
pub struct Spinner {
    bar: Option<indicatif::ProgressBar>,
}

impl Printer {
    pub fn spinner(&self, message: &str) -> Spinner {
        if !self.stderr_tty {
            self.progress(&format!("{message}..."));
            return Spinner { bar: None };
        }
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(message.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(80));
        Spinner { bar: Some(bar) }
    }
}

impl Spinner {
    /// Ends the wait with a final line (kept on a terminal, printed otherwise).
    pub fn finish(self, printer: &Printer, message: &str) {
        match self.bar {
            Some(bar) => bar.finish_with_message(message.to_string()),
            None => printer.progress(message),
        }
    }

    /// Ends the wait without a line (the caller reports the failure).
    pub fn abandon(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

//! kubectl's `PrefixWriter` for describe output: text written at an indentation level (two
//! spaces a level) into Go's `text/tabwriter`, flushed into aligned blocks, with terminal
//! control characters escaped as kubectl's `printers.WriteEscaped` does so an object cannot
//! rewrite the reader's terminal.

use crate::output::TabWriter;

/// One describer's output being built.
#[derive(Debug)]
pub struct PrefixWriter {
    done: String,
    pending: TabWriter,
}

impl Default for PrefixWriter {
    fn default() -> Self {
        PrefixWriter { done: String::new(), pending: TabWriter::describe() }
    }
}

impl PrefixWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// `Write(level, ...)`: `text` indented by `level` levels; `\t` ends a cell, `\n` a line.
    pub fn write(&mut self, level: usize, text: &str) {
        let indent = "  ".repeat(level);
        self.pending.write(&escape(&format!("{indent}{text}")));
    }

    /// `WriteLine(...)`: `text` and a newline, without indentation.
    pub fn line(&mut self, text: &str) {
        self.pending.write(&escape(&format!("{text}\n")));
    }

    /// `Flush()`: aligns what was written so far on its own, apart from what follows.
    pub fn flush(&mut self) {
        let pending = std::mem::replace(&mut self.pending, TabWriter::describe());
        self.done.push_str(&pending.finish());
    }

    /// The aligned text.
    pub fn finish(mut self) -> String {
        self.flush();
        self.done
    }
}

/// ESC and carriage return shown as `^[` and `\r` rather than acted on by the terminal.
fn escape(text: &str) -> String {
    text.replace('\x1b', "^[").replace('\r', "\\r")
}

#[cfg(test)]
mod tests {
    use super::PrefixWriter;

    #[test]
    fn levels_indent_and_flushes_align_apart() {
        let mut w = PrefixWriter::new();
        w.write(0, "Name:\tx\n");
        w.write(1, "Longer Label:\ty\n");
        w.flush();
        w.write(1, "a\tb\n");
        w.line("\x1b[31mred\r");
        assert_eq!(w.finish(), "Name:            x\n  Longer Label:  y\n  a  b\n^[[31mred\\r\n");
    }
}

//! Free-form text aligned as kubectl's tab writer does it (liggitt/tabwriter, the fork of Go's
//! `text/tabwriter` that `k8s.io/cli-runtime/pkg/printers.GetNewTabWriter` returns), for output
//! that is not a rectangular table: upstream commands that write lines with a varying number of
//! tab-terminated cells, such as `interpret --check`.
//!
//! The rules: a cell is text ended by a tab; the text after a line's last tab is not a cell. A
//! column block is a run of consecutive lines that all have a cell in that column; its width is
//! `max(widest cell + 3, 6)`, and because kubectl sets `RememberWidths`, never less than the
//! width that column had in any earlier block. Cells are padded with spaces to their column's
//! width, so a line whose last character is a tab ends in spaces, as kubectl's does. Width is
//! counted in characters, as Go counts runes. [`super::Table`] is the rectangular special case.
//!
//! `kubectl describe` aligns with Go's plain `text/tabwriter` instead (minimum width 0, padding
//! 2, no remembered widths): [`TabWriter::describe`].

/// Text in, aligned text out: every line is formatted when [`TabWriter::finish`] is called, as
/// the Go writer formats on `Flush`.
#[derive(Debug)]
pub struct TabWriter {
    text: String,
    min_width: usize,
    padding: usize,
    remember_widths: bool,
}

impl Default for TabWriter {
    fn default() -> Self {
        TabWriter { text: String::new(), min_width: 6, padding: 3, remember_widths: true }
    }
}

impl TabWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// The writer `kubectl describe` formats with (`tabwriter.Writer.Init(buf, 0, 8, 2, ' ', 0)`).
    pub fn describe() -> Self {
        TabWriter { text: String::new(), min_width: 0, padding: 2, remember_widths: false }
    }

    /// Appends text; `\t` ends a cell and `\n` a line.
    pub fn write(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// The aligned text.
    pub fn finish(self) -> String {
        let lines: Vec<Vec<&str>> = self.text.split('\n').map(|l| l.split('\t').collect()).collect();
        let mut state = Format {
            lines: &lines,
            widths: Vec::new(),
            max_widths: Vec::new(),
            out: String::new(),
            min_width: self.min_width,
            padding: self.padding,
            remember_widths: self.remember_widths,
        };
        state.format(0, lines.len());
        state.out
    }
}

struct Format<'a> {
    lines: &'a [Vec<&'a str>],
    /// Widths of the columns to the left of the one being formatted.
    widths: Vec<usize>,
    /// The widest each column has been in any block so far (`RememberWidths`).
    max_widths: Vec<usize>,
    out: String,
    min_width: usize,
    padding: usize,
    remember_widths: bool,
}

impl Format<'_> {
    /// Go's `format`: finds the column blocks of column `widths.len()` between two lines and
    /// formats the columns to their right within each block.
    fn format(&mut self, mut line0: usize, line1: usize) {
        let column = self.widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            self.write_lines(line0, this);
            line0 = this;
            let mut width = self.min_width;
            while this < line1 && column + 1 < self.lines[this].len() {
                width = width.max(self.lines[this][column].chars().count() + self.padding);
                this += 1;
            }
            if !self.remember_widths {
                self.widths.push(width);
                self.format(line0, this);
                self.widths.pop();
                line0 = this;
                continue;
            }
            if self.max_widths.len() < self.widths.len() {
                let known = self.max_widths.len();
                self.max_widths.extend_from_slice(&self.widths[known..]);
            }
            match self.max_widths.get(column).copied() {
                None => self.max_widths.push(width),
                Some(seen) if seen > width => width = seen,
                Some(_) => self.max_widths[column] = width,
            }
            self.widths.push(width);
            self.format(line0, this);
            self.widths.pop();
            line0 = this;
        }
        self.write_lines(line0, line1);
    }

    /// Go's `writeLines`: cells padded to the known column widths, the rest as written.
    fn write_lines(&mut self, line0: usize, line1: usize) {
        for i in line0..line1 {
            for (j, cell) in self.lines[i].iter().enumerate() {
                self.out.push_str(cell);
                if let Some(width) = self.widths.get(j) {
                    let pad = width.saturating_sub(cell.chars().count());
                    self.out.extend(std::iter::repeat_n(' ', pad));
                }
            }
            if i + 1 < self.lines.len() {
                self.out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TabWriter;

    fn render(text: &str) -> String {
        let mut w = TabWriter::new();
        w.write(text);
        w.finish()
    }

    #[test]
    fn blocks_align_and_a_line_without_tabs_ends_a_block() {
        assert_eq!(render("a\tb\nlonger\tc\nplain\nx\ty\n"), "a        b\nlonger   c\nplain\nx        y\n");
    }

    #[test]
    fn widths_are_remembered_across_blocks_and_trailing_tabs_pad() {
        // The second block's column is narrower but keeps the first block's width.
        assert_eq!(
            render("TARGET: apps/v1 Deployment\t\nRULES:\n  a:\tPASS\n"),
            concat!("TARGET: apps/v1 Deployment   \n", "RULES:\n", "  a:                         PASS\n")
        );
    }

    #[test]
    fn describe_pads_by_two_and_forgets_widths_between_blocks() {
        let mut w = TabWriter::describe();
        w.write("Name:\tx\nLabels:\t<none>\nMetadata:\n  A:\tb\n");
        assert_eq!(w.finish(), "Name:    x\nLabels:  <none>\nMetadata:\n  A:  b\n");
    }

    #[test]
    fn the_minimum_width_is_six_and_inner_columns_are_per_block() {
        assert_eq!(render("a\tb\tc\nd\te\n"), "a     b     c\nd     e\n");
    }
}

//! kubectl's human-readable tables, byte for byte.
//!
//! kubectl writes rows through Go's `text/tabwriter` with minwidth 6, tabwidth 4, padding 3 and
//! padchar ' ' (`k8s.io/cli-runtime/pkg/printers/tabwriter.go`). For a rectangular table that
//! means: every column but the last is padded with spaces to `max(widest cell + 3, 6)`; the last
//! column is written as is. Width is counted in characters (Go counts runes), so CJK text counts
//! one per character, unlike the `tabwriter` crate, which uses display width. Verified against
//! `kubectl.1.32 config get-contexts` in `tests/it/output.rs`.
//!
//! Consequence worth knowing: when the last cell of a row is empty the line ends in the padding
//! of the previous column, i.e. with trailing spaces. kubectl does the same, so we keep it.

use super::format::OutputFormat;

/// Go tabwriter settings kubectl uses.
const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

/// A table as kubectl prints it: no borders, one header line, rows of cells.
///
/// Cells are written as given; pass `<none>` (or `<unknown>` …) yourself where kubectl shows a
/// placeholder. A row shorter than the header is padded with empty cells; extra cells are dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// Column names. They are printed upper-cased, as kubectl does with server-side tables.
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Indexes of the columns only `-o wide` shows (kubectl's column priority > 0).
    pub wide_columns: Vec<usize>,
}

/// How to print a [`Table`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Show the wide-only columns (`-o wide`).
    pub wide: bool,
    /// Leave out the header line (`--no-headers`).
    pub no_headers: bool,
}

impl TableOptions {
    /// The options for an `-o` value and `--no-headers`.
    pub fn new(format: OutputFormat, no_headers: bool) -> Self {
        Self { wide: format == OutputFormat::Wide, no_headers }
    }
}

impl Table {
    pub fn new<I, S>(headers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self { headers: headers.into_iter().map(Into::into).collect(), ..Self::default() }
    }

    /// Marks columns (by index into `headers`) as shown only with `-o wide`.
    pub fn with_wide_columns(mut self, columns: impl IntoIterator<Item = usize>) -> Self {
        self.wide_columns.extend(columns);
        self
    }

    pub fn push_row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// Appends a column after the existing ones (wide-only columns included), with one cell per
    /// row in row order; missing cells are empty. Used for `--show-labels` and `-L`.
    pub fn push_column<I, S>(&mut self, header: impl Into<String>, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let index = self.headers.len();
        self.headers.push(header.into());
        let mut cells = cells.into_iter().map(Into::into);
        for row in &mut self.rows {
            row.resize(index, String::new());
            row.push(cells.next().unwrap_or_default());
        }
    }

    /// `--show-labels`: appends kubectl's `LABELS` column, one label set per row.
    pub fn push_labels_column<'a, R, L>(&mut self, labels_per_row: R)
    where
        R: IntoIterator<Item = L>,
        L: IntoIterator<Item = (&'a str, &'a str)>,
    {
        self.push_column("LABELS", labels_per_row.into_iter().map(labels_cell));
    }

    /// The table as kubectl prints it, every line ending in `\n`. Empty when there is nothing
    /// to print (no rows and no header).
    pub fn render(&self, options: TableOptions) -> String {
        let visible: Vec<usize> =
            (0..self.headers.len()).filter(|i| options.wide || !self.wide_columns.contains(i)).collect();
        let header: Vec<String> = visible.iter().map(|&i| self.headers[i].to_uppercase()).collect();
        let rows = self
            .rows
            .iter()
            .map(|row| visible.iter().map(|&i| row.get(i).map_or("", String::as_str)).collect::<Vec<&str>>());
        let mut lines: Vec<Vec<&str>> = Vec::with_capacity(self.rows.len() + 1);
        if !options.no_headers {
            lines.push(header.iter().map(String::as_str).collect());
        }
        lines.extend(rows);
        render_cells(&lines)
    }
}

/// Lays out rectangular rows like Go's tabwriter with kubectl's settings.
fn render_cells(lines: &[Vec<&str>]) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![MIN_WIDTH; columns.saturating_sub(1)];
    for line in lines {
        for (width, cell) in widths.iter_mut().zip(line) {
            *width = (*width).max(cell.chars().count() + PADDING);
        }
    }
    let mut out = String::new();
    for line in lines {
        for (i, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(width) = widths.get(i) {
                let pad = width - cell.chars().count();
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
    out
}

/// kubectl's `labels.FormatLabels`: `k=v` pairs sorted as whole strings (so `a.b=2` sorts
/// before `a=1`), comma-joined, or `<none>` when there are none.
pub fn labels_cell<'a>(labels: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut pairs: Vec<String> = labels.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    if pairs.is_empty() {
        return "<none>".to_owned();
    }
    pairs.sort_unstable();
    pairs.join(",")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn contexts() -> Table {
        let mut t = Table::new(["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"]);
        t.push_row(["*", "a", "c1", "u", ""]);
        t.push_row(["", "bb", "a-very-long-cluster-name-indeed", "u", "ns"]);
        t
    }

    #[test]
    fn columns_are_max_of_cell_plus_three_and_six_and_the_last_is_unpadded() {
        let out = contexts().render(TableOptions::default());
        assert_eq!(
            out,
            "CURRENT   NAME   CLUSTER                           AUTHINFO   NAMESPACE\n\
             *         a      c1                                u          \n\
             \x20         bb     a-very-long-cluster-name-indeed   u          ns\n"
        );
    }

    #[test]
    fn no_headers_drops_the_header_and_its_width() {
        let out = contexts().render(TableOptions { no_headers: true, ..Default::default() });
        assert_eq!(
            out,
            "*     a     c1                                u     \n\
             \x20     bb    a-very-long-cluster-name-indeed   u     ns\n"
        );
    }

    #[test]
    fn width_counts_characters_not_bytes_or_display_columns() {
        let mut t = Table::new(["NAME", "X"]);
        t.push_row(["中文名", "x"]);
        t.push_row(["é", "y"]);
        // "NAME" is 4 + 3 = 7 wide; "中文名" is 3 characters, so it gets 4 spaces.
        assert_eq!(t.render(TableOptions::default()), "NAME   X\n中文名    x\né      y\n");
    }

    #[test]
    fn wide_columns_show_only_with_wide() {
        let mut t = Table::new(["NAME", "IP", "AGE"]).with_wide_columns([1]);
        t.push_row(["pod-1", "10.0.0.1", "5m"]);
        assert_eq!(t.render(TableOptions::default()), "NAME    AGE\npod-1   5m\n");
        assert_eq!(
            t.render(TableOptions::new(OutputFormat::Wide, false)),
            "NAME    IP         AGE\npod-1   10.0.0.1   5m\n"
        );
    }

    #[test]
    fn headers_are_upper_cased_like_server_side_tables() {
        let mut t = Table::new(["Name", "Age"]);
        t.push_row(["x", "1s"]);
        assert_eq!(t.render(TableOptions::default()), "NAME   AGE\nx      1s\n");
    }

    #[test]
    fn single_column_and_empty_tables() {
        let mut t = Table::new(["NAME"]);
        assert_eq!(t.render(TableOptions::default()), "NAME\n");
        assert_eq!(t.render(TableOptions { no_headers: true, wide: false }), "");
        t.push_row(["a"]);
        assert_eq!(t.render(TableOptions::default()), "NAME\na\n");
    }

    #[test]
    fn short_rows_are_padded_and_long_rows_trimmed() {
        let mut t = Table::new(["A", "B", "C"]);
        t.push_row(["1"]);
        t.push_row(["1", "2", "3", "4"]);
        assert_eq!(t.render(TableOptions::default()), "A     B     C\n1           \n1     2     3\n");
    }

    #[test]
    fn labels_column_is_appended_last_in_kubectl_format() {
        let mut t = Table::new(["NAME", "IP"]).with_wide_columns([1]);
        t.push_row(["a", "1.1.1.1"]);
        t.push_row(["b", "2.2.2.2"]);
        let first = BTreeMap::from([("zz", "1"), ("app", "x")]);
        let second: BTreeMap<&str, &str> = BTreeMap::new();
        t.push_labels_column([
            first.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            second.iter().map(|(k, v)| (*k, *v)).collect(),
        ]);
        assert_eq!(t.render(TableOptions::default()), "NAME   LABELS\na      app=x,zz=1\nb      <none>\n");
        assert_eq!(
            t.render(TableOptions { wide: true, no_headers: false }),
            "NAME   IP        LABELS\na      1.1.1.1   app=x,zz=1\nb      2.2.2.2   <none>\n"
        );
    }

    #[test]
    fn labels_sort_as_key_value_strings() {
        assert_eq!(labels_cell([("a", "1"), ("a.b", "2")]), "a.b=2,a=1");
        assert_eq!(labels_cell([("b", ""), ("a", "x")]), "a=x,b=");
        assert_eq!(labels_cell([]), "<none>");
    }
}

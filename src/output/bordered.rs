//! A table with `+---+` borders, as upstream karmadactl prints `addons list` (Go's
//! `olekukonko/tablewriter` v0.0.5 with its defaults): the header upper-cased and centred, text
//! cells left-aligned, numbers right-aligned, one space of padding inside every cell.

/// Renders `header` and `rows`; every row has as many cells as the header.
pub fn bordered_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let header: Vec<String> = header.iter().map(|h| title(h)).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let rule: String = std::iter::once("+".to_string())
        .chain(widths.iter().map(|w| format!("{}+", "-".repeat(w + 2))))
        .collect::<String>()
        + "\n";
    let line = |cells: Vec<String>| -> String {
        let mut out = String::from("|");
        for cell in cells {
            out.push(' ');
            out.push_str(&cell);
            out.push_str(" |");
        }
        out.push('\n');
        out
    };
    let mut out = rule.clone();
    out.push_str(&line(header.iter().zip(&widths).map(|(h, w)| centred(h, *w)).collect()));
    out.push_str(&rule);
    for row in rows {
        out.push_str(&line(
            row.iter()
                .zip(&widths)
                .map(|(c, w)| if is_number(c) { format!("{c:>w$}") } else { format!("{c:<w$}") })
                .collect(),
        ));
    }
    out.push_str(&rule);
    out
}

/// tablewriter's header formatting: `_` becomes a space, then upper case.
fn title(header: &str) -> String {
    header.replace('_', " ").trim().to_uppercase()
}

/// Centred with the odd space on the right, as tablewriter pads.
fn centred(text: &str, width: usize) -> String {
    let gap = width.saturating_sub(text.chars().count());
    let left = gap / 2;
    format!("{}{text}{}", " ".repeat(left), " ".repeat(gap - left))
}

/// tablewriter right-aligns cells that read as decimal numbers (`-1,234.5`).
fn is_number(cell: &str) -> bool {
    let text = cell.trim();
    let text = text.strip_prefix('-').unwrap_or(text);
    let (int, frac) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    digits(frac) && !int.starts_with(',') && !int.ends_with(',') && digits(&int.replace(',', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_upstreams_addons_list() {
        let rows = vec![
            vec!["karmada-descheduler".to_string(), "disabled".to_string()],
            vec!["karmada-scheduler-estimator".to_string(), "unknown".to_string()],
        ];
        let want = "\
+-----------------------------+----------+
|         ADDON NAME          |  STATUS  |
+-----------------------------+----------+
| karmada-descheduler         | disabled |
| karmada-scheduler-estimator | unknown  |
+-----------------------------+----------+
";
        assert_eq!(bordered_table(&["Addon Name", "Status"], &rows), want);
    }

    #[test]
    fn numbers_are_right_aligned() {
        let out = bordered_table(&["a", "count"], &[vec!["x".into(), "7".into()]]);
        assert!(out.contains("| x |     7 |"), "{out}");
    }
}

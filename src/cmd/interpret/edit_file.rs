//! The text `interpret --edit` opens in the editor, and reading it back (upstream's format): a
//! comment header, `---@name:`, `---@apiVersion:` and `---@kind:` lines, then one `---@rule:`
//! line per rule followed by that rule's script. Lines starting with `--` are comments.

use karmadactl_interpreter::Operation;
use serde_json::{Value, json};

use super::rules;

const COMMENT: &str = "--";
const ANNOTATION: &str = "---@";
const NAME: &str = "---@name:";
const API_VERSION: &str = "---@apiVersion:";
const KIND: &str = "---@kind:";
const RULE: &str = "---@rule:";

/// The header, with the reasons the previous attempt was refused.
pub fn header(reasons: &[String]) -> String {
    let mut out = comment(
        "Please edit the object below. Lines beginning with a '--' will be ignored,\n\
         and an empty file will abort the edit. If an error occurs while saving this file will be\n\
         reopened with the relevant failures.\n\n",
    );
    for reason in reasons {
        out.push_str(&comment(&format!("{reason}\n")));
        out.push_str("--\n");
    }
    out
}

/// A customization as editable text.
pub fn render(customization: &Value, show_doc: bool) -> String {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut out = format!("{NAME} {}\n", text(&customization["metadata"]["name"]));
    out.push_str(&format!("{API_VERSION} {}\n", text(&customization["spec"]["target"]["apiVersion"])));
    out.push_str(&format!("{KIND} {}\n", text(&customization["spec"]["target"]["kind"])));
    for op in rules::ORDER {
        out.push_str(&format!("{RULE} {}\n", op.name()));
        if show_doc {
            out.push_str(&comment(&format!("{}\n", rules::guide(op))));
        }
        if let Some(script) = rules::script(customization, op) {
            out.push_str(script);
            if !script.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// What an edited text says: the name, the target and the scripts.
#[derive(Debug, Default, PartialEq)]
pub struct Edited {
    pub name: String,
    pub api_version: String,
    pub kind: String,
    pub scripts: Vec<(Operation, String)>,
}

impl Edited {
    /// `original` with this name, target and set of scripts (rules not in the text are removed).
    pub fn apply_to(&self, original: &Value) -> Value {
        let mut out = original.clone();
        if !out.is_object() {
            out = json!({});
        }
        out["metadata"]["name"] = json!(self.name);
        out["spec"] = json!({ "target": { "apiVersion": self.api_version, "kind": self.kind }, "customizations": {} });
        for (op, script) in &self.scripts {
            rules::set_script(&mut out, *op, script);
        }
        out
    }
}

/// Reads an edited text back; a script line before the first `---@rule:` is an error.
pub fn parse(text: &str) -> Result<Edited, String> {
    let mut edited = Edited::default();
    let mut current: Option<(Operation, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(v) = trimmed.strip_prefix(NAME) {
            edited.name = v.trim().into();
        } else if let Some(v) = trimmed.strip_prefix(API_VERSION) {
            edited.api_version = v.trim().into();
        } else if let Some(v) = trimmed.strip_prefix(KIND) {
            edited.kind = v.trim().into();
        } else if let Some(v) = trimmed.strip_prefix(RULE) {
            // An unknown rule name is ignored, as upstream does: its lines join the previous rule.
            if let Some(op) = rules::ORDER.into_iter().find(|op| op.name() == v.trim()) {
                edited.scripts.extend(current.take());
                current = Some((op, String::new()));
            }
        } else if trimmed.starts_with(COMMENT) {
        } else {
            let Some((_, script)) = current.as_mut() else {
                return Err(format!("unexpected line {line:?}"));
            };
            script.push_str(line);
            script.push('\n');
        }
    }
    edited.scripts.extend(current);
    // A rule whose script is only blank lines is unset.
    edited.scripts.retain(|(_, s)| !s.trim().is_empty());
    Ok(edited)
}

/// The text without comment lines (annotations are kept), to tell whether a retry changed it.
pub fn strip_comments(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let t = l.trim();
            !t.starts_with(COMMENT) || t.starts_with(ANNOTATION)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` as Lua comment lines.
fn comment(text: &str) -> String {
    let mut out = String::from("-- ");
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '\n' && chars.peek().is_some_and(|n| *n != '-') {
            out.push_str("-- ");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn customization() -> Value {
        json!({
            "apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterCustomization",
            "metadata": {"name": "c", "labels": {"a": "b"}},
            "spec": {"target": {"apiVersion": "apps/v1", "kind": "Deployment"}, "customizations": {
                "healthInterpretation": {"luaScript": "function InterpretHealth(o)\n  return true\nend\n"}
            }}
        })
    }

    #[test]
    fn rendered_text_reads_back_to_the_same_customization() {
        let c = customization();
        for show_doc in [false, true] {
            let text = format!("{}{}", header(&[]), render(&c, show_doc));
            let edited = parse(&text).unwrap();
            assert_eq!(edited.name, "c");
            assert_eq!(edited.apply_to(&c), c, "show_doc {show_doc}");
        }
    }

    #[test]
    fn a_script_line_before_any_rule_is_refused() {
        assert_eq!(parse("---@name: x\nreturn 1\n"), Err("unexpected line \"return 1\"".into()));
    }

    #[test]
    fn emptied_rules_are_removed() {
        let text = render(&customization(), false)
            .replace("  return true\n", "\n")
            .replace("function InterpretHealth(o)\n\nend\n", "\n");
        let edited = parse(&text).unwrap();
        assert_eq!(edited.apply_to(&customization())["spec"]["customizations"], json!({}));
    }

    #[test]
    fn the_header_comments_every_line_and_lists_reasons() {
        let h = header(&["it was not valid".into()]);
        assert!(h.lines().all(|l| l.starts_with("--")), "{h}");
        assert!(h.contains("-- it was not valid\n--\n"), "{h}");
    }
}

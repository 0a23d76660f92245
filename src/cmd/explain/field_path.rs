//! `TYPE.FIELD.FIELD…` as kubectl explain reads it: the argument is parsed as the JSONPath
//! `{.<argument>}` (client-go's util/jsonpath grammar, kept here for the nodes and errors
//! explain can meet), whose first node names the resource and whose other nodes must be
//! field names. kubectl's messages are kept word for word.

/// One node of the parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `.name` (also `['name']`).
    Field(String),
    /// `..`
    Recursive,
    /// Anything else JSONPath allows: indexes, slices, filters, wildcards, literals.
    Other,
}

pub const FIRST_NOT_FIELD: &str = "invalid jsonpath syntax, first node must be field node";
pub const NOT_ALL_FIELDS: &str = "invalid jsonpath syntax, all nodes must be field nodes";

/// kubectl's `jsonPathParse`: one trailing `.` dropped, then `{.<input>}` parsed.
pub fn parse(input: &str) -> Result<Vec<Node>, String> {
    let input = input.strip_suffix('.').unwrap_or(input);
    let mut parser = Parser { input: format!("{{.{input}}}").chars().collect(), pos: 0 };
    let actions = parser.text()?;
    match <[Vec<Node>; 1]>::try_from(actions) {
        Ok([nodes]) => Ok(nodes),
        Err(_) => Err("must pass in 1 jsonpath string".into()),
    }
}

/// The resource the argument names (its first node) and the argument's nodes.
pub fn resource(input: &str) -> Result<(String, Vec<Node>), String> {
    let nodes = parse(input)?;
    match nodes.first() {
        Some(Node::Field(name)) => Ok((name.clone(), nodes)),
        _ => Err(FIRST_NOT_FIELD.into()),
    }
}

/// The field names after the first node, or `message` when one is not a field.
pub fn fields_after_first(nodes: &[Node], message: &str) -> Result<Vec<String>, String> {
    nodes
        .iter()
        .skip(1)
        .map(|n| match n {
            Node::Field(f) => Ok(f.clone()),
            _ => Err(message.to_string()),
        })
        .collect()
}

/// When the argument starts with `group_resource` (`deployments.apps`), the fields after it
/// (kubectl parses the rest again and skips its first node); None when it does not.
pub fn fields_after_prefix(input: &str, group_resource: &str) -> Option<Result<Vec<String>, String>> {
    let suffix = input.strip_prefix(group_resource)?;
    if suffix.is_empty() {
        return Some(Ok(Vec::new()));
    }
    Some(parse(suffix).and_then(|nodes| fields_after_first(&nodes, FIRST_NOT_FIELD)))
}

struct Parser {
    input: Vec<char>,
    pos: usize,
}

fn is_terminator(c: Option<char>) -> bool {
    matches!(c, None | Some(' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'))
}

fn is_alphanumeric(c: Option<char>) -> bool {
    c.is_some_and(|c| c == '_' || c.is_alphabetic() || c.is_numeric())
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.input.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn starts_with(&self, s: &str) -> bool {
        let want: Vec<char> = s.chars().collect();
        self.input[self.pos..].starts_with(&want)
    }

    /// Text and actions at the top level: the node list of each `{…}` (text outside is
    /// counted as one more item, which explain refuses).
    fn text(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut items = Vec::new();
        let mut pending_text = false;
        while self.pos < self.input.len() {
            if self.starts_with("{") {
                if pending_text {
                    items.push(Vec::new());
                    pending_text = false;
                }
                self.pos += 1;
                items.push(self.action()?);
            } else {
                self.pos += 1;
                pending_text = true;
            }
        }
        if pending_text {
            items.push(Vec::new());
        }
        Ok(items)
    }

    /// The nodes of one action, up to and including its `}`.
    fn action(&mut self) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        loop {
            if self.starts_with("}") {
                self.pos += 1;
                return Ok(nodes);
            }
            if self.starts_with("[?(") {
                self.pos += 3;
                self.filter()?;
                nodes.push(Node::Other);
                continue;
            }
            if self.starts_with("..") {
                if nodes.last() == Some(&Node::Recursive) {
                    return Err("invalid multiple recursive descent".into());
                }
                self.pos += 2;
                nodes.push(Node::Recursive);
                if is_alphanumeric(self.peek()) {
                    nodes.push(self.field());
                }
                continue;
            }
            match self.next() {
                None | Some('\r' | '\n') => return Err("unclosed action".into()),
                Some(' ' | '@' | '$') => {}
                Some('[') => nodes.extend(self.array()?),
                Some(q @ ('"' | '\'')) => {
                    self.quoted(q)?;
                    nodes.push(Node::Other);
                }
                Some('.') => nodes.push(self.field()),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.pos -= 1;
                    self.number()?;
                    nodes.push(Node::Other);
                }
                Some(c) if is_alphanumeric(Some(c)) => {
                    while !is_terminator(self.peek()) {
                        self.pos += 1;
                    }
                    nodes.push(Node::Other);
                }
                Some(c) => return Err(format!("unrecognized character in action: U+{:04X} '{c}'", c as u32)),
            }
        }
    }

    /// A field name up to the next unescaped terminator; `\` escapes and is dropped.
    fn field(&mut self) -> Node {
        let mut name = String::new();
        loop {
            match self.peek() {
                Some('\\') => {
                    self.pos += 1;
                    if let Some(c) = self.next() {
                        name.push(c);
                    }
                }
                c if is_terminator(c) => break,
                Some(c) => {
                    self.pos += 1;
                    name.push(c);
                }
                None => break,
            }
        }
        if name == "*" { Node::Other } else { Node::Field(name) }
    }

    /// `[…]`: a union, a `'key'` (a field), or a slice.
    fn array(&mut self) -> Result<Vec<Node>, String> {
        let start = self.pos;
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let inner: String = self.input[start..self.pos - 1].iter().collect();
        let inner = if inner == "*" { ":".to_string() } else { inner };
        if inner.contains(',') {
            for part in inner.split(',') {
                sub_action(&format!("[{}]", part.trim_matches(' ')))?;
            }
            return Ok(vec![Node::Other]);
        }
        if let Some(key) = inner.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')).filter(|k| !k.contains('\'')) {
            return sub_action(&format!(".{key}"));
        }
        slice(&inner)?;
        Ok(vec![Node::Other])
    }

    /// `[?(…)]`, checked for its closing brackets as client-go checks them.
    fn filter(&mut self) -> Result<(), String> {
        let (mut open_quote, mut closed_quote, mut pair) = (false, false, '\0');
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated filter".into()),
                Some(q @ ('"' | '\'')) => {
                    if !open_quote {
                        open_quote = true;
                        pair = q;
                    } else if q == pair && self.input.get(self.pos.wrapping_sub(2)) != Some(&'\\') {
                        closed_quote = true;
                    }
                }
                Some(')') if open_quote == closed_quote => break,
                Some(_) => {}
            }
        }
        match self.next() {
            Some(']') => Ok(()),
            _ => Err("unclosed array expect ]".into()),
        }
    }

    fn quoted(&mut self, end: char) -> Result<(), String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated quoted string".into()),
                Some(c) if c == end && self.input.get(self.pos.wrapping_sub(2)) != Some(&'\\') => return Ok(()),
                Some(_) => {}
            }
        }
    }

    fn number(&mut self) -> Result<(), String> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c == '.' || c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text: String = self.input[start..self.pos].iter().collect();
        match text.parse::<i64>().is_ok() || text.parse::<f64>().is_ok() {
            true => Ok(()),
            false => Err(format!("cannot parse number {text}")),
        }
    }
}

/// client-go's `parseAction`: `text` parsed as one action of its own.
fn sub_action(text: &str) -> Result<Vec<Node>, String> {
    let mut parser = Parser { input: format!("{{{text}}}").chars().collect(), pos: 0 };
    Ok(parser.text()?.into_iter().next().unwrap_or_default())
}

/// A slice `[start:end:step]`, each part an optional signed integer.
fn slice(text: &str) -> Result<(), String> {
    let parts: Vec<&str> = text.split(':').collect();
    let signed_digits = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        digits.chars().all(|c| c.is_ascii_digit())
    };
    if parts.len() > 3 || !parts.iter().all(|p| signed_digits(p)) {
        return Err(format!("invalid array index {text}"));
    }
    for part in &parts {
        if !part.is_empty() && part.parse::<i64>().is_err() {
            return Err(format!("array index {part} is not a number"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(s: &str) -> Node {
        Node::Field(s.into())
    }

    #[test]
    fn dotted_names_are_fields_and_double_dots_recursive() {
        assert_eq!(parse("pods.spec.containers").unwrap(), vec![field("pods"), field("spec"), field("containers")]);
        assert_eq!(parse("pods.").unwrap(), vec![field("pods")]);
        assert_eq!(parse("pods..spec").unwrap(), vec![field("pods"), Node::Recursive, field("spec")]);
        assert_eq!(parse("pods.spec.x-y").unwrap(), vec![field("pods"), field("spec"), field("x-y")]);
        assert_eq!(parse("pods['spec']").unwrap(), vec![field("pods"), field("spec")]);
        assert_eq!(parse("pods[0]").unwrap(), vec![field("pods"), Node::Other]);
        assert_eq!(parse(".pods").unwrap(), vec![Node::Recursive, field("pods")]);
    }

    #[test]
    fn malformed_paths_get_client_gos_errors() {
        assert_eq!(parse("pods[0").unwrap_err(), "unterminated array");
        assert_eq!(parse("pods}x").unwrap_err(), "must pass in 1 jsonpath string");
        assert_eq!(parse("pods,x").unwrap_err(), "unrecognized character in action: U+002C ','");
        assert_eq!(parse("pods[-]").unwrap_err(), "array index - is not a number");
        assert_eq!(parse("pods[x]").unwrap_err(), "invalid array index x");
        assert_eq!(parse("a....b").unwrap_err(), "invalid multiple recursive descent");
        assert_eq!(resource(".pods").unwrap_err(), FIRST_NOT_FIELD);
    }

    #[test]
    fn fields_follow_the_group_resource_prefix() {
        assert_eq!(
            fields_after_prefix("deployments.apps.spec.replicas", "deployments.apps"),
            Some(Ok(vec!["spec".into(), "replicas".into()]))
        );
        assert_eq!(fields_after_prefix("pods.", "pods"), Some(Ok(vec![])));
        assert_eq!(fields_after_prefix("pods", "pods"), Some(Ok(vec![])));
        assert_eq!(fields_after_prefix("pod.spec", "pods"), None);
        assert_eq!(fields_after_prefix("pods.spec..containers", "pods"), Some(Err(FIRST_NOT_FIELD.into())));
        let (name, nodes) = resource("svc.spec.ports[0]").unwrap();
        assert_eq!(name, "svc");
        assert_eq!(fields_after_first(&nodes, NOT_ALL_FIELDS).unwrap_err(), NOT_ALL_FIELDS);
    }
}

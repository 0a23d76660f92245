//! The label selector lexer and recursive-descent parser, token for token as labels/selector.go,
//! so the same inputs are accepted and the same error messages come back.

use std::collections::BTreeSet;

use super::field::{BadValue, Cause};
use super::names::is_qualified_name;
use super::selector::{Operator, Requirement, SelectorError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Error,
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn keyword(s: &[u8]) -> Option<Token> {
    Some(match s {
        b")" => Token::ClosedPar,
        b"," => Token::Comma,
        b"!" => Token::DoesNotExist,
        b"==" => Token::DoubleEquals,
        b"=" => Token::Equals,
        b">" => Token::GreaterThan,
        b"in" => Token::In,
        b"<" => Token::LessThan,
        b"!=" => Token::NotEquals,
        b"notin" => Token::NotIn,
        b"(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(c: u8) -> bool {
    matches!(c, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

fn text(bytes: &[u8]) -> String {
    // Tokens split only at ASCII bytes, so valid UTF-8 input stays valid; lossy is a no-op.
    String::from_utf8_lossy(bytes).into_owned()
}

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    /// The next byte, or 0 at the end. Like Go, a NUL byte in the input also reads as 0.
    fn read(&mut self) -> u8 {
        match self.s.get(self.pos) {
            Some(b) => {
                self.pos += 1;
                *b
            }
            None => 0,
        }
    }

    fn unread(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    fn scan_id_or_keyword(&mut self) -> (Token, String) {
        let mut buf = Vec::new();
        loop {
            match self.read() {
                0 => break,
                c if is_special(c) || is_whitespace(c) => {
                    self.unread();
                    break;
                }
                c => buf.push(c),
            }
        }
        (keyword(&buf).unwrap_or(Token::Identifier), text(&buf))
    }

    fn scan_special_symbol(&mut self) -> (Token, String) {
        let mut last: Option<(Token, String)> = None;
        let mut buf = Vec::new();
        loop {
            match self.read() {
                0 => break,
                c if is_special(c) => {
                    buf.push(c);
                    if let Some(t) = keyword(&buf) {
                        last = Some((t, text(&buf)));
                    } else if last.is_some() {
                        self.unread();
                        break;
                    }
                }
                _ => {
                    self.unread();
                    break;
                }
            }
        }
        last.unwrap_or_else(|| (Token::Error, format!("error expected: keyword found '{}'", text(&buf))))
    }

    fn lex(&mut self) -> (Token, String) {
        let mut c = self.read();
        while is_whitespace(c) {
            c = self.read();
        }
        match c {
            0 => (Token::EndOfString, String::new()),
            c if is_special(c) => {
                self.unread();
                self.scan_special_symbol()
            }
            _ => {
                self.unread();
                self.scan_id_or_keyword()
            }
        }
    }
}

/// In value position `in` and `notin` are ordinary identifiers (`x in (in)` is valid).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

struct Parser {
    items: Vec<(Token, String)>,
    position: usize,
}

impl Parser {
    fn at(&self, i: usize, ctx: Context) -> (Token, String) {
        let (tok, lit) = self.items.get(i).cloned().unwrap_or((Token::EndOfString, String::new()));
        match tok {
            Token::In | Token::NotIn if ctx == Context::Values => (Token::Identifier, lit),
            _ => (tok, lit),
        }
    }

    fn lookahead(&self, ctx: Context) -> (Token, String) {
        self.at(self.position, ctx)
    }

    fn consume(&mut self, ctx: Context) -> (Token, String) {
        self.position += 1;
        self.at(self.position - 1, ctx)
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut reqs = Vec::new();
        loop {
            let (tok, lit) = self.lookahead(Context::Values);
            match tok {
                Token::Identifier | Token::DoesNotExist => {
                    let r = self.parse_requirement().map_err(|e| format!("unable to parse requirement: {e}"))?;
                    reqs.push(r);
                    let (t, l) = self.consume(Context::Values);
                    match t {
                        Token::EndOfString => return Ok(reqs),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(Context::Values);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!("found '{l2}', expected: identifier after ','"));
                            }
                        }
                        _ => return Err(format!("found '{l}', expected: ',' or 'end of string'")),
                    }
                }
                Token::EndOfString => return Ok(reqs),
                _ => return Err(format!("found '{lit}', expected: !, identifier, or 'end of string'")),
            }
        }
    }

    fn parse_requirement(&mut self) -> Result<Requirement, String> {
        let (key, op) = self.parse_key_and_infer_operator()?;
        if let Some(op @ (Operator::Exists | Operator::DoesNotExist)) = op {
            return new_requirement(&key, op, Vec::new());
        }
        let op = self.parse_operator()?;
        let values = match op {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        new_requirement(&key, op, values.into_iter().collect())
    }

    fn parse_key_and_infer_operator(&mut self) -> Result<(String, Option<Operator>), String> {
        let mut op = None;
        let (mut tok, mut lit) = self.consume(Context::Values);
        if tok == Token::DoesNotExist {
            op = Some(Operator::DoesNotExist);
            (tok, lit) = self.consume(Context::Values);
        }
        if tok != Token::Identifier {
            return Err(format!("found '{lit}', expected: identifier"));
        }
        let errs = is_qualified_name(&lit);
        if !errs.is_empty() {
            // Upstream passes a nil field path here, which prints as "<nil>".
            return Err(Cause::invalid("<nil>", BadValue::from(&lit), &errs.join("; ")).to_string());
        }
        let (next, _) = self.lookahead(Context::Values);
        if (next == Token::EndOfString || next == Token::Comma) && op.is_none() {
            op = Some(Operator::Exists);
        }
        Ok((lit, op))
    }

    fn parse_operator(&mut self) -> Result<Operator, String> {
        let (tok, lit) = self.consume(Context::KeyAndOperator);
        Ok(match tok {
            Token::In => Operator::In,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::GreaterThan => Operator::GreaterThan,
            Token::LessThan => Operator::LessThan,
            Token::NotIn => Operator::NotIn,
            Token::NotEquals => Operator::NotEquals,
            _ => return Err(format!("found '{lit}', expected: in, notin, =, ==, !=, gt, lt")),
        })
    }

    fn parse_values(&mut self) -> Result<BTreeSet<String>, String> {
        let (tok, lit) = self.consume(Context::Values);
        if tok != Token::OpenPar {
            return Err(format!("found '{lit}' expected: '('"));
        }
        let (tok, lit) = self.lookahead(Context::Values);
        match tok {
            Token::Identifier | Token::Comma => {
                let s = self.parse_identifiers_list()?;
                if self.consume(Context::Values).0 != Token::ClosedPar {
                    return Err(format!("found '{lit}', expected: ')'"));
                }
                Ok(s)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(BTreeSet::from([String::new()]))
            }
            _ => Err(format!("found '{lit}', expected: ',', ')' or identifier")),
        }
    }

    fn parse_identifiers_list(&mut self) -> Result<BTreeSet<String>, String> {
        let mut s = BTreeSet::new();
        loop {
            let (tok, lit) = self.consume(Context::Values);
            match tok {
                Token::Identifier => {
                    s.insert(lit);
                    let (tok2, lit2) = self.lookahead(Context::Values);
                    match tok2 {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(s),
                        _ => return Err(format!("found '{lit2}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    // "(," and ",)" and ",," all stand for the empty value.
                    if s.is_empty() {
                        s.insert(String::new());
                    }
                    let (tok2, _) = self.lookahead(Context::Values);
                    if tok2 == Token::ClosedPar {
                        s.insert(String::new());
                        return Ok(s);
                    }
                    if tok2 == Token::Comma {
                        self.consume(Context::Values);
                        s.insert(String::new());
                    }
                }
                _ => return Err(format!("found '{lit}', expected: ',', or identifier")),
            }
        }
    }

    fn parse_exact_value(&mut self) -> Result<BTreeSet<String>, String> {
        let (tok, _) = self.lookahead(Context::Values);
        if tok == Token::EndOfString || tok == Token::Comma {
            return Ok(BTreeSet::from([String::new()]));
        }
        let (tok, lit) = self.consume(Context::Values);
        if tok == Token::Identifier {
            return Ok(BTreeSet::from([lit]));
        }
        Err(format!("found '{lit}', expected: identifier"))
    }
}

fn new_requirement(key: &str, op: Operator, values: Vec<String>) -> Result<Requirement, String> {
    Requirement::new(key, op, values).map_err(|e| match e {
        SelectorError::Label(m) | SelectorError::Field(m) => m,
    })
}

/// Parses a selector string into requirements (unsorted), or apimachinery's error message.
pub(super) fn parse(s: &str) -> Result<Vec<Requirement>, String> {
    let mut lexer = Lexer { s: s.as_bytes(), pos: 0 };
    let mut items = Vec::new();
    loop {
        let item = lexer.lex();
        let end = item.0 == Token::EndOfString;
        items.push(item);
        if end {
            break;
        }
    }
    Parser { items, position: 0 }.parse()
}

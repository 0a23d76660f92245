//! `-o json` as kubectl prints it: Go's `json.MarshalIndent(obj, "", "    ")` plus a newline.
//!
//! Differences from plain `serde_json::to_string_pretty`, each matching Go's encoder:
//! * four-space indent;
//! * `<`, `>`, `&`, U+2028 and U+2029 are escaped as `\u003c`, `\u003e`, `\u0026`, `\u2028`,
//!   `\u2029` (Go's HTML-safe escaping, which `MarshalIndent` always applies);
//! * floats use Go's `strconv` forms: no exponent between 1e-6 and 1e21, otherwise `1e+21`,
//!   `1e-7`.
//!
//! Keys come out in the order the value serializes them: struct order for typed objects (as
//! kubectl prints typed objects) and sorted for `serde_json::Value` maps (as kubectl prints
//! objects read from a server).

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use super::OutputError;

/// kubectl's JSON: four-space indent, Go escaping, trailing newline.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, OutputError> {
    to_json_with_indent(value, "    ")
}

/// Go-compatible JSON with another indent (e.g. two spaces, as some upstream commands use).
pub fn to_json_with_indent<T: Serialize + ?Sized>(value: &T, indent: &str) -> Result<String, OutputError> {
    let mut out = Vec::new();
    let formatter = GoFormatter { layout: PrettyFormatter::with_indent(indent.as_bytes()) };
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut serializer).map_err(OutputError::Json)?;
    out.push(b'\n');
    // serde_json writes only UTF-8 (the input strings are UTF-8 and escapes are ASCII).
    String::from_utf8(out).map_err(|e| OutputError::Utf8(e.utf8_error()))
}

/// Go's `json.Marshal` text followed by a newline, as `json.Encoder` writes it (kubectl's
/// last-applied configuration): compact, Go escaping.
pub fn to_compact_go_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, GoFormatter { layout: CompactFormatter });
    // Values here are JSON documents already (string keys only), so this cannot fail.
    let _ = value.serialize(&mut serializer);
    out.push(b'\n');
    String::from_utf8_lossy(&out).into_owned()
}

/// A serde_json layout (pretty or compact) with Go's string and float spelling.
struct GoFormatter<F> {
    layout: F,
}

impl<F: Formatter> Formatter for GoFormatter<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let escape = match c {
                '<' => "\\u003c",
                '>' => "\\u003e",
                '&' => "\\u0026",
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..i])?;
            writer.write_all(escape.as_bytes())?;
            start = i + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(go_float(value, format!("{value}"), format!("{value:e}")).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        let wide = f64::from(value);
        writer.write_all(go_float(wide, format!("{value}"), format!("{value:e}")).as_bytes())
    }

    // Layout is the pretty printer's.
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.layout.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.layout.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.layout.end_object_value(w)
    }
}

/// Go's `encoding/json` float spelling, from Rust's shortest round-trip forms: `plain` (`{}`,
/// never an exponent) and `exponent` (`{:e}`, e.g. `1e21`, `1.5e-7`). Only finite values reach
/// here; serde_json writes `null` for NaN and infinities.
fn go_float(value: f64, plain: String, exponent: String) -> String {
    let abs = value.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        return plain;
    }
    // Go prints `e+21` / `e-7`: a sign always, two digits at least for positive exponents, and
    // (after encoding/json's clean-up of `e-07`) no leading zero for negative ones.
    match exponent.split_once('e') {
        Some((mantissa, exp)) => match exp.strip_prefix('-') {
            Some(neg) => format!("{mantissa}e-{neg}"),
            None => format!("{mantissa}e+{exp:0>2}"),
        },
        None => plain,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn four_space_indent_and_trailing_newline() {
        let v = json!({"kind": "ConfigMap", "data": {"a": "b"}, "list": [1, {}], "empty": []});
        assert_eq!(
            to_json(&v).expect("serializable"),
            "{\n    \"data\": {\n        \"a\": \"b\"\n    },\n    \"empty\": [],\n    \"kind\": \"ConfigMap\",\n    \"list\": [\n        1,\n        {}\n    ]\n}\n"
        );
    }

    #[test]
    fn html_sensitive_characters_are_escaped_like_go() {
        let v = json!({"s": "<a&b>\u{2028}\u{2029}é\t\"\\\u{1}\u{7f}"});
        assert_eq!(
            to_json(&v).expect("serializable"),
            "{\n    \"s\": \"\\u003ca\\u0026b\\u003e\\u2028\\u2029é\\t\\\"\\\\\\u0001\u{7f}\"\n}\n"
        );
    }

    #[test]
    fn floats_are_spelled_like_go() {
        let cases: &[(f64, &str)] = &[
            (1.5, "1.5"),
            (100.0, "100"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (-2.5e-10, "-2.5e-10"),
            (123456.789, "123456.789"),
        ];
        for (f, want) in cases {
            assert_eq!(to_json(f).expect("serializable"), format!("{want}\n"), "float {f}");
        }
        assert_eq!(to_json(&1e-7_f32).expect("serializable"), "1e-7\n");
        assert_eq!(to_json(&0.25_f32).expect("serializable"), "0.25\n");
    }

    #[test]
    fn typed_values_keep_struct_order() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Obj {
            kind: &'static str,
            api_version: &'static str,
        }
        let out = to_json(&Obj { kind: "ConfigMap", api_version: "v1" }).expect("serializable");
        assert_eq!(out, "{\n    \"kind\": \"ConfigMap\",\n    \"apiVersion\": \"v1\"\n}\n");
    }

    #[test]
    fn other_indent() {
        let out = to_json_with_indent(&json!({"a": [1]}), "  ").expect("serializable");
        assert_eq!(out, "{\n  \"a\": [\n    1\n  ]\n}\n");
    }
}

//! Custom resources: the `additionalPrinterColumns` of the served version, each a JSONPath into
//! the object whose value is formatted by the column type (the apiextensions table convertor).
//! A version without columns gets an `Age` column.

use jiff::Timestamp;
use karmadactl_apimachinery::JsonPath;
use serde_json::{Value, json};

use crate::registry::PrinterColumn;

use super::Row;
use super::cells::{name, since};
use super::descriptions as d;

/// The compiled columns of one CRD version.
pub struct CustomColumns {
    columns: Vec<(PrinterColumn, Option<JsonPath>)>,
}

impl CustomColumns {
    pub fn new(defined: &[PrinterColumn]) -> Self {
        let defaulted;
        let defined = if defined.is_empty() {
            defaulted = [PrinterColumn {
                name: "Age".into(),
                type_: "date".into(),
                format: String::new(),
                description: d::OBJECT_META_CREATION_TIMESTAMP.into(),
                json_path: ".metadata.creationTimestamp".into(),
                priority: 0,
            }];
            &defaulted[..]
        } else {
            defined
        };
        // A path that does not parse prints empty cells rather than failing the request.
        let columns = defined.iter().map(|c| (c.clone(), JsonPath::parse(&c.json_path).ok())).collect();
        Self { columns }
    }

    /// `Name`, then the declared columns.
    pub fn columns(&self) -> Value {
        let mut out = vec![super::Column::name().to_json()];
        for (c, _) in &self.columns {
            let description = if c.description.is_empty() {
                format!("Custom resource definition column (in JSONPath format): {}", c.json_path)
            } else {
                c.description.clone()
            };
            out.push(json!({
                "name": c.name,
                "type": c.type_,
                "format": c.format,
                "description": description,
                "priority": c.priority,
            }));
        }
        Value::Array(out)
    }

    pub fn row(&self, obj: &Value, now: Timestamp) -> Row {
        let mut cells = vec![name(obj)];
        for (column, path) in &self.columns {
            // Only the first value found is shown, as upstream assumes simple paths.
            let value = path.as_ref().and_then(|p| p.find(obj).ok()).and_then(|found| found.first().copied());
            cells.push(match value {
                None => Value::Null,
                Some(v) if column.type_ == "string" => string_cell(v),
                Some(v) => typed_cell(&column.type_, v, now),
            });
        }
        Row::cells(cells)
    }
}

/// A `string` column prints whatever it finds as client-go's JSONPath printer does: maps and
/// arrays as compact JSON, scalars as Go's `fmt.Print` would.
fn string_cell(v: &Value) -> Value {
    match v {
        Value::Null => Value::Null,
        Value::String(s) => Value::String(s.clone()),
        Value::Bool(b) => Value::String(b.to_string()),
        Value::Number(n) => Value::String(match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => go_float(f),
            _ => n.to_string(),
        }),
        Value::Array(_) | Value::Object(_) => Value::String(v.to_string()),
    }
}

/// `cellForJSONValue`: the value converted to the column type, or null when it has another type.
fn typed_cell(type_: &str, v: &Value, now: Timestamp) -> Value {
    match (type_, v) {
        ("integer", Value::Number(n)) => {
            n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)).map_or(Value::Null, |i| json!(i))
        }
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, |f| json!(f)),
        ("boolean", Value::Bool(b)) => json!(b),
        ("date", Value::String(s)) if s.is_empty() || s == "null" => json!("<unknown>"),
        ("date", Value::String(s)) => match s.parse::<Timestamp>() {
            Ok(t) => json!(since(Some(t), now)),
            Err(_) => json!("<invalid>"),
        },
        _ => Value::Null,
    }
}

/// Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`): the shortest digits, in
/// exponent form when the decimal exponent is below -4 or 6 and above.
fn go_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        return f.to_string();
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(name: &str, type_: &str, path: &str, priority: i32) -> PrinterColumn {
        PrinterColumn {
            name: name.into(),
            type_: type_.into(),
            format: String::new(),
            description: String::new(),
            json_path: path.into(),
            priority,
        }
    }

    fn now() -> Timestamp {
        "2024-05-01T12:00:00Z".parse().unwrap()
    }

    #[test]
    fn columns_follow_the_crd() {
        let cols = CustomColumns::new(&[
            column("Replicas", "integer", ".spec.replicas", 0),
            column("Ready", "string", r#".status.conditions[?(@.type=="Ready")].status"#, 0),
            column("Ratio", "number", ".status.ratio", 1),
            column("Paused", "boolean", ".spec.paused", 0),
            column("Seen", "date", ".status.lastSeen", 0),
            column("Ports", "string", ".spec.ports[*].port", 0),
            column("Spec", "string", ".spec.template", 0),
            column("Missing", "string", ".spec.nothing", 0),
        ]);
        let defs = cols.columns();
        assert_eq!(defs[0]["name"], "Name");
        assert_eq!(defs[0]["format"], "name");
        assert_eq!(defs[3]["priority"], 1);
        assert_eq!(defs[1]["description"], "Custom resource definition column (in JSONPath format): .spec.replicas");
        let obj = json!({"metadata": {"name": "w"},
            "spec": {"replicas": 3.0, "paused": false, "ports": [{"port": 80}, {"port": 81}], "template": {"b": 1, "a": [true]}},
            "status": {"ratio": 0.5, "lastSeen": "2024-05-01T11:00:00Z",
                "conditions": [{"type": "Ready", "status": "True"}]}});
        assert_eq!(
            cols.row(&obj, now()).cells,
            [
                json!("w"),
                json!(3),
                json!("True"),
                json!(0.5),
                json!(false),
                json!("60m"),
                json!("80"),
                json!(r#"{"a":[true],"b":1}"#),
                Value::Null,
            ]
        );
    }

    #[test]
    fn wrong_types_are_empty_and_bad_dates_invalid() {
        let cols = CustomColumns::new(&[
            column("N", "integer", ".spec.n", 0),
            column("D", "date", ".spec.d", 0),
            column("Bad", "string", ".spec[", 0),
        ]);
        let obj = json!({"metadata": {"name": "w"}, "spec": {"n": "three", "d": "yesterday"}});
        assert_eq!(cols.row(&obj, now()).cells, [json!("w"), Value::Null, json!("<invalid>"), Value::Null]);
    }

    #[test]
    fn versions_without_columns_show_the_age() {
        let cols = CustomColumns::new(&[]);
        let defs = cols.columns();
        assert_eq!(defs.as_array().unwrap().len(), 2);
        assert_eq!(defs[1]["name"], "Age");
        assert_eq!(defs[1]["type"], "date");
        let obj = json!({"metadata": {"name": "w", "creationTimestamp": "2024-05-01T11:59:30Z"}});
        assert_eq!(cols.row(&obj, now()).cells, [json!("w"), json!("30s")]);
    }

    #[test]
    fn floats_print_as_go_does() {
        assert_eq!(go_float(0.5), "0.5");
        assert_eq!(go_float(123456.0), "123456");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(1234567.5), "1.2345675e+06");
        assert_eq!(go_float(1.5e21), "1.5e+21");
        assert_eq!(go_float(0.00001), "1e-05");
        assert_eq!(string_cell(&json!(2.25)), json!("2.25"));
        assert_eq!(string_cell(&json!(7)), json!("7"));
    }
}

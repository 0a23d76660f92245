//! The default table of kinds without a printer (`rest.DefaultTableConvertor`): the name and
//! the creation time as an RFC 3339 date, which kubectl shows as `NAME  CREATED AT`.

use serde_json::{Value, json};

use super::cells::{name, timestamp};
use super::descriptions as d;
use super::{Column, Row};

pub const COLUMNS: &[Column] = &[Column::name(), Column::new("Created At", "date", d::OBJECT_META_CREATION_TIMESTAMP)];

pub fn row(obj: &Value) -> Row {
    // Go's `Time.UTC().Format(time.RFC3339)`: whole seconds, and the zero time when unset.
    let created = timestamp(obj, "/metadata/creationTimestamp")
        .map_or_else(|| "0001-01-01T00:00:00Z".to_string(), |t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    Row::cells(vec![name(obj), json!(created)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_and_creation_time() {
        let obj = json!({"metadata": {"name": "r", "creationTimestamp": "2024-05-01T12:00:00.5+02:00"}});
        assert_eq!(row(&obj).cells, [json!("r"), json!("2024-05-01T10:00:00Z")]);
        assert_eq!(row(&json!({"metadata": {"name": "r"}})).cells[1], json!("0001-01-01T00:00:00Z"));
    }
}

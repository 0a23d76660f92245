//! YAML as kubectl writes it (`-o yaml`, and any document written back as YAML), via
//! serde-saphyr.
//!
//! kubectl converts every object to JSON and then to YAML with go-yaml v2, so its YAML always
//! has map keys sorted, in go-yaml's "natural" order (digit runs compare as numbers, letters
//! after other characters: `a2` before `a10`, `_x` before `B`), whatever the struct order. We do
//! the same by converting to `serde_json::Value` and ordering keys before serde-saphyr emits
//! them. serde-saphyr's style otherwise matches kubectl for Kubernetes objects: two-space
//! indent, list items not indented under their key, `|`/`|-`/`|+` blocks for multi-line
//! strings, and quotes for strings that YAML 1.1 would read as another type (`"y"`, `"123"`,
//! `"true"`, `"2020-01-01T00:00:00Z"`, `""`).
//!
//! Known differences from kubectl (go-yaml v2), all in how unusual strings are quoted:
//! * go-yaml uses single quotes for strings that need quoting only because of YAML syntax
//!   (`'*'`, `'- y'`, `'#c'`, `'a: b'`, `' lead'`); serde-saphyr uses double quotes (`"*"`).
//! * go-yaml folds a long single-line string at a space once the line passes 80 columns
//!   (continuing the plain or quoted scalar on the next lines); we keep it on one line. Long
//!   strings without spaces (base64, certificates, URLs) are identical: neither side breaks them.
//! * A string with a space before a line break (`"l1 \nl2"`) is double-quoted by go-yaml and a
//!   `|-` block here.
//! * A few strings go-yaml leaves plain (`:x`, `=`, `<<`, `?x`) are quoted or not differently.
//! * Non-printable characters and characters outside the BMP are escaped differently.
//! * Float spelling may differ (`1e+21` in Go).
//!
//! All of these still parse back to the same value.

use std::cmp::Ordering;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// Why a value has no YAML.
#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    /// The value could not be encoded as JSON (e.g. a map with non-string keys).
    #[error("could not encode the output as JSON")]
    Json(#[source] serde_json::Error),
    /// The value could not be encoded as YAML.
    #[error("could not encode the output as YAML")]
    Yaml(#[source] serde_saphyr::SerializeError),
}

/// kubectl's YAML for any serializable value, ending in a newline.
pub fn to_yaml<T: Serialize + ?Sized>(value: &T) -> Result<String, YamlError> {
    let value = serde_json::to_value(value).map_err(YamlError::Json)?;
    let mut options = serde_saphyr::SerializerOptions::default();
    // serde-saphyr folds single-line strings over 80 characters into `>-` blocks, even ones
    // without a space to break at. go-yaml never breaks a string without spaces, so keeping
    // every single-line string on one line makes base64 data, certificates and URLs come out
    // exactly as kubectl prints them.
    options.folded_wrap_chars = usize::MAX;
    serde_saphyr::to_string_with_options(&GoYamlOrder(&value), options).map_err(YamlError::Yaml)
}

/// Serializes a JSON value with every map's keys in go-yaml v2's order.
struct GoYamlOrder<'a>(&'a Value);

impl Serialize for GoYamlOrder<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut keys: Vec<&String> = Vec::with_capacity(map.len());
                // A binary insertion sort: go-yaml's comparison is not guaranteed to be a total
                // order for odd keys, and std's sorts may panic on such comparators.
                for key in map.keys() {
                    let at = keys.partition_point(|k| !go_yaml_key_less(key, k));
                    keys.insert(at, key);
                }
                let mut out = serializer.serialize_map(Some(keys.len()))?;
                for key in keys {
                    out.serialize_entry(key, &GoYamlOrder(&map[key.as_str()]))?;
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&GoYamlOrder(item))?;
                }
                out.end()
            }
            scalar => scalar.serialize(serializer),
        }
    }
}

/// go-yaml v2's `keyList.Less` for string keys (`sorter.go`). Digits are ASCII digits here;
/// Go also treats other Unicode decimal digits as digits, which no Kubernetes key contains.
fn go_yaml_key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            // A zero inside a number that already had a non-zero digit is significant.
            for j in (0..i).rev() {
                if !ar[j].is_ascii_digit() {
                    break;
                }
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an.wrapping_mul(10).wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn.wrapping_mul(10).wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

/// [`go_yaml_key_less`] as an ordering, for callers that sort keys the way kubectl's YAML does.
pub fn go_yaml_key_order(a: &str, b: &str) -> Ordering {
    if go_yaml_key_less(a, b) {
        Ordering::Less
    } else if go_yaml_key_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_follow_go_yaml_natural_order() {
        // The order kubectl.1.32 printed for these ConfigMap data keys (captured with a fake
        // API server; see tests/it/output.rs for the live comparison).
        let kubectl_order = [
            "_x", "1", "2", "10", "B", "Z", "a-", "a.b", "a/b", "a_b", "a~", "a1", "a2", "a10", "aB", "b", "x0", "x00",
            "x01", "z9", "z09", "z10", "z010", "é",
        ];
        let mut shuffled = kubectl_order.to_vec();
        shuffled.sort_unstable();
        shuffled.reverse();
        let data: serde_json::Map<String, Value> = shuffled.iter().map(|k| (k.to_string(), json!("v"))).collect();
        let yaml = to_yaml(&json!({ "data": data })).expect("serializable");
        let printed: Vec<&str> =
            yaml.lines().skip(1).map(|l| l.trim_start().trim_end_matches(": v").trim_matches('"')).collect();
        assert_eq!(printed, kubectl_order);
    }

    #[test]
    fn typed_structs_are_sorted_too() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Obj {
            kind: &'static str,
            api_version: &'static str,
        }
        let yaml = to_yaml(&Obj { kind: "ConfigMap", api_version: "v1" }).expect("serializable");
        assert_eq!(yaml, "apiVersion: v1\nkind: ConfigMap\n");
    }

    #[test]
    fn kubernetes_object_style() {
        let v = json!({
            "metadata": {"name": "x", "creationTimestamp": "2020-01-01T00:00:00Z", "labels": {"y": "n"}},
            "data": {"n": "123", "t": "true", "e": "", "ml": "l1\nl2", "k": "v"},
            "items": [{"a": 1, "b": [1, 2]}, []],
            "empty": {}
        });
        assert_eq!(
            to_yaml(&v).expect("serializable"),
            "data:\n  e: \"\"\n  k: v\n  ml: |-\n    l1\n    l2\n  \"n\": \"123\"\n  t: \"true\"\n\
             empty: {}\n\
             items:\n- a: 1\n  b:\n  - 1\n  - 2\n- []\n\
             metadata:\n  creationTimestamp: \"2020-01-01T00:00:00Z\"\n  labels:\n    \"y\": \"n\"\n  name: x\n"
        );
    }

    #[test]
    fn long_single_line_strings_stay_on_one_line() {
        let base64 = "TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0Q2sxSlNVTTFla05EUVdNclowRjNTVUpCWjBsQ1FVUkJUa0puYTNGb2EybEhPWGN3UWtGUmMwWkJSRUZX";
        let sentence = "word ".repeat(30);
        let yaml = to_yaml(&json!({"caBundle": base64, "message": sentence.trim_end()})).expect("serializable");
        assert_eq!(yaml, format!("caBundle: {base64}\nmessage: {}\n", sentence.trim_end()));
    }

    #[test]
    fn order_helper_agrees_with_less() {
        assert_eq!(go_yaml_key_order("a2", "a10"), Ordering::Less);
        assert_eq!(go_yaml_key_order("a10", "a2"), Ordering::Greater);
        assert_eq!(go_yaml_key_order("a", "a"), Ordering::Equal);
        assert_eq!(go_yaml_key_order("_", "B"), Ordering::Less);
    }
}

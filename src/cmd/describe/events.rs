//! The events of a described object, found and printed as kubectl does: listed by a field
//! selector on the object's kind, name, namespace and UID (in pages of `--chunk-size`), sorted
//! by last timestamp, and shown as `Events:  <none>` or a table whose ages are counted from now.

use jiff::Timestamp;
use serde_json::Value;

use super::prefix_writer::PrefixWriter;
use crate::output::human_duration;

/// An object's events, oldest first.
#[derive(Debug, Default)]
pub struct Events(Vec<Value>);

/// The events about `object` (of `kind`); a failed read is shown as no events, as kubectl does.
pub async fn search(client: &kube::Client, object: &Value, kind: &str, chunk_size: i64) -> Events {
    let uid = object["metadata"]["uid"].as_str().unwrap_or_default();
    Events(search_by(client, object, kind, uid, chunk_size).await)
}

/// A Pod's events: found without their kind, as kubectl finds them, and by the static pod's
/// UID for a mirror pod.
pub async fn for_pod(client: &kube::Client, pod: &Value, chunk_size: i64) -> Events {
    let metadata = &pod["metadata"];
    let uid = metadata["annotations"]["kubernetes.io/config.mirror"]
        .as_str()
        .or_else(|| metadata["uid"].as_str())
        .unwrap_or_default();
    Events(search_by(client, pod, "", uid, chunk_size).await)
}

/// A Node's events: those naming it by UID and those naming it by name as its UID (kubelets
/// report them so), in every namespace.
pub async fn for_node(client: &kube::Client, node: &Value, chunk_size: i64) -> Events {
    let metadata = &node["metadata"];
    let uid = metadata["uid"].as_str().unwrap_or_default();
    let name = metadata["name"].as_str().unwrap_or_default();
    let mut items = search_by(client, node, "Node", uid, chunk_size).await;
    items.extend(search_by(client, node, "Node", name, chunk_size).await);
    items.sort_by_key(|e| timestamp(&e["lastTimestamp"]));
    Events(items)
}

/// Events listed by a field selector on the involved object (the kind and UID only when set),
/// oldest first.
async fn search_by(client: &kube::Client, object: &Value, kind: &str, uid: &str, chunk_size: i64) -> Vec<Value> {
    let metadata = &object["metadata"];
    let text = |key: &str| metadata[key].as_str().unwrap_or_default().to_string();
    let (name, namespace) = (text("name"), text("namespace"));
    let mut fields = vec![("involvedObject.name", name), ("involvedObject.namespace", namespace.clone())];
    if !kind.is_empty() {
        fields.insert(0, ("involvedObject.kind", kind.to_string()));
    }
    if !uid.is_empty() {
        fields.push(("involvedObject.uid", uid.to_string()));
    }
    let selector: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={}", escape_field_value(v))).collect();
    let collection = if namespace.is_empty() {
        "/api/v1/events".to_string()
    } else {
        format!("/api/v1/namespaces/{namespace}/events")
    };
    let selector = selector.join(",");
    // A failed read is shown as no events, as kubectl shows it.
    let mut items =
        super::list::items(client, &collection, &[("fieldSelector", &selector)], chunk_size).await.unwrap_or_default();
    items.sort_by_key(|e| timestamp(&e["lastTimestamp"]));
    items
}

/// `fields.EscapeValue`.
fn escape_field_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace(',', "\\,").replace('=', "\\=")
}

fn timestamp(v: &Value) -> Option<Timestamp> {
    v.as_str().and_then(|s| s.parse().ok())
}

/// How long ago, or `<unknown>` without a time.
fn since(v: &Value, now: Timestamp) -> String {
    match timestamp(v) {
        Some(t) => human_duration(now.duration_since(t)),
        None => "<unknown>".into(),
    }
}

impl Events {
    /// `DescribeEvents`.
    pub fn write(&self, w: &mut PrefixWriter) {
        self.write_at(w, Timestamp::now());
    }

    fn write_at(&self, w: &mut PrefixWriter, now: Timestamp) {
        if self.0.is_empty() {
            w.write(0, "Events:\t<none>\n");
            return;
        }
        w.flush();
        w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
        w.write(1, "----\t------\t----\t----\t-------\n");
        for e in &self.0 {
            let event_time = &e["eventTime"];
            let first =
                if timestamp(event_time).is_some() { since(event_time, now) } else { since(&e["firstTimestamp"], now) };
            let count = e["count"].as_i64().unwrap_or_default();
            let interval = if let Some(series) = e.get("series").filter(|s| s.is_object()) {
                let times = series["count"].as_i64().unwrap_or_default();
                format!("{} (x{times} over {first})", since(&series["lastObservedTime"], now))
            } else if count > 1 {
                format!("{} (x{count} over {first})", since(&e["lastTimestamp"], now))
            } else {
                first
            };
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            let mut source = text(&e["source"]["component"]);
            if source.is_empty() {
                source = text(&e["reportingComponent"]);
            }
            w.write(
                1,
                &format!(
                    "{}\t{}\t{interval}\t{source}\t{}\n",
                    text(&e["type"]),
                    text(&e["reason"]),
                    text(&e["message"]).trim()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_events_and_a_table_of_events() {
        let mut w = PrefixWriter::new();
        Events::default().write(&mut w);
        assert_eq!(w.finish(), "Events:  <none>\n");

        let now: Timestamp = "2024-01-01T00:10:00Z".parse().unwrap();
        let events = Events(vec![serde_json::json!({
            "type": "Normal", "reason": "Scheduled", "count": 3, "message": " placed \n",
            "firstTimestamp": "2024-01-01T00:00:00Z", "lastTimestamp": "2024-01-01T00:09:30Z",
            "source": {"component": "scheduler"}
        })]);
        let mut w = PrefixWriter::new();
        w.write(0, "Name:\tlonger-than-the-table\n");
        events.write_at(&mut w, now);
        assert_eq!(
            w.finish(),
            concat!(
                "Name:  longer-than-the-table\n",
                "Events:\n",
                "  Type    Reason     Age                From       Message\n",
                "  ----    ------     ----               ----       -------\n",
                "  Normal  Scheduled  30s (x3 over 10m)  scheduler  placed\n"
            )
        );
    }
}

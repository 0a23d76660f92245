//! kubectl's describers for the batch group: Job (its limits, times and pod counts) and
//! CronJob (its schedule, history limits, job template and active jobs), each then events.

use serde_json::Value;

use super::events::Events;
use super::go_format::{self, rfc1123z};
use super::meta;
use super::pod_template;
use super::prefix_writer::PrefixWriter;

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn number(v: &Value) -> i64 {
    v.as_i64().unwrap_or_default()
}

/// `Label:\tvalue` when the field is set, `<unset>` (or nothing, without `unset`) otherwise.
fn optional(w: &mut PrefixWriter, label: &str, v: &Value, suffix: &str, unset: bool) {
    match v {
        Value::Null if unset => w.write(0, &format!("{label}:\t<unset>\n")),
        Value::Null => {}
        other => w.write(0, &format!("{label}:\t{}{suffix}\n", super::generic::go_value(other))),
    }
}

fn header(w: &mut PrefixWriter, object: &Value) {
    let metadata = &object["metadata"];
    w.write(0, &format!("Name:\t{}\n", text(&metadata["name"])));
    w.write(0, &format!("Namespace:\t{}\n", text(&metadata["namespace"])));
}

fn selector_line(w: &mut PrefixWriter, selector: &Value) {
    match go_format::selector(selector) {
        Ok(s) => w.write(0, &format!("Selector:\t{s}\n")),
        Err(e) => w.write(0, &format!("Selector:\tFailed to get selector: {e}\n")),
    }
}

pub fn job(job: &Value, events: Option<&Events>) -> String {
    let (metadata, spec, status) = (&job["metadata"], &job["spec"], &job["status"]);
    let mut w = PrefixWriter::new();
    header(&mut w, job);
    selector_line(&mut w, &spec["selector"]);
    meta::labels(&mut w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(metadata.get("annotations")));
    if let Some(owner) = go_format::controller(job) {
        w.write(0, &format!("Controlled By:\t{owner}\n"));
    }
    optional(&mut w, "Parallelism", &spec["parallelism"], "", false);
    optional(&mut w, "Completions", &spec["completions"], "", true);
    optional(&mut w, "Completion Mode", &spec["completionMode"], "", false);
    optional(&mut w, "Suspend", &spec["suspend"], "", false);
    optional(&mut w, "Backoff Limit", &spec["backoffLimit"], "", false);
    optional(&mut w, "TTL Seconds After Finished", &spec["ttlSecondsAfterFinished"], "", false);
    let (start, done) = (&status["startTime"], &status["completionTime"]);
    if start.is_string() {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z(start)));
    }
    if done.is_string() {
        w.write(0, &format!("Completed At:\t{}\n", rfc1123z(done)));
    }
    let time = |v: &Value| v.as_str().and_then(|s| s.parse::<jiff::Timestamp>().ok());
    if let (Some(start), Some(done)) = (time(start), time(done)) {
        w.write(0, &format!("Duration:\t{}\n", crate::output::human_duration(done.duration_since(start))));
    }
    optional(&mut w, "Active Deadline Seconds", &spec["activeDeadlineSeconds"], "s", false);
    let (active, succeeded, failed) =
        (number(&status["active"]), number(&status["succeeded"]), number(&status["failed"]));
    match status["ready"].as_i64() {
        None => w.write(0, &format!("Pods Statuses:\t{active} Active / {succeeded} Succeeded / {failed} Failed\n")),
        Some(ready) => w.write(
            0,
            &format!("Pods Statuses:\t{active} Active ({ready} Ready) / {succeeded} Succeeded / {failed} Failed\n"),
        ),
    }
    if text(&spec["completionMode"]) == "Indexed" {
        w.write(0, &format!("Completed Indexes:\t{}\n", capped_indexes(text(&status["completedIndexes"]), 50)));
    }
    pod_template::describe(&mut w, &spec["template"]);
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

/// `capIndexesListOrNone`: the list up to the first comma at or after `soft_limit`, then `...`.
fn capped_indexes(indexes: &str, soft_limit: usize) -> String {
    if indexes.is_empty() {
        return "<none>".into();
    }
    match indexes.bytes().enumerate().skip(soft_limit).find(|(_, b)| *b == b',') {
        Some((i, _)) => format!("{}...", &indexes[..=i]),
        None => indexes.to_string(),
    }
}

pub fn cron_job(cron: &Value, events: Option<&Events>) -> String {
    let (metadata, spec, status) = (&cron["metadata"], &cron["spec"], &cron["status"]);
    let mut w = PrefixWriter::new();
    header(&mut w, cron);
    meta::labels(&mut w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(metadata.get("annotations")));
    w.write(0, &format!("Schedule:\t{}\n", text(&spec["schedule"])));
    w.write(0, &format!("Concurrency Policy:\t{}\n", text(&spec["concurrencyPolicy"])));
    let suspend = spec["suspend"].as_bool().map_or("<unset>", go_format::bool_word);
    w.write(0, &format!("Suspend:\t{suspend}\n"));
    optional(&mut w, "Successful Job History Limit", &spec["successfulJobsHistoryLimit"], "", true);
    optional(&mut w, "Failed Job History Limit", &spec["failedJobsHistoryLimit"], "", true);
    match spec["startingDeadlineSeconds"].as_i64() {
        Some(s) => w.write(0, &format!("Starting Deadline Seconds:\t{s}s\n")),
        None => w.write(0, "Starting Deadline Seconds:\t<unset>\n"),
    }
    let job = &spec["jobTemplate"]["spec"];
    if job["selector"].is_object() {
        selector_line(&mut w, &job["selector"]);
    } else {
        w.write(0, "Selector:\t<unset>\n");
    }
    optional(&mut w, "Parallelism", &job["parallelism"], "", true);
    optional(&mut w, "Completions", &job["completions"], "", true);
    optional(&mut w, "Active Deadline Seconds", &job["activeDeadlineSeconds"], "s", false);
    pod_template::describe(&mut w, &job["template"]);
    match status["lastScheduleTime"].is_string() {
        true => w.write(0, &format!("Last Schedule Time:\t{}\n", rfc1123z(&status["lastScheduleTime"]))),
        false => w.write(0, "Last Schedule Time:\t<unset>\n"),
    }
    w.write(0, "Active Jobs:\t");
    let active: Vec<&str> = status["active"].as_array().into_iter().flatten().map(|j| text(&j["name"])).collect();
    match active.is_empty() {
        true => w.line("<none>"),
        false => w.line(&active.join(", ")),
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::capped_indexes;

    #[test]
    fn long_index_lists_are_cut_after_a_comma() {
        assert_eq!(capped_indexes("", 50), "<none>");
        assert_eq!(capped_indexes("1,2,3", 50), "1,2,3");
        assert_eq!(capped_indexes("1-3,5,7-9", 4), "1-3,5,...");
    }
}

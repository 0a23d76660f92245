//! Printers of the API-extension kinds kube-apiserver serves besides CRDs: webhook
//! configurations (how many webhooks) and APIServices (the service behind one, and whether it is
//! available).

use serde_json::{Value, json};

use super::cells::{age, condition_status, count, name, text};
use super::{Column, Printer, Row};

pub const MUTATING_WEBHOOK_CONFIGURATION: Printer = Printer {
    group: "admissionregistration.k8s.io",
    kind: "MutatingWebhookConfiguration",
    columns: &[
        Column::name(),
        Column::integer("Webhooks", "Webhooks indicates the number of webhooks."),
        Column::age(),
    ],
    row: webhooks_row,
};

pub const VALIDATING_WEBHOOK_CONFIGURATION: Printer = Printer {
    group: "admissionregistration.k8s.io",
    kind: "ValidatingWebhookConfiguration",
    columns: &[
        Column::name(),
        Column::integer("Webhooks", "Webhooks indicates the number of webhooks."),
        Column::age(),
    ],
    row: webhooks_row,
};

fn webhooks_row(obj: &Value, now: jiff::Timestamp) -> Row {
    Row::cells(vec![name(obj), json!(count(obj, "/webhooks")), age(obj, now)])
}

pub const API_SERVICE: Printer = Printer {
    group: "apiregistration.k8s.io",
    kind: "APIService",
    columns: &[
        Column::name(),
        Column::string("Service", "The reference to the service that hosts this API endpoint."),
        Column::string("Available", "Whether this service is available."),
        Column::age(),
    ],
    row: |obj, now| {
        // kube-aggregator prints `Local` for a group served in process, else namespace/name.
        let service = match (text(obj, "/spec/service/namespace"), text(obj, "/spec/service/name")) {
            ("", "") => "Local".to_string(),
            (ns, n) => format!("{ns}/{n}"),
        };
        let available = match condition_status(obj, "/status/conditions", "Available") {
            Some("True") => "True".to_string(),
            Some(s) => {
                let reason = text(obj, "/status/conditions/0/reason");
                if reason.is_empty() { s.to_string() } else { format!("{s} ({reason})") }
            }
            None => "Unknown".to_string(),
        };
        Row::cells(vec![name(obj), json!(service), json!(available), age(obj, now)])
    },
};

//! discovery.k8s.io printers: EndpointSlice (`printEndpointSlice`).

use serde_json::{Value, json};

use super::cells::{age, items, name, text};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const ENDPOINT_SLICE: Printer = Printer {
    group: "discovery.k8s.io",
    kind: "EndpointSlice",
    columns: &[
        Column::name(),
        Column::string("AddressType", d::ENDPOINT_SLICE_ADDRESS_TYPE),
        Column::string("Ports", d::ENDPOINT_SLICE_PORTS),
        Column::string("Endpoints", d::ENDPOINT_SLICE_ENDPOINTS),
        Column::age(),
    ],
    row: |obj, now| {
        Row::cells(vec![
            name(obj),
            json!(text(obj, "/addressType")),
            json!(ports(obj)),
            json!(endpoints(obj)),
            age(obj, now),
        ])
    },
};

/// How many items a cell lists before `+ N more...`.
const MAX: usize = 3;

/// `formatDiscoveryPorts`: port numbers (or names, or `*`).
fn ports(obj: &Value) -> String {
    let all: Vec<String> = items(obj, "/ports")
        .iter()
        .map(|p| match p.get("port").and_then(Value::as_i64) {
            Some(n) => n.to_string(),
            None => p.get("name").and_then(Value::as_str).map_or("*".to_string(), str::to_string),
        })
        .collect();
    list_with_more(all)
}

/// `formatDiscoveryEndpoints`: every address of every endpoint.
fn endpoints(obj: &Value) -> String {
    let all: Vec<String> = items(obj, "/endpoints")
        .iter()
        .flat_map(|e| items(e, "/addresses"))
        .map(|a| a.as_str().unwrap_or_default().to_string())
        .collect();
    list_with_more(all)
}

/// `listWithMoreString`: three items, then a count of the rest; `<unset>` for none.
fn list_with_more(all: Vec<String>) -> String {
    let count = all.len();
    let shown = all.into_iter().take(MAX).collect::<Vec<_>>().join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else if shown.is_empty() {
        "<unset>".to_string()
    } else {
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_as_kube_prints_them() {
        let now = "2024-05-01T12:00:00Z".parse().unwrap();
        let obj = json!({"metadata": {"name": "web-abc", "creationTimestamp": "2024-05-01T11:59:00Z"},
            "addressType": "IPv4", "ports": [{"name": "http", "port": 80}, {"name": "x"}],
            "endpoints": [{"addresses": ["10.0.0.1"]}, {"addresses": ["10.0.0.2", "10.0.0.3"]},
                          {"addresses": ["10.0.0.4"]}]});
        let row = (ENDPOINT_SLICE.row)(&obj, now);
        assert_eq!(row.cells[1], "IPv4");
        assert_eq!(row.cells[2], "80,x");
        assert_eq!(row.cells[3], "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...");
        let empty = json!({"metadata": {"name": "e"}, "addressType": "IPv4"});
        assert_eq!((ENDPOINT_SLICE.row)(&empty, now).cells[2], "<unset>");
    }
}

//! The tables `top` prints, as upstream's `metrics_printer.go` writes them: kubectl's tab
//! writer, every cell tab-terminated (so lines end in padding), CPU in millicores rounded up,
//! memory in whole MiB, and node percentages of allocatable (or capacity) truncated.

use karmadactl_apimachinery::quantity::Quantity;
use serde_json::Value;

use crate::output::TabWriter;

/// CPU and memory, as one sample or a sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub cpu: Quantity,
    pub memory: Quantity,
}

impl Usage {
    /// `{"cpu": "...", "memory": "..."}`; a missing or unreadable value counts as zero, as
    /// Go's zero Quantity does.
    pub fn from_json(v: &Value) -> Self {
        let q = |k: &str| v[k].as_str().and_then(|s| Quantity::parse(s).ok()).unwrap_or_default();
        Usage { cpu: q("cpu"), memory: q("memory") }
    }

    fn plus(self, other: Usage) -> Usage {
        Usage { cpu: self.cpu.plus(other.cpu), memory: self.memory.plus(other.memory) }
    }

    /// Quantity.MilliValue: rounded up.
    fn cpu_millis(&self) -> i128 {
        ceil_div(self.cpu.nanos(), 1_000_000)
    }

    /// Quantity.Value: whole units, rounded up.
    fn memory_bytes(&self) -> i128 {
        ceil_div(self.memory.nanos(), 1_000_000_000)
    }
}

fn ceil_div(n: i128, d: i128) -> i128 {
    n / d + i128::from(n % d > 0)
}

pub struct PodSample {
    pub cluster: String,
    pub namespace: String,
    pub name: String,
    pub containers: Vec<(String, Usage)>,
}

impl PodSample {
    fn total(&self) -> Usage {
        self.containers.iter().fold(Usage::default(), |t, (_, u)| t.plus(*u))
    }
}

pub struct NodeSample {
    pub cluster: String,
    pub name: String,
    pub usage: Usage,
}

/// A node's allocatable (or capacity) for the percentage columns.
pub struct Available {
    pub cluster: String,
    pub node: String,
    pub cpu: Option<Quantity>,
    pub memory: Option<Quantity>,
}

pub struct PodOptions<'a> {
    pub containers: bool,
    pub with_namespace: bool,
    pub no_headers: bool,
    pub sort_by: &'a str,
    pub sum: bool,
}

fn cell(w: &mut TabWriter, value: &str) {
    w.write(value);
    w.write("\t");
}

/// The usage cells: `12m`, `34Mi`, each followed by its percentage when known.
fn usage_cells(w: &mut TabWriter, usage: &Usage, available: Option<(Option<Quantity>, Option<Quantity>)>) {
    let (cpu_of, memory_of) = available.unwrap_or((None, None));
    w.write(&format!("{}m\t", usage.cpu_millis()));
    if let Some(a) = cpu_of {
        w.write(&format!("{}%\t", percent(usage.cpu_millis(), ceil_div(a.nanos(), 1_000_000))));
    }
    w.write(&format!("{}Mi\t", usage.memory_bytes() / (1024 * 1024)));
    if let Some(a) = memory_of {
        let available_millis = ceil_div(a.nanos(), 1_000_000);
        w.write(&format!("{}%\t", percent(usage.memory_bytes() * 1000, available_millis)));
    }
}

/// `int64(float64(used) / float64(available) * 100)`, as Go computes it.
fn percent(used: i128, available: i128) -> i64 {
    (used as f64 / available as f64 * 100.0) as i64
}

fn line(w: &mut TabWriter, name: &str, cluster: &str, usage: &Usage) {
    cell(w, name);
    cell(w, cluster);
    usage_cells(w, usage, None);
    w.write("\n");
}

/// Upstream's pod table. Its sort is Go's `sort.Sort`, which for the few rows `top` prints is
/// an insertion sort, so a stable sort gives the same order.
pub fn pods(mut samples: Vec<PodSample>, o: &PodOptions) -> String {
    if samples.is_empty() {
        return String::new();
    }
    let mut w = TabWriter::new();
    // Upstream counts the extra columns only when it prints the headers.
    let mut width = 4;
    if !o.no_headers {
        if o.with_namespace {
            cell(&mut w, "NAMESPACE");
            width += 1;
        }
        if o.containers {
            cell(&mut w, "POD");
            width += 1;
        }
        for h in ["NAME", "CLUSTER", "CPU(cores)", "MEMORY(bytes)"] {
            cell(&mut w, h);
        }
        w.write("\n");
    }
    match o.sort_by {
        "cpu" => samples.sort_by_key(|s| std::cmp::Reverse(s.total().cpu_millis())),
        "memory" => samples.sort_by_key(|s| std::cmp::Reverse(s.total().memory_bytes())),
        _ => samples.sort_by(|a, b| {
            let ns = |s: &PodSample| if o.with_namespace { s.namespace.clone() } else { String::new() };
            (&a.cluster, ns(a), &a.name).cmp(&(&b.cluster, ns(b), &b.name))
        }),
    }
    for s in &mut samples {
        if o.containers {
            match o.sort_by {
                "cpu" => s.containers.sort_by_key(|(_, u)| std::cmp::Reverse(u.cpu_millis())),
                "memory" => s.containers.sort_by_key(|(_, u)| std::cmp::Reverse(u.memory_bytes())),
                _ => s.containers.sort_by(|a, b| a.0.cmp(&b.0)),
            }
            for (container, usage) in &s.containers {
                if o.with_namespace {
                    cell(&mut w, &s.namespace);
                }
                cell(&mut w, &s.name);
                line(&mut w, container, &s.cluster, usage);
            }
        } else {
            if o.with_namespace {
                cell(&mut w, &s.namespace);
            }
            line(&mut w, &s.name, &s.cluster, &s.total());
        }
    }
    if o.sum {
        let total = samples.iter().fold(Usage::default(), |t, s| t.plus(s.total()));
        for _ in 0..width - 2 {
            cell(&mut w, "");
        }
        cell(&mut w, "________");
        cell(&mut w, "________");
        w.write("\n");
        for _ in 0..width - 4 {
            cell(&mut w, "");
        }
        line(&mut w, "", "", &total);
    }
    w.finish()
}

/// Upstream's node table; nodes without a sample come last, with `<unknown>` usage.
pub fn nodes(mut samples: Vec<NodeSample>, mut available: Vec<Available>, no_headers: bool, sort_by: &str) -> String {
    if samples.is_empty() {
        return String::new();
    }
    let mut w = TabWriter::new();
    match sort_by {
        "cpu" => samples.sort_by_key(|s| std::cmp::Reverse(s.usage.cpu_millis())),
        "memory" => samples.sort_by_key(|s| std::cmp::Reverse(s.usage.memory_bytes())),
        _ => samples.sort_by(|a, b| a.name.cmp(&b.name)),
    }
    if !no_headers {
        for h in ["NAME", "CLUSTER", "CPU(cores)", "CPU%", "MEMORY(bytes)", "MEMORY%"] {
            cell(&mut w, h);
        }
        w.write("\n");
    }
    for s in &samples {
        let pos = available.iter().position(|a| a.cluster == s.cluster && a.node == s.name);
        let of = pos.map(|i| available.remove(i)).map(|a| (a.cpu, a.memory));
        cell(&mut w, &s.name);
        cell(&mut w, &s.cluster);
        usage_cells(&mut w, &s.usage, of);
        w.write("\n");
    }
    for a in &available {
        cell(&mut w, &a.node);
        cell(&mut w, &a.cluster);
        for _ in 0..4 {
            cell(&mut w, "<unknown>");
        }
        w.write("\n");
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(cpu: &str, memory: &str) -> Usage {
        Usage { cpu: Quantity::parse(cpu).unwrap(), memory: Quantity::parse(memory).unwrap() }
    }

    fn pod(cluster: &str, ns: &str, name: &str, containers: &[(&str, Usage)]) -> PodSample {
        PodSample {
            cluster: cluster.into(),
            namespace: ns.into(),
            name: name.into(),
            containers: containers.iter().map(|(n, u)| (n.to_string(), *u)).collect(),
        }
    }

    #[test]
    fn cpu_rounds_up_to_millicores_and_memory_down_to_mebibytes() {
        let u = usage("1000001n", "1048575");
        assert_eq!((u.cpu_millis(), u.memory_bytes() / (1024 * 1024)), (2, 0));
    }

    #[test]
    fn pod_table_sorts_by_cluster_then_name_and_sums() {
        let samples = vec![
            pod("m2", "default", "a", &[("c", usage("5m", "10Mi"))]),
            pod("m1", "default", "b", &[("c", usage("1500000n", "2Mi")), ("d", usage("1m", "1Mi"))]),
        ];
        let o = PodOptions { containers: false, with_namespace: false, no_headers: false, sort_by: "", sum: true };
        let text = pods(samples, &o);
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(
            lines,
            [
                "NAME   CLUSTER   CPU(cores)   MEMORY(bytes)",
                "b      m1        3m           3Mi",
                "a      m2        5m           10Mi",
                "                 ________     ________",
                "                 8m           13Mi",
            ]
        );
        assert!(text.lines().next().unwrap().ends_with("   "), "cells are tab-terminated: {text:?}");
    }

    #[test]
    fn node_table_has_percentages_and_unknown_rows() {
        let samples = vec![NodeSample { cluster: "m1".into(), name: "n1".into(), usage: usage("2", "8Gi") }];
        let available = vec![
            Available {
                cluster: "m1".into(),
                node: "n1".into(),
                cpu: Some(Quantity::parse("8").unwrap()),
                memory: Some(Quantity::parse("32Gi").unwrap()),
            },
            Available { cluster: "m1".into(), node: "n2".into(), cpu: None, memory: None },
        ];
        let text = nodes(samples, available, false, "");
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(lines[1], "n1     m1        2000m        25%         8192Mi          25%");
        assert_eq!(lines[2], "n2     m1        <unknown>    <unknown>   <unknown>       <unknown>");
    }
}

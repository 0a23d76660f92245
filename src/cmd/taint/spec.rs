//! The `taint` command line, checked before anything is sent: resources first, then taint
//! changes in kubectl's grammar (`key=value:Effect`, `key:Effect`, `key:Effect-`, `key-`), with
//! kubectl's messages.

use std::collections::BTreeSet;
use std::fmt;

use k8s_openapi::api::core::v1::Taint;
use karmadactl_apimachinery::{LabelSelector, is_qualified_name, is_valid_label_value};

use super::errors::TaintError;

/// The effects a cluster taint may have.
pub const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// The resource words `taint` accepts: upstream's two, and the group-qualified forms kubectl
/// users type.
pub const RESOURCE_TYPES: [&str; 4] =
    ["cluster", "clusters", "cluster.cluster.karmada.io", "clusters.cluster.karmada.io"];

/// A taint to remove: every taint with the key, or only the one with the key and effect.
/// A value given with a removal is dropped, as kubectl drops it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub key: String,
    pub effect: Option<String>,
}

impl Removal {
    pub fn matches(&self, taint: &Taint) -> bool {
        taint.key == self.key && self.effect.as_ref().is_none_or(|e| *e == taint.effect)
    }
}

/// Go's `Taint.ToString` for a taint without a value: `key` or `key:effect`.
impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.effect {
            Some(effect) => write!(f, "{}:{effect}", self.key),
            None => f.write_str(&self.key),
        }
    }
}

/// Which clusters to act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Targets {
    Names(Vec<String>),
    /// A label selector (`-l`), checked to parse.
    Selector(String),
    /// Every cluster (`--all`).
    All,
}

/// A checked `taint` command line.
#[derive(Debug, Clone, PartialEq)]
pub struct TaintRequest {
    pub targets: Targets,
    pub adds: Vec<Taint>,
    pub removes: Vec<Removal>,
}

/// Checks the positional arguments and the selection flags in kubectl's order and returns
/// what to do. `selector` is `-l`, `all` is `--all`.
pub fn parse_request(args: &[String], selector: Option<&str>, all: bool) -> Result<TaintRequest, TaintError> {
    let usage = |m: &str| TaintError::Usage(m.to_string());
    let mut resources = Vec::new();
    let mut changes = Vec::new();
    for arg in args {
        let is_taint = arg.contains('=') || arg.contains(':') || arg.ends_with('-');
        match (is_taint, changes.is_empty()) {
            (true, _) => changes.push(arg.as_str()),
            (false, true) => resources.push(arg.clone()),
            (false, false) => {
                return Err(usage(&format!("all resources must be specified before taint changes: {arg}")));
            }
        }
    }
    if resources.is_empty() {
        return Err(usage("one or more resources must be specified as <resource> <name>"));
    }
    if changes.is_empty() {
        return Err(usage("at least one taint update is required"));
    }
    let (adds, removes) = parse_changes(&changes)?;

    let resource_type = resources[0].to_lowercase();
    if !RESOURCE_TYPES.contains(&resource_type.as_str()) {
        let supported = RESOURCE_TYPES.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" ");
        return Err(usage(&format!("invalid resource type {resource_type}, only [{supported}] are supported")));
    }
    check_conflicts(&adds, &removes)?;

    let names = resources[1..].to_vec();
    let selector = selector.filter(|s| !s.is_empty());
    let targets = match (selector, all) {
        (Some(_), true) => return Err(usage("setting 'all' parameter with a non empty selector is prohibited.")),
        (None, false) if names.is_empty() => {
            return Err(usage("at least one resource name must be specified since 'all' parameter is not set"));
        }
        (None, false) => Targets::Names(names),
        // kubectl ignores names given with a selector or --all; saying so is clearer.
        (Some(_), false) if !names.is_empty() => {
            return Err(usage("name cannot be provided when a selector is specified"));
        }
        (None, true) if !names.is_empty() => return Err(usage("name cannot be provided when --all is specified")),
        (Some(s), false) => {
            LabelSelector::parse(s).map_err(|e| TaintError::Usage(format!("invalid selector {s:?}: {e}")))?;
            Targets::Selector(s.to_string())
        }
        (None, true) => Targets::All,
    };
    Ok(TaintRequest { targets, adds, removes })
}

/// kubectl's `parseTaints`: splits the changes into additions and removals and validates each.
pub fn parse_changes(changes: &[&str]) -> Result<(Vec<Taint>, Vec<Removal>), TaintError> {
    let mut adds: Vec<Taint> = Vec::new();
    let mut removes = Vec::new();
    let mut seen = BTreeSet::new();
    for change in changes {
        if let Some(spec) = change.strip_suffix('-') {
            let taint = parse_taint(spec)?;
            removes.push(Removal { key: taint.key, effect: Some(taint.effect).filter(|e| !e.is_empty()) });
            continue;
        }
        let taint = parse_taint(change)?;
        // A bare key can only remove.
        if taint.effect.is_empty() {
            return Err(TaintError::InvalidSpec(format!("invalid taint spec: {change}")));
        }
        if !seen.insert((taint.key.clone(), taint.effect.clone())) {
            return Err(TaintError::InvalidSpec(format!(
                "duplicated taints with the same key and effect: {{{} {} {} <nil>}}",
                taint.key,
                taint.value.as_deref().unwrap_or_default(),
                taint.effect
            )));
        }
        adds.push(taint);
    }
    Ok((adds, removes))
}

/// kubectl's `parseTaint`: `key=value:effect`, `key:effect` or `key`.
pub fn parse_taint(spec: &str) -> Result<Taint, TaintError> {
    let invalid = |why: Vec<String>| {
        let detail = if why.is_empty() { String::new() } else { format!(", {}", why.join("; ")) };
        TaintError::InvalidSpec(format!("invalid taint spec: {spec}{detail}"))
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let (key, value, effect) = match parts.as_slice() {
        [key] => (*key, None, ""),
        [key_value, effect] => {
            if !EFFECTS.contains(effect) {
                return Err(TaintError::InvalidSpec(format!(
                    "invalid taint effect: {effect}, unsupported taint effect"
                )));
            }
            let kv: Vec<&str> = key_value.split('=').collect();
            match kv.as_slice() {
                [key] => (*key, None, *effect),
                [key, value] => {
                    let errs = is_valid_label_value(value);
                    if !errs.is_empty() {
                        return Err(invalid(errs));
                    }
                    (*key, Some(*value).filter(|v| !v.is_empty()), *effect)
                }
                _ => return Err(invalid(Vec::new())),
            }
        }
        _ => return Err(invalid(Vec::new())),
    };
    let errs = is_qualified_name(key);
    if !errs.is_empty() {
        return Err(invalid(errs));
    }
    Ok(Taint { key: key.to_string(), value: value.map(str::to_string), effect: effect.to_string(), time_added: None })
}

/// A taint may not be added and removed in one command (kubectl's check, kubectl's message).
fn check_conflicts(adds: &[Taint], removes: &[Removal]) -> Result<(), TaintError> {
    let mut conflicts = Vec::new();
    for add in adds {
        for remove in removes.iter().filter(|r| r.key == add.key) {
            if remove.effect.as_ref().is_none_or(|e| *e == add.effect) {
                conflicts.push(format!("{{\"{}\":\"{}\"}}", remove.key, remove.effect.as_deref().unwrap_or_default()));
            }
        }
    }
    if conflicts.is_empty() {
        return Ok(());
    }
    Err(TaintError::InvalidSpec(format!(
        "can not both modify and remove the following taint(s) in the same command: {}",
        conflicts.join(", ")
    )))
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;

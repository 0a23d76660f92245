//! `interpret --check`: every customization's target and rules, each script compiled and
//! checked for the function its rule calls, in upstream's layout (tab-aligned as kubectl's tab
//! writer aligns it).

use karmadactl_interpreter::customization::check_script;
use karmadactl_karmada_api::config::customization::{API_VERSION, KIND};

use super::rules;
use super::sources::Document;
use crate::output::TabWriter;

/// Why the check failed (the details are already on stdout).
#[derive(Debug, thiserror::Error)]
#[error("{failed} of {total} customizations failed the check")]
pub struct CheckFailed {
    pub failed: usize,
    pub total: usize,
}

/// The report for `documents`, and how many of them failed.
pub fn report(documents: &[Document]) -> (String, usize) {
    let mut w = TabWriter::new();
    let mut failed = 0;
    for doc in documents {
        w.write("-----------------------------------\n");
        let name = doc.object["metadata"]["name"].as_str().filter(|n| !n.is_empty());
        w.write(&format!("SOURCE: {}\n", name.map_or_else(|| doc.origin.display(), str::to_string)));
        if !check_one(&doc.object, &mut w) {
            failed += 1;
        }
    }
    (w.finish(), failed)
}

/// Writes one customization's lines; false when something in it is wrong. The two "no set"
/// lines keep upstream's wording, so scripts that match on it keep working.
fn check_one(object: &serde_json::Value, w: &mut TabWriter) -> bool {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let kind = object["kind"].as_str().unwrap_or_default();
    if api_version != API_VERSION || kind != KIND {
        w.write(&format!("not a {KIND}, got {}\n", karmadactl_interpreter::Target::new(api_version, kind)));
        return false;
    }
    let target = &object["spec"]["target"];
    let Some(kind) = target["kind"].as_str().filter(|k| !k.is_empty()) else {
        w.write("target.kind no set\n");
        return false;
    };
    let Some(api_version) = target["apiVersion"].as_str().filter(|v| !v.is_empty()) else {
        w.write("target.apiVersion no set\n");
        return false;
    };
    w.write(&format!("TARGET: {api_version} {kind}\t\n"));
    w.write("RULERS:\n");
    let mut ok = true;
    for op in rules::ORDER {
        w.write(&format!("    {}:\t", op.name()));
        match rules::script(object, op) {
            None => w.write("UNSET\n"),
            Some(script) => match check_script(op, script) {
                Ok(()) => w.write("PASS\n"),
                Err(e) => {
                    ok = false;
                    w.write(&format!("ERROR: {}\t\n", e.trim()));
                }
            },
        }
    }
    ok
}

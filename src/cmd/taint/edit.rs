//! The change a command makes to a cluster's taint list, as an edit (which taints go, which
//! come) rather than a new list, so the write can touch only those taints.

use k8s_openapi::api::core::v1::Taint;

use super::errors::TaintError;
use super::same_key_and_effect;
use super::spec::Removal;

/// The taint `cordon` adds and `uncordon` removes (no value, no timeAdded).
pub const CORDON_KEY: &str = "cluster.karmada.io/unschedulable";
pub const CORDON_EFFECT: &str = "NoSchedule";

/// A change to a taint list: drop the taints at `remove` (indices into the old list), then put
/// `prepend` in front and `append` at the end. The taints that stay keep their order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaintEdit {
    pub remove: Vec<usize>,
    pub prepend: Vec<Taint>,
    pub append: Vec<Taint>,
}

impl TaintEdit {
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.prepend.is_empty() && self.append.is_empty()
    }

    /// The list after the edit.
    pub fn apply(&self, old: &[Taint]) -> Vec<Taint> {
        let kept = old.iter().enumerate().filter(|(i, _)| !self.remove.contains(i)).map(|(_, t)| t.clone());
        self.prepend.iter().cloned().chain(kept).chain(self.append.iter().cloned()).collect()
    }
}

/// kubectl's result word for a taint command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Tainted,
    Untainted,
    Modified,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tainted => "tainted",
            Self::Untainted => "untainted",
            Self::Modified => "modified",
        }
    }
}

/// The cordon taint.
pub fn cordon_taint() -> Taint {
    Taint { key: CORDON_KEY.into(), effect: CORDON_EFFECT.into(), value: None, time_added: None }
}

/// cordon: append the cordon taint unless one with its key and effect is there (`None`: already
/// cordoned).
pub fn cordon(old: &[Taint]) -> Option<TaintEdit> {
    let taint = cordon_taint();
    if old.iter().any(|t| same_key_and_effect(t, &taint)) {
        return None;
    }
    Some(TaintEdit { append: vec![taint], ..TaintEdit::default() })
}

/// uncordon: remove the first taint with the cordon key and effect (`None`: not cordoned).
/// Upstream swaps the last taint into its place; here the others keep their order.
pub fn uncordon(old: &[Taint]) -> Option<TaintEdit> {
    let taint = cordon_taint();
    let index = old.iter().position(|t| same_key_and_effect(t, &taint))?;
    Some(TaintEdit { remove: vec![index], ..TaintEdit::default() })
}

/// `taint` on one cluster, as kubectl's `updateTaints` and `ReorganizeTaints` decide it: the
/// new list is the added taints, then the old ones no addition replaces (same key and effect),
/// minus the removals. Every removal must match something.
pub fn reorganize(
    cluster: &str,
    old: &[Taint],
    overwrite: bool,
    adds: &[Taint],
    removes: &[Removal],
) -> Result<(TaintEdit, Operation), TaintError> {
    if !overwrite {
        let existing: Vec<&str> = adds
            .iter()
            .flat_map(|add| old.iter().filter(move |t| same_key_and_effect(t, add)).map(|_| add.key.as_str()))
            .collect();
        if !existing.is_empty() {
            return Err(TaintError::AlreadyExists { cluster: cluster.to_string(), keys: existing.join(",") });
        }
    }
    let replaced = |t: &Taint| adds.iter().any(|a| same_key_and_effect(a, t));
    let kept_after_adds = old.iter().filter(|t| !replaced(t)).count();
    // kubectl: "added" when the list changed length once additions replaced their old taints.
    let added = adds.len() + kept_after_adds != old.len();

    // Removals apply one after the other, so a second removal of what a first one took is
    // "not found", as in kubectl. Additions never match a removal (conflicts are refused when
    // parsing), so only the old taints that survive the additions are candidates.
    let mut remove: Vec<usize> = (0..old.len()).filter(|&i| replaced(&old[i])).collect();
    let mut missing = Vec::new();
    for removal in removes {
        let hits: Vec<usize> = (0..old.len()).filter(|i| !remove.contains(i) && removal.matches(&old[*i])).collect();
        if hits.is_empty() {
            missing.push(format!("taint {} not found", karmadactl_apimachinery::go_quote(&removal.to_string())));
        }
        remove.extend(hits);
    }
    if !missing.is_empty() {
        return Err(TaintError::TaintsNotFound(missing));
    }
    let deleted = !removes.is_empty();
    remove.sort_unstable();

    let edit = TaintEdit { remove, prepend: adds.to_vec(), append: Vec::new() };
    let operation = if (added && deleted) || overwrite {
        Operation::Modified
    } else if added {
        Operation::Tainted
    } else {
        Operation::Untainted
    };
    Ok((edit, operation))
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;

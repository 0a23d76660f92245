//! Apply conflicts: a field another manager owns would get another value. Worded as
//! kube-apiserver words them, so kubectl prints the same hint.

use crate::{ApiError, Cause, CauseType};

use super::fieldset::{Path, path_string};

/// One conflicting field and the manager that owns it (described as in [`super::Entry::describe`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub manager: String,
    pub path: Path,
}

/// 409 Conflict: `Apply failed with 1 conflict: conflict with "a": .spec.replicas`,
/// with a `FieldManagerConflict` cause per field.
pub fn conflict_error(conflicts: &[Conflict]) -> ApiError {
    let causes: Vec<Cause> = conflicts
        .iter()
        .map(|c| Cause {
            cause_type: Some(CauseType::FieldManagerConflict),
            message: format!("conflict with {}", c.manager),
            field: path_string(&c.path),
        })
        .collect();
    let detail = match conflicts {
        [one] => format!("conflict with {}: {}", one.manager, path_string(&one.path)),
        _ => {
            let mut managers: Vec<&str> = conflicts.iter().map(|c| c.manager.as_str()).collect();
            managers.sort();
            managers.dedup();
            let mut lines = Vec::new();
            for m in managers {
                lines.push(format!("conflicts with {m}:"));
                for c in conflicts.iter().filter(|c| c.manager == m) {
                    lines.push(format!("- {}", path_string(&c.path)));
                }
            }
            lines.join("\n")
        }
    };
    let plural = if conflicts.len() == 1 { "" } else { "s" };
    let message = format!("Apply failed with {} conflict{plural}: {detail}", conflicts.len());
    ApiError::apply_conflict(message, causes)
}

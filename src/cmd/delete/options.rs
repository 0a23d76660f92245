//! How `delete` deletes, from its flags: the cascading strategy, the grace period (`--now`,
//! `--force`) and whether NotFound counts, with kubectl's checks and warnings, in its order.

/// kubectl's `DeletionPropagation` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cascade {
    Background,
    Foreground,
    Orphan,
}

impl Cascade {
    /// The `propagationPolicy` sent in DeleteOptions.
    pub fn policy(self) -> &'static str {
        match self {
            Cascade::Background => "Background",
            Cascade::Foreground => "Foreground",
            Cascade::Orphan => "Orphan",
        }
    }
}

/// kubectl's `parseCascadingFlag`: a strategy, or a deprecated boolean (with its warning).
pub fn parse_cascade(value: &str) -> Result<(Cascade, Option<String>), String> {
    let deprecated = |now: &str| {
        format!("--cascade={value} is deprecated (boolean value) and can be replaced with --cascade={now}.")
    };
    Ok(match value {
        "orphan" => (Cascade::Orphan, None),
        "foreground" => (Cascade::Foreground, None),
        "background" => (Cascade::Background, None),
        // Go's strconv.ParseBool spellings.
        "1" | "t" | "T" | "true" | "TRUE" | "True" => (Cascade::Background, Some(deprecated("background"))),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => (Cascade::Orphan, Some(deprecated("orphan"))),
        other => {
            return Err(format!(
                "invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\""
            ));
        }
    })
}

/// The grace period (-1: the object's default) from `--grace-period`, `--now` and `--force`,
/// as kubectl's `Complete` settles it.
pub fn grace_period(given: i64, now: bool, force: bool) -> Result<i64, String> {
    let mut grace = given;
    if now {
        if grace != -1 {
            return Err("--now and --grace-period cannot be specified together".into());
        }
        grace = 1;
    }
    if grace == 0 && !force {
        // kubectl turns 0 into 1 so that only --force deletes without waiting for the kubelet.
        grace = 1;
    }
    if force && grace < 0 {
        grace = 0;
    }
    Ok(grace)
}

/// kubectl's `Validate` of `--force`: refused with a positive grace period, warned about with
/// none.
pub fn check_force(grace: i64, force: bool) -> Result<Option<&'static str>, String> {
    match (grace, force) {
        (0, true) => Ok(Some(
            "Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.",
        )),
        (g, true) if g > 0 => Err("--force and --grace-period greater than 0 cannot be specified together".into()),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cascade_values_are_kubectls() {
        assert_eq!(parse_cascade("foreground").unwrap(), (Cascade::Foreground, None));
        let (c, w) = parse_cascade("false").unwrap();
        assert_eq!(c, Cascade::Orphan);
        assert_eq!(
            w.unwrap(),
            "--cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan."
        );
        assert_eq!(
            parse_cascade("sideways").unwrap_err(),
            "invalid cascade value (sideways). Must be \"background\", \"foreground\", or \"orphan\""
        );
    }

    #[test]
    fn grace_periods_settle_as_in_kubectl() {
        assert_eq!(grace_period(-1, false, false).unwrap(), -1);
        assert_eq!(grace_period(-1, true, false).unwrap(), 1);
        assert_eq!(grace_period(0, false, false).unwrap(), 1);
        assert_eq!(grace_period(-1, false, true).unwrap(), 0);
        assert_eq!(grace_period(5, true, false).unwrap_err(), "--now and --grace-period cannot be specified together");
        assert!(check_force(0, true).unwrap().unwrap().starts_with("Immediate deletion"));
        assert_eq!(check_force(3, false).unwrap(), None);
        assert_eq!(
            check_force(3, true).unwrap_err(),
            "--force and --grace-period greater than 0 cannot be specified together"
        );
    }
}

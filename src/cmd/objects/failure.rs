//! Failures of the kubectl-like commands, worded as kubectl's `CheckErr` words them: the
//! server's `Error from server (Reason): …`, an invalid object's causes, plain `error: …`.

use karmadactl_apimachinery::go_quote;
use kube::core::Status;

/// One thing that went wrong while visiting the objects.
#[derive(Debug)]
pub enum Failure {
    /// The API server refused the request.
    Api(Box<Status>),
    /// Anything else (unreachable server, bad input found while visiting).
    Plain(String),
}

impl Failure {
    pub fn from_kube(e: kube::Error) -> Self {
        match e {
            kube::Error::Api(s) => Failure::Api(s),
            other => Failure::Plain(crate::error::with_causes(&other)),
        }
    }

    /// The failure's text; `alone` when it is the command's only one (kubectl unwraps an
    /// aggregate of one and then words invalid objects and plain errors differently).
    fn text(&self, alone: bool) -> String {
        match self {
            Failure::Plain(m) if alone => format!("error: {m}"),
            Failure::Plain(m) => m.clone(),
            Failure::Api(s) if alone && s.reason == "Invalid" => invalid(s),
            Failure::Api(s) => standard(s),
        }
    }
}

/// All failures of a command, one after the other, as kubectl prints them on exit.
pub fn render(failures: &[Failure]) -> String {
    match failures {
        [one] => one.text(true),
        many => many.iter().map(|f| f.text(false)).collect::<Vec<_>>().join("\n"),
    }
}

/// The error a command returns after its failures: printed as it is, exit code 1.
pub fn into_error(failures: &[Failure]) -> anyhow::Error {
    crate::error::Verbatim(render(failures)).into()
}

fn standard(s: &Status) -> String {
    match s.reason.as_str() {
        "Unauthorized" => format!("error: You must be logged in to the server ({})", s.message),
        "" => format!("Error from server: {}", s.message),
        reason => format!("Error from server ({reason}): {}", s.message),
    }
}

/// kubectl's wording of an `Invalid` answer: the kind and name, then each distinct cause.
fn invalid(s: &Status) -> String {
    let Some(details) = &s.details else {
        return match s.message.as_str() {
            "" => "The request is invalid".into(),
            m => format!("The request is invalid: {m}"),
        };
    };
    let mut head = "The request is invalid".to_string();
    if !details.kind.is_empty() || !details.name.is_empty() {
        head = format!("The {} {} is invalid", details.kind, go_quote(&details.name));
    } else if !s.message.is_empty() && details.causes.is_empty() {
        head = format!("{head}: {}", s.message);
    }
    let mut causes: Vec<String> = Vec::new();
    for c in &details.causes {
        let line = format!("{}: {}", c.field, c.message);
        if !causes.contains(&line) {
            causes.push(line);
        }
    }
    match causes.as_slice() {
        [] => head,
        [one] => format!("{head}: {one}"),
        many => format!("{head}: \n{}", many.iter().map(|c| format!("* {c}")).collect::<Vec<_>>().join("\n")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn status(v: serde_json::Value) -> Failure {
        Failure::Api(Box::new(serde_json::from_value(v).expect("a Status")))
    }

    #[test]
    fn server_refusals_name_their_reason() {
        let nf = status(json!({"reason": "NotFound", "message": "deployments.apps \"nope\" not found"}));
        assert_eq!(render(&[nf]), "Error from server (NotFound): deployments.apps \"nope\" not found");
        assert_eq!(render(&[Failure::Plain("bad".into())]), "error: bad");
        let two = [Failure::Plain("bad".into()), status(json!({"reason": "Conflict", "message": "again"}))];
        assert_eq!(render(&two), "bad\nError from server (Conflict): again");
    }

    #[test]
    fn invalid_objects_list_their_causes() {
        let invalid = |causes: &[&str]| {
            let causes: Vec<_> = causes.iter().map(|f| json!({"field": f, "message": "Invalid value"})).collect();
            status(json!({"reason": "Invalid", "message": "x",
                          "details": {"kind": "Deployment", "name": "web", "causes": causes}}))
        };
        assert_eq!(
            render(&[invalid(&["metadata.labels"])]),
            "The Deployment \"web\" is invalid: metadata.labels: Invalid value"
        );
        assert_eq!(
            render(&[invalid(&["a", "b", "a"])]),
            "The Deployment \"web\" is invalid: \n* a: Invalid value\n* b: Invalid value"
        );
    }
}

//! The shipped third-party set: every upstream test case answered by the customizations this
//! interpreter ships (`crates/interpreter/thirdparty/`, written for this project), with no user
//! customization loaded, gives upstream's expected output, and each answer comes from the
//! shipped set rather than from the native interpreters.

#[path = "support/block_on.rs"]
mod block_on;

mod thirdparty;

use karmadactl_interpreter::{Interpreter, Operation, Source, Target};

#[test]
fn the_shipped_set_answers_every_thirdparty_case_as_upstream() {
    let (cases, failures) = thirdparty::cases::run_all(
        |_, _, _| Interpreter::standard(),
        |interpreter, case| {
            let object = case.get("desiredObj").filter(|v| !v.is_null()).or(case.get("observedObj")).unwrap();
            let operation = case["operation"].as_str().and_then(Operation::parse).unwrap();
            match interpreter.source(&Target::of(object), operation) {
                Some(Source::ThirdParty(_)) => Ok(()),
                other => {
                    Err(format!("{operation} for {} is answered by {other:?}, not the shipped set", Target::of(object)))
                }
            }
        },
    );
    assert!(failures.is_empty(), "{} of {cases} cases failed:\n{}", failures.len(), failures.join("\n\n"));
    assert_eq!(cases, 458, "the fixture set has 458 cases");
}

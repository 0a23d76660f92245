//! Unit and property tests for label selectors (cases mirror labels/selector_test.go).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector as K8s, LabelSelectorRequirement};
use proptest::prelude::*;

use super::*;

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn parse_ok(s: &str) -> LabelSelector {
    match LabelSelector::parse(s) {
        Ok(sel) => sel,
        Err(e) => panic!("{s:?} should parse: {e}"),
    }
}

fn parse_err(s: &str) -> String {
    match LabelSelector::parse(s) {
        Ok(sel) => panic!("{s:?} should fail, got {sel}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn accepts_upstream_grammar() {
    let cases = [
        ("", ""),
        ("x=a,y=b,z=c", "x=a,y=b,z=c"),
        ("x = a , y == b", "x=a,y==b"),
        ("x!=a,y=b", "x!=a,y=b"),
        ("x=,z= ", "x=,z="),
        ("x= ,z= ", "x=,z="),
        ("!x", "!x"),
        ("x>1", "x>1"),
        ("x<-1", ""),
        ("x in (foo,,baz),y,z notin ()", "x in (,baz,foo),y,z notin ()"),
        ("x in (b,a,a)", "x in (a,b)"),
        ("x notin (in)", "x notin (in)"),
        ("in in (notin)", "in in (notin)"),
        ("z,y,x", "x,y,z"),
        ("example.com/app-Name.x_1=v", "example.com/app-Name.x_1=v"),
        ("x\tin\n( a , b )", "x in (a,b)"),
    ];
    for (input, canonical) in cases {
        if input == "x<-1" {
            // "-1" is not a valid label value, so upstream rejects it.
            assert!(LabelSelector::parse(input).is_err());
            continue;
        }
        assert_eq!(parse_ok(input).to_string(), canonical, "{input:?}");
    }
    assert!(parse_ok("").is_empty());
}

#[test]
fn error_messages_match_apimachinery() {
    let cases = [
        ("x=a)", "found ')', expected: ',' or 'end of string'"),
        ("x==a==b", "found '==', expected: ',' or 'end of string'"),
        ("x,,y", "found ',', expected: identifier after ','"),
        (",x", "found ',', expected: !, identifier, or 'end of string'"),
        ("x in (a", "unable to parse requirement: found '', expected: ',' or ')'"),
        ("x in a", "unable to parse requirement: found 'a' expected: '('"),
        ("x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"),
        ("x in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"),
        ("x in (a,=)", "unable to parse requirement: found '=', expected: ',', or identifier"),
        ("x (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"),
        ("x=(", "unable to parse requirement: found '(', expected: identifier"),
        ("!", "unable to parse requirement: found '', expected: identifier"),
        (
            "x>a",
            "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer",
        ),
        ("!x=a", "found '=', expected: ',' or 'end of string'"),
    ];
    for (input, want) in cases {
        assert_eq!(parse_err(input), want, "{input:?}");
    }
    let bad_key = parse_err("a b=c");
    assert_eq!(bad_key, "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    let bad_key = parse_err("x$=a");
    assert!(
        bad_key.starts_with("unable to parse requirement: <nil>: Invalid value: \"x$\": name part must consist of"),
        "{bad_key}"
    );
    let bad_value = parse_err("x=a b");
    assert_eq!(bad_value, "found 'b', expected: ',' or 'end of string'");
    let bad_value = parse_err("x=-a");
    assert!(
        bad_value
            .starts_with("unable to parse requirement: values[0][x]: Invalid value: \"-a\": a valid label must be"),
        "{bad_value}"
    );
}

#[test]
fn matching_semantics() {
    let l = labels(&[("app", "web"), ("tier", "1")]);
    let m = |s: &str| parse_ok(s).matches(&l);
    assert!(m(""));
    assert!(m("app"));
    assert!(!m("!app"));
    assert!(m("!missing"));
    assert!(m("app=web") && m("app==web") && !m("app=db"));
    assert!(m("app!=db") && !m("app!=web") && m("missing!=x"));
    assert!(m("app in (db,web)") && !m("missing in (x)"));
    assert!(m("missing notin (x)") && !m("app notin (web)"));
    assert!(m("tier>0") && !m("tier>1") && m("tier<2") && !m("missing>0") && !m("app>0"));
    assert!(!m("app=web,tier=2"));
}

#[test]
fn structured_selectors() {
    let ls = K8s {
        match_labels: Some(BTreeMap::from([("b".to_string(), "2".to_string())])),
        match_expressions: Some(vec![
            LabelSelectorRequirement {
                key: "a".into(),
                operator: "In".into(),
                values: Some(vec!["y".into(), "x".into()]),
            },
            LabelSelectorRequirement { key: "c".into(), operator: "DoesNotExist".into(), values: None },
        ]),
    };
    let sel = LabelSelector::from_label_selector(&ls).unwrap_or_default();
    assert_eq!(sel.to_string(), "a in (x,y),b=2,!c");
    assert!(sel.matches(&labels(&[("a", "x"), ("b", "2")])));
    assert!(LabelSelector::from_label_selector(&K8s::default()).is_ok_and(|s| s.is_empty()));

    let bad_op = K8s {
        match_expressions: Some(vec![LabelSelectorRequirement {
            key: "a".into(),
            operator: "Gt".into(),
            values: None,
        }]),
        ..K8s::default()
    };
    assert_eq!(
        LabelSelector::from_label_selector(&bad_op).map_err(|e| e.to_string()),
        Err("\"Gt\" is not a valid label selector operator".to_string())
    );
    let empty_in = K8s {
        match_expressions: Some(vec![LabelSelectorRequirement {
            key: "a".into(),
            operator: "In".into(),
            values: None,
        }]),
        ..K8s::default()
    };
    assert_eq!(
        LabelSelector::from_label_selector(&empty_in).map_err(|e| e.to_string()),
        Err("values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty".to_string())
    );
    let exists_with_values = K8s {
        match_expressions: Some(vec![LabelSelectorRequirement {
            key: "a b".into(),
            operator: "Exists".into(),
            values: Some(vec!["x".into()]),
        }]),
        ..K8s::default()
    };
    let err = LabelSelector::from_label_selector(&exists_with_values).map_err(|e| e.to_string());
    let err = err.err().unwrap_or_default();
    assert!(err.starts_with("[key: Invalid value: \"a b\": name part must consist"), "{err}");
    assert!(
        err.ends_with("values: Invalid value: [\"x\"]: values set must be empty for exists and does not exist]"),
        "{err}"
    );
}

#[test]
fn exact_match_and_set() {
    let sel = LabelSelector::from_set(&labels(&[("b", "2"), ("a", "1")]));
    assert_eq!(sel.to_string(), "a=1,b=2");
    assert_eq!(sel.requires_exact_match("b"), Some("2"));
    assert_eq!(parse_ok("a in (x)").requires_exact_match("a"), Some("x"));
    assert_eq!(parse_ok("a in (x,y)").requires_exact_match("a"), None);
    assert_eq!(parse_ok("a!=x").requires_exact_match("a"), None);
}

/// A key: optional subdomain prefix plus a name, including the words `in`/`notin`.
fn key_strategy() -> impl Strategy<Value = String> {
    let name =
        prop_oneof!["[a-zA-Z0-9]([-a-zA-Z0-9_.]{0,8}[a-zA-Z0-9])?", Just("in".to_string()), Just("notin".to_string()),];
    (proptest::option::of("[a-z0-9]{1,5}(\\.[a-z0-9]{1,5}){0,2}"), name).prop_map(|(prefix, name)| match prefix {
        Some(p) => format!("{p}/{name}"),
        None => name,
    })
}

fn value_strategy() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-zA-Z0-9]([-a-zA-Z0-9_.]{0,8}[a-zA-Z0-9])?", Just("in".to_string())]
}

fn requirement_strategy() -> impl Strategy<Value = Requirement> {
    let values = proptest::collection::btree_set(value_strategy(), 1..4);
    (key_strategy(), 0..9u8, values, value_strategy(), -50i64..50).prop_filter_map(
        "valid requirement",
        |(key, op, set, one, n)| {
            let (op, values) = match op {
                0 => (Operator::Exists, vec![]),
                1 => (Operator::DoesNotExist, vec![]),
                2 => (Operator::Equals, vec![one]),
                3 => (Operator::DoubleEquals, vec![one]),
                4 => (Operator::NotEquals, vec![one]),
                5 => (Operator::In, set.into_iter().collect()),
                6 => (Operator::NotIn, set.into_iter().collect()),
                7 => (Operator::GreaterThan, vec![n.unsigned_abs().to_string()]),
                _ => (Operator::LessThan, vec![n.unsigned_abs().to_string()]),
            };
            Requirement::new(&key, op, values).ok()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn display_round_trips(reqs in proptest::collection::vec(requirement_strategy(), 0..5)) {
        let sel = LabelSelector::from_requirements(reqs);
        let shown = sel.to_string();
        let reparsed = LabelSelector::parse(&shown);
        prop_assert_eq!(reparsed.as_ref(), Ok(&sel), "{}", shown);
    }

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,40}") {
        if let Ok(sel) = LabelSelector::parse(&s) {
            prop_assert_eq!(LabelSelector::parse(&sel.to_string()), Ok(sel));
        }
    }

    #[test]
    fn selector_alphabet_never_panics(s in "[a-z!=<>(), \t\\x00in-]{0,30}") {
        let _ = LabelSelector::parse(&s);
    }
}

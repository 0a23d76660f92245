use super::*;

fn t(key: &str, value: Option<&str>, effect: &str) -> Taint {
    Taint { key: key.into(), value: value.map(Into::into), effect: effect.into(), time_added: None }
}

fn rm(key: &str, effect: Option<&str>) -> Removal {
    Removal { key: key.into(), effect: effect.map(Into::into) }
}

#[test]
fn cordon_appends_once_and_uncordon_removes_only_the_cordon_taint() {
    let other = t("dedicated", Some("gpu"), "NoSchedule");
    let edit = cordon(std::slice::from_ref(&other)).expect("not cordoned yet");
    let cordoned = edit.apply(std::slice::from_ref(&other));
    assert_eq!(cordoned, vec![other.clone(), cordon_taint()]);
    assert_eq!(cordon(&cordoned), None, "already cordoned");
    // The same key with another effect is not the cordon taint.
    assert!(cordon(&[t(CORDON_KEY, None, "NoExecute")]).is_some());

    let with_later = [cordoned.clone(), vec![t("z", None, "NoExecute")]].concat();
    let edit = uncordon(&with_later).expect("cordoned");
    assert_eq!(edit.remove, vec![1]);
    assert_eq!(edit.apply(&with_later), vec![other.clone(), t("z", None, "NoExecute")], "the others keep their order");
    assert_eq!(uncordon(&[other]), None, "already uncordoned");
}

#[test]
fn additions_go_first_and_replace_same_key_and_effect() {
    let old = [t("a", Some("1"), "NoSchedule"), t("b", None, "NoExecute")];
    let (edit, op) = reorganize("m1", &old, false, &[t("c", None, "NoSchedule")], &[]).unwrap();
    assert_eq!(op, Operation::Tainted);
    assert_eq!(edit.apply(&old), vec![t("c", None, "NoSchedule"), old[0].clone(), old[1].clone()]);

    let err = reorganize("m1", &old, false, &[t("a", Some("2"), "NoSchedule")], &[]).unwrap_err();
    assert_eq!(err.to_string(), "cluster m1 already has a taint(s) with same effect(s) and --overwrite is false");

    let (edit, op) = reorganize("m1", &old, true, &[t("a", Some("2"), "NoSchedule")], &[]).unwrap();
    assert_eq!(op, Operation::Modified);
    assert_eq!(edit.remove, vec![0]);
    assert_eq!(edit.apply(&old), vec![t("a", Some("2"), "NoSchedule"), old[1].clone()]);
    // The same key with another effect is a new taint, not an overwrite.
    let (edit, op) = reorganize("m1", &old, false, &[t("a", Some("2"), "NoExecute")], &[]).unwrap();
    assert_eq!(op, Operation::Tainted);
    assert_eq!(edit.apply(&old).len(), 3);
}

#[test]
fn removals_by_key_take_every_effect_and_by_key_and_effect_one() {
    let old = [t("a", None, "NoSchedule"), t("a", None, "NoExecute"), t("b", None, "NoSchedule")];
    let (edit, op) = reorganize("m1", &old, false, &[], &[rm("a", None)]).unwrap();
    assert_eq!(op, Operation::Untainted);
    assert_eq!(edit.apply(&old), vec![old[2].clone()]);
    let (edit, _) = reorganize("m1", &old, false, &[], &[rm("a", Some("NoExecute"))]).unwrap();
    assert_eq!(edit.apply(&old), vec![old[0].clone(), old[2].clone()]);
    // Adding one and removing another is "modified".
    let (edit, op) = reorganize("m1", &old, false, &[t("c", None, "NoSchedule")], &[rm("b", None)]).unwrap();
    assert_eq!(op, Operation::Modified);
    assert_eq!(edit.apply(&old), vec![t("c", None, "NoSchedule"), old[0].clone(), old[1].clone()]);
}

#[test]
fn removals_that_match_nothing_are_all_reported() {
    let old = [t("a", None, "NoSchedule")];
    let err = reorganize("m1", &old, false, &[], &[rm("a", Some("NoExecute")), rm("zz", None)]).unwrap_err();
    assert_eq!(err.to_string(), "[taint \"a:NoExecute\" not found, taint \"zz\" not found]");
    let err = reorganize("m1", &old, false, &[], &[rm("a", None), rm("a", Some("NoSchedule"))]).unwrap_err();
    assert_eq!(err.to_string(), "taint \"a:NoSchedule\" not found", "the first removal took it");
    assert!(matches!(err, TaintError::TaintsNotFound(_)));
}

//! Pod names for `exec`, `attach` and `logs`, and container names for their `-c`, completed
//! live: from the plane, or from the member `-C` names through the plane's cluster proxy
//! (`logs` always, `exec`/`attach` with `-s members`, as the commands themselves choose), in
//! `-n`'s namespace; through `__complete` and through the bash script.

use crate::common::Run;
use crate::common::fleet::Fleet;

const MEMBER: &str = "member1";

fn pod(name: &str, namespace: &str, init: &[&str], containers: &[&str]) -> String {
    let list = |names: &[&str]| -> String {
        names.iter().map(|n| format!("{{\"name\": \"{n}\", \"image\": \"busybox\"}}")).collect::<Vec<_>>().join(", ")
    };
    let init = match init {
        [] => String::new(),
        some => format!("\"initContainers\": [{}], ", list(some)),
    };
    format!(
        "{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"{name}\", \"namespace\": \"{namespace}\"}}, \"spec\": {{{init}\"containers\": [{}]}}}}",
        list(containers)
    )
}

fn create(fleet: &Fleet, context: &str, name: &str, manifest: &str) {
    let file = fleet.home.path().join(format!("{context}-{name}.json"));
    std::fs::write(&file, manifest).unwrap();
    fleet.k_ok(context, &["create", "-f", file.to_str().unwrap()]);
}

fn complete(fleet: &Fleet, words: &[&str]) -> Vec<String> {
    let mut all = vec!["__complete"];
    all.extend(words);
    let run: Run = fleet.karmadactl(&all);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{words:?}");
    run.stdout.lines().map(str::to_string).collect()
}

#[test]
fn pods_and_containers_come_from_the_server_the_command_reaches() {
    let fleet = Fleet::up(1);
    create(&fleet, MEMBER, "web-a", &pod("web-a", "default", &["init"], &["app", "sidecar"]));
    create(&fleet, MEMBER, "web-b", &pod("web-b", "default", &[], &["app"]));
    create(
        &fleet,
        "karmada-apiserver",
        "ns",
        "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"team\"}}",
    );
    create(&fleet, "karmada-apiserver", "plane-pod", &pod("plane-pod", "default", &[], &["main"]));
    create(&fleet, "karmada-apiserver", "team-pod", &pod("team-pod", "team", &[], &["main"]));

    // The plane, in the context's namespace or -n's.
    assert_eq!(complete(&fleet, &["exec", ""]), ["plane-pod"]);
    assert_eq!(complete(&fleet, &["attach", "-n", "team", ""]), ["team-pod"]);
    assert_eq!(complete(&fleet, &["exec", "--namespace=team", "t"]), ["team-pod"]);
    // -C alone does not move exec to the member (upstream needs -s members), so neither does
    // its completion.
    assert_eq!(complete(&fleet, &["exec", "-C", MEMBER, ""]), ["plane-pod"]);

    // The member, through the plane's cluster proxy.
    let members = ["web-a", "web-b"];
    assert_eq!(complete(&fleet, &["exec", "-s", "members", "-C", MEMBER, "web"]), members);
    assert_eq!(complete(&fleet, &["attach", "--operation-scope=members", "--cluster", MEMBER, ""]), members);
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, ""]), members);
    assert_eq!(complete(&fleet, &["logs", "--cluster", MEMBER, "web-b"]), ["web-b"]);
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, "-n", "team", ""]), Vec::<String>::new());
    // logs reaches no server without -C, and an unknown member answers nothing, silently.
    assert_eq!(complete(&fleet, &["logs", ""]), Vec::<String>::new());
    assert_eq!(complete(&fleet, &["logs", "-C", "nope", ""]), Vec::<String>::new());
    // Only the first positional is a pod.
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, "web-a", ""]), Vec::<String>::new());

    // -c: the named pod's init and regular containers, in its order.
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, "web-a", "-c", ""]), ["init", "app", "sidecar"]);
    assert_eq!(complete(&fleet, &["exec", "-s", "members", "-C", MEMBER, "web-a", "-c", "s"]), ["sidecar"]);
    assert_eq!(complete(&fleet, &["attach", "plane-pod", "--container="]), ["--container=main"]);
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, "-c", ""]), Vec::<String>::new());
    assert_eq!(complete(&fleet, &["logs", "-C", MEMBER, "gone", "-c", ""]), Vec::<String>::new());

    // The bash script offers the same.
    let kc = fleet.kubeconfig.to_str().unwrap();
    let line = format!("karmadactl logs --kubeconfig {kc} -C {MEMBER} web-");
    assert_eq!(crate::completion::bash_complete(fleet.home.path(), &line), members);
    let line = format!("karmadactl exec --kubeconfig {kc} -s members -C {MEMBER} web-a -c ");
    assert_eq!(crate::completion::bash_complete(fleet.home.path(), &line), ["init", "app", "sidecar"]);
}

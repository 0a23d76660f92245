//! One server seen by kubectl 1.33 and by karmadactl, for tests that run the same command with
//! both and compare: kubectl works in namespace `theirs`, karmadactl in `ours`, each holding
//! the same objects, on the plane or on a member through the plane's cluster proxy.

use std::path::PathBuf;

use serde_json::Value;

use super::Run;
use super::fleet::Fleet;

/// One server seen by both tools: the plane, or a member through the proxy.
pub struct Twins<'a> {
    pub fleet: &'a Fleet,
    /// kubectl's kubeconfig for the member (`None`: the plane).
    proxy: Option<PathBuf>,
    member: Option<&'a str>,
}

impl<'a> Twins<'a> {
    pub fn plane(fleet: &'a Fleet) -> Self {
        Twins { fleet, proxy: None, member: None }
    }

    pub fn member(fleet: &'a Fleet, name: &'a str) -> Self {
        Twins { fleet, proxy: Some(fleet.proxy_kubeconfig(name)), member: Some(name) }
    }

    pub fn kubectl(&self, args: &[&str]) -> Run {
        match &self.proxy {
            Some(p) => self.fleet.k_with(p, args),
            None => self.fleet.k("karmada-apiserver", args),
        }
    }

    pub fn ours(&self, args: &[&str]) -> Run {
        let mut all = args.to_vec();
        if let Some(m) = self.member {
            all.extend(["-s", "members", "-C", m]);
        }
        self.fleet.karmadactl(&all)
    }

    /// The same objects in both namespaces. (The plane's namespaces reach its members by
    /// themselves, so a member may have them already.)
    pub fn seed(&self) {
        for ns in ["theirs", "ours"] {
            let created = self.kubectl(&["create", "namespace", ns]);
            assert!(created.code == 0 || created.stderr.contains("AlreadyExists"), "{}", created.stderr);
            for args in [
                &["create", "deployment", "web", "--image=nginx", "-n", ns][..],
                &["create", "configmap", "c1", "--from-literal=a=b", "-n", ns],
                &["create", "configmap", "c2", "-n", ns],
            ] {
                let run = self.kubectl(args);
                assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
            }
        }
    }

    /// The Deployments and ConfigMaps of a namespace without what differs between any two
    /// objects (identity, versions, times, the namespace itself).
    pub fn objects(&self, ns: &str) -> Value {
        let run = self.kubectl(&["get", "deployments,configmaps", "-n", ns, "-o", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut list: Value = serde_json::from_str(&run.stdout).unwrap();
        for item in list["items"].as_array_mut().unwrap() {
            let meta = item["metadata"].as_object_mut().unwrap();
            for k in ["resourceVersion", "uid", "creationTimestamp", "deletionTimestamp", "managedFields", "namespace"]
            {
                meta.remove(k);
            }
            item.as_object_mut().unwrap().remove("status");
        }
        list["items"].take()
    }

    /// Runs `args` with both tools, each in its namespace, and checks they agree; returns
    /// karmadactl's run.
    pub fn same(&self, args: &[&str]) -> Run {
        let with_ns = |ns: &'static str| {
            let mut all = args.to_vec();
            all.extend(["-n", ns]);
            all
        };
        let theirs = self.kubectl(&with_ns("theirs"));
        let ours = self.ours(&with_ns("ours"));
        let text = |s: &str| s.replace("theirs", "ours").replace("kubectl.1.33", "karmadactl");
        // client-go may log (klog: `I1127 00:01:27.676833 …`) a watch it cancelled itself when
        // `--timeout` ran out; that is kubectl's diagnostics, not its output.
        let klog = |l: &&str| {
            let b = l.as_bytes();
            b.len() > 5 && b"IWE".contains(&b[0]) && b[1..5].iter().all(u8::is_ascii_digit) && b[5] == b' '
        };
        let their_stderr: String = if theirs.stderr.lines().any(|l| klog(&l)) {
            theirs.stderr.lines().filter(|l| !klog(l)).map(|l| format!("{l}\n")).collect()
        } else {
            theirs.stderr.clone()
        };
        assert_eq!(ours.code, theirs.code, "{args:?}: kubectl said {}, karmadactl said {}", theirs.stderr, ours.stderr);
        assert_eq!(ours.stdout, text(&theirs.stdout), "stdout of {args:?}");
        assert_eq!(ours.stderr, text(&their_stderr), "stderr of {args:?}");
        assert_eq!(self.objects("ours"), self.objects("theirs"), "objects after {args:?}");
        ours
    }
}

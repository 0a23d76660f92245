//! Kube-aware ordering of API versions and groups (`v2` > `v1` > `v1beta2` > `v1alpha1` > `foo`).

use std::cmp::Ordering;

/// (major, stage, minor) where stage 2 = GA, 1 = beta, 0 = alpha.
fn parse(v: &str) -> Option<(u64, u8, u64)> {
    let rest = v.strip_prefix('v')?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let major: u64 = rest[..digits].parse().ok()?;
    if rest[..digits].starts_with('0') {
        return None;
    }
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Some((major, 2, 0));
    }
    let (stage, minor) = if let Some(m) = tail.strip_prefix("beta") {
        (1, m)
    } else if let Some(m) = tail.strip_prefix("alpha") {
        (0, m)
    } else {
        return None;
    };
    if minor.is_empty() || minor.starts_with('0') || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, stage, minor.parse().ok()?))
}

/// Orders versions by kube's priority: `Less` means `a` is preferred over `b`.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    match (parse(a), parse(b)) {
        (Some((ma, sa, na)), Some((mb, sb, nb))) => sb.cmp(&sa).then(mb.cmp(&ma)).then(nb.cmp(&na)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// kube-apiserver's group priorities (`apiVersionPriorities`); groups not listed (CRDs) get
/// 1000, the priority the CRD auto-registration gives them.
pub fn group_priority(group: &str) -> u32 {
    match group {
        "" | "apiregistration.k8s.io" => 18000,
        "apps" => 17800,
        "events.k8s.io" => 17750,
        "authentication.k8s.io" => 17700,
        "authorization.k8s.io" => 17600,
        "autoscaling" => 17500,
        "batch" => 17400,
        "certificates.k8s.io" => 17300,
        "networking.k8s.io" => 17200,
        "policy" => 17100,
        "rbac.authorization.k8s.io" => 17000,
        "storage.k8s.io" => 16800,
        "admissionregistration.k8s.io" | "apiextensions.k8s.io" => 16700,
        "scheduling.k8s.io" => 16600,
        "coordination.k8s.io" => 16500,
        "node.k8s.io" => 16300,
        "discovery.k8s.io" => 16200,
        "flowcontrol.apiserver.k8s.io" => 16100,
        _ => 1000,
    }
}

/// Orders groups as `/apis` lists them: higher priority first, then by name.
pub fn compare_groups(a: &str, b: &str) -> Ordering {
    group_priority(b).cmp(&group_priority(a)).then(a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_aware_order() {
        let mut v = vec!["foo1", "v1alpha1", "v1", "v2beta1", "v10", "v2", "v1beta2", "v11alpha2", "foo10", "v1beta1"];
        v.sort_by(|a, b| compare_versions(a, b));
        assert_eq!(v, ["v10", "v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v11alpha2", "v1alpha1", "foo1", "foo10"]);
    }

    #[test]
    fn groups_order() {
        let mut g =
            vec!["policy.karmada.io", "apps", "", "apiextensions.k8s.io", "admissionregistration.k8s.io", "batch"];
        g.sort_by(|a, b| compare_groups(a, b));
        assert_eq!(
            g,
            ["", "apps", "batch", "admissionregistration.k8s.io", "apiextensions.k8s.io", "policy.karmada.io"]
        );
    }
}

//! kubectl's `describeVolumes`: each volume of a pod (or pod template) with its source's
//! fields, for the sources workloads use (host path, empty dir, secret, config map, projected,
//! downward API, claim, NFS, CSI, image, git repo). Volumes of the legacy in-tree cloud and
//! storage plugins are shown as `<unknown>`.

use serde_json::Value;

use super::prefix_writer::PrefixWriter;

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// A boolean field as Go's `%v` prints it (false when unset).
fn flag(v: &Value) -> bool {
    v.as_bool().unwrap_or(false)
}

/// `space` is the pod template's indent (`"  "`), empty for a pod.
pub fn describe(w: &mut PrefixWriter, volumes: &Value, space: &str) {
    let volumes = volumes.as_array().map(Vec::as_slice).unwrap_or_default();
    if volumes.is_empty() {
        w.write(0, &format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.write(0, &format!("{space}Volumes:\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for volume in volumes {
        w.write(1, &format!("{name_indent}{}:\n", text(&volume["name"])));
        source(w, volume);
    }
}

fn source(w: &mut PrefixWriter, v: &Value) {
    if let Some(s) = v.get("hostPath") {
        let kind = s["type"].as_str().unwrap_or("<none>");
        w.write(
            2,
            &format!(
                "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{kind}\n",
                text(&s["path"])
            ),
        );
    } else if let Some(s) = v.get("emptyDir") {
        let limit = s["sizeLimit"].as_str().map(super::go_format::quantity).filter(|q| !q.starts_with('-') && q != "0");
        w.write(
            2,
            &format!(
                "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{}\n",
                text(&s["medium"]),
                limit.as_deref().unwrap_or("<unset>")
            ),
        );
    } else if let Some(s) = v.get("gitRepo") {
        w.write(
            2,
            &format!(
                "Type:\tGitRepo (a volume that is pulled from git when the pod is created)\n    Repository:\t{}\n    Revision:\t{}\n",
                text(&s["repository"]),
                text(&s["revision"])
            ),
        );
    } else if let Some(s) = v.get("secret") {
        w.write(
            2,
            &format!(
                "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n",
                text(&s["secretName"]),
                flag(&s["optional"])
            ),
        );
    } else if let Some(s) = v.get("configMap") {
        w.write(
            2,
            &format!(
                "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n",
                text(&s["name"]),
                flag(&s["optional"])
            ),
        );
    } else if let Some(s) = v.get("nfs") {
        w.write(
            2,
            &format!(
                "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t{}\n    Path:\t{}\n    ReadOnly:\t{}\n",
                text(&s["server"]),
                text(&s["path"]),
                flag(&s["readOnly"])
            ),
        );
    } else if let Some(s) = v.get("persistentVolumeClaim") {
        w.write(
            2,
            &format!(
                "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
                text(&s["claimName"]),
                flag(&s["readOnly"])
            ),
        );
    } else if let Some(s) = v.get("downwardAPI") {
        w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n");
        for item in s["items"].as_array().into_iter().flatten() {
            if let Some(f) = item.get("fieldRef") {
                w.write(3, &format!("{} -> {}\n", text(&f["fieldPath"]), text(&item["path"])));
            }
            if let Some(r) = item.get("resourceFieldRef") {
                w.write(3, &format!("{} -> {}\n", text(&r["resource"]), text(&item["path"])));
            }
        }
    } else if let Some(s) = v.get("projected") {
        projected(w, s);
    } else if let Some(s) = v.get("csi") {
        csi(w, s);
    } else if let Some(s) = v.get("image") {
        w.write(
            2,
            &format!(
                "Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n",
                text(&s["reference"]),
                text(&s["pullPolicy"])
            ),
        );
    } else {
        w.write(1, "<unknown>\n");
    }
}

fn projected(w: &mut PrefixWriter, s: &Value) {
    w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n");
    for source in s["sources"].as_array().into_iter().flatten() {
        if let Some(secret) = source.get("secret") {
            w.write(
                2,
                &format!("SecretName:\t{}\n    Optional:\t{}\n", text(&secret["name"]), flag(&secret["optional"])),
            );
        } else if source.get("downwardAPI").is_some() {
            w.write(2, "DownwardAPI:\ttrue\n");
        } else if let Some(cm) = source.get("configMap") {
            w.write(2, &format!("ConfigMapName:\t{}\n    Optional:\t{}\n", text(&cm["name"]), flag(&cm["optional"])));
        } else if let Some(token) = source.get("serviceAccountToken") {
            let seconds = token["expirationSeconds"].as_i64().unwrap_or_default();
            w.write(2, &format!("TokenExpirationSeconds:\t{seconds}\n"));
        }
    }
}

fn csi(w: &mut PrefixWriter, s: &Value) {
    w.write(
        2,
        &format!(
            "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t{}\n    FSType:\t{}\n    ReadOnly:\t{}\n",
            text(&s["driver"]),
            text(&s["fsType"]),
            flag(&s["readOnly"])
        ),
    );
    w.write(2, "VolumeAttributes:\t");
    let attributes = super::meta::string_map(s.get("volumeAttributes"));
    if attributes.is_empty() {
        w.line("<none>");
        return;
    }
    for (i, (k, v)) in attributes.iter().enumerate() {
        // kubectl indents every piece of these lines, the value cell too.
        if i != 0 {
            w.write(2, "");
            w.write(2, "\t");
        }
        w.write(2, &format!("{}\n", super::meta::shorten(&format!("{k}={v}"), 140)));
    }
}

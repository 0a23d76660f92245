//! `imageOverrider`: changes the registry, repository or tag of container images, either at an
//! explicit path or, without a predicate, in every container of the workload kinds upstream
//! knows (Pod, and the pod templates of ReplicaSet, Deployment, DaemonSet, StatefulSet, Job).

use karmadactl_karmada_api::policy::overrides::{ImageComponent, ImageOverrider, OverriderOperator};
use serde_json::Value;

use super::image_ref::ImageRef;
use super::patch::{self, apply_op};

/// Applies each overrider in order.
pub fn apply(manifest: &mut Value, overriders: &[ImageOverrider]) -> Result<(), String> {
    for o in overriders {
        let targets = match &o.predicate {
            Some(p) => vec![(p.path.clone(), predicate_image(manifest, &p.path)?)],
            None => default_images(manifest),
        };
        // Every new image is computed before any is written, so one bad image changes nothing.
        let mut replacements = Vec::with_capacity(targets.len());
        for (path, image) in targets {
            let new = override_image(&image, o).map_err(|e| format!("image overrider: {e}"))?;
            replacements.push((path, Value::String(new)));
        }
        for (path, image) in replacements {
            apply_op(manifest, OverriderOperator::Replace, &path, Some(&image))
                .map_err(|e| format!("image overrider: {e}"))?;
        }
    }
    Ok(())
}

/// The image string at the predicate's path.
fn predicate_image(manifest: &Value, path: &str) -> Result<String, String> {
    let fail = |why: String| format!("image overrider: failed to obtain the image at predicate path {path:?}: {why}");
    match patch::get(manifest, path).map_err(fail)? {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(fail(format!("the value is a {}, not a string", patch::kind(other)))),
        None => Err(fail("the path does not exist".into())),
    }
}

/// The container images of a known workload kind, with their paths; none for other kinds.
fn default_images(manifest: &Value) -> Vec<(String, String)> {
    let prefix = match manifest.get("kind").and_then(Value::as_str).unwrap_or("") {
        "Pod" => "/spec",
        "ReplicaSet" | "Deployment" | "DaemonSet" | "StatefulSet" | "Job" => "/spec/template/spec",
        _ => return Vec::new(),
    };
    let containers = patch::get(manifest, &format!("{prefix}/containers")).ok().flatten();
    let Some(Value::Array(containers)) = containers else { return Vec::new() };
    containers
        .iter()
        .enumerate()
        .map(|(i, c)| {
            // A container without an image has the empty image, which fails to parse, as upstream.
            let image = c.get("image").and_then(Value::as_str).unwrap_or("").to_string();
            (format!("{prefix}/containers/{i}/image"), image)
        })
        .collect()
}

/// upstream's `overrideImage`: `add` appends the value to the component, `replace` sets it,
/// `remove` clears it.
fn override_image(image: &str, o: &ImageOverrider) -> Result<String, String> {
    let mut r = ImageRef::parse(image).map_err(|e| format!("failed to parse image {image:?}: {e}"))?;
    let value = o.value.as_deref().unwrap_or("");
    match (o.component, o.operator) {
        (ImageComponent::Registry, OverriderOperator::Add) => r.registry.push_str(value),
        (ImageComponent::Registry, OverriderOperator::Replace) => r.registry = value.to_string(),
        (ImageComponent::Registry, OverriderOperator::Remove) => r.registry.clear(),
        (ImageComponent::Repository, OverriderOperator::Add) => r.repository.push_str(value),
        (ImageComponent::Repository, OverriderOperator::Replace) => r.repository = value.to_string(),
        (ImageComponent::Repository, OverriderOperator::Remove) => r.repository.clear(),
        (ImageComponent::Tag, OverriderOperator::Add) => {
            let joined = format!("{}{value}", r.tag_or_digest());
            r.set_tag_or_digest(&joined);
        }
        (ImageComponent::Tag, OverriderOperator::Replace) => r.set_tag_or_digest(value),
        (ImageComponent::Tag, OverriderOperator::Remove) => r.remove_tag_or_digest(),
    }
    Ok(r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overrider(v: Value) -> Vec<ImageOverrider> {
        serde_json::from_value(v).unwrap()
    }

    fn deployment(images: &[&str]) -> Value {
        let containers: Vec<Value> =
            images.iter().enumerate().map(|(i, im)| json!({"name": format!("c{i}"), "image": im})).collect();
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
            "spec": {"template": {"spec": {"containers": containers}}}})
    }

    fn images(m: &Value) -> Vec<&str> {
        m["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["image"].as_str().unwrap())
            .collect()
    }

    fn run(image: &str, component: &str, operator: &str, value: Option<&str>) -> String {
        let mut m = deployment(&[image]);
        apply(&mut m, &overrider(json!([{"component": component, "operator": operator, "value": value}]))).unwrap();
        images(&m)[0].to_string()
    }

    #[test]
    fn registry() {
        assert_eq!(run("nginx:1.19", "Registry", "add", Some("my.registry.io")), "my.registry.io/nginx:1.19");
        assert_eq!(run("docker.io/nginx:1.19", "Registry", "add", Some("-mirror")), "docker.io-mirror/nginx:1.19");
        assert_eq!(run("a.io:5000/nginx", "Registry", "replace", Some("b.io")), "b.io/nginx");
        assert_eq!(run("nginx", "Registry", "replace", Some("b.io")), "b.io/nginx");
        assert_eq!(run("a.io:5000/x/nginx:1", "Registry", "remove", None), "x/nginx:1");
    }

    #[test]
    fn repository() {
        assert_eq!(run("a.io/nginx:1", "Repository", "add", Some("-alpine")), "a.io/nginx-alpine:1");
        assert_eq!(run("a.io/nginx:1", "Repository", "replace", Some("library/httpd")), "a.io/library/httpd:1");
        assert_eq!(run("a.io/nginx:1", "Repository", "remove", None), "a.io/:1");
    }

    #[test]
    fn tag() {
        let sha = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c";
        assert_eq!(run("nginx:1.19", "Tag", "add", Some("-alpine")), "nginx:1.19-alpine");
        assert_eq!(run("nginx", "Tag", "add", Some("latest")), "nginx:latest");
        assert_eq!(run("nginx:1.19", "Tag", "replace", Some("1.20")), "nginx:1.20");
        assert_eq!(run("nginx:1.19", "Tag", "replace", Some(sha)), format!("nginx@{sha}"));
        assert_eq!(run(&format!("nginx@{sha}"), "Tag", "replace", Some("1.20")), "nginx:1.20");
        assert_eq!(run("nginx:1.19", "Tag", "remove", None), "nginx");
        assert_eq!(run(&format!("nginx@{sha}"), "Tag", "remove", None), "nginx");
    }

    #[test]
    fn every_container_of_known_kinds() {
        let mut m = deployment(&["nginx:1", "busybox"]);
        apply(&mut m, &overrider(json!([{"component": "Registry", "operator": "replace", "value": "r.io"}]))).unwrap();
        assert_eq!(images(&m), ["r.io/nginx:1", "r.io/busybox"]);

        let mut pod = json!({"kind": "Pod", "spec": {"containers": [{"name": "a", "image": "nginx"}],
            "initContainers": [{"name": "i", "image": "busybox"}]}});
        apply(&mut pod, &overrider(json!([{"component": "Tag", "operator": "replace", "value": "v2"}]))).unwrap();
        assert_eq!(pod["spec"]["containers"][0]["image"], "nginx:v2");
        assert_eq!(pod["spec"]["initContainers"][0]["image"], "busybox", "upstream leaves init containers alone");

        let mut cm = json!({"kind": "ConfigMap", "data": {"image": "nginx"}});
        let before = cm.clone();
        apply(&mut cm, &overrider(json!([{"component": "Tag", "operator": "replace", "value": "v2"}]))).unwrap();
        assert_eq!(cm, before);
    }

    #[test]
    fn predicate_path() {
        let mut m = deployment(&["nginx:1", "busybox"]);
        let o = overrider(json!([{"predicate": {"path": "/spec/template/spec/containers/1/image"},
            "component": "Registry", "operator": "add", "value": "r.io"}]));
        apply(&mut m, &o).unwrap();
        assert_eq!(images(&m), ["nginx:1", "r.io/busybox"]);

        let o = overrider(json!([{"predicate": {"path": "/spec/template/spec/containers/5/image"},
            "component": "Registry", "operator": "add", "value": "r.io"}]));
        assert_eq!(
            apply(&mut m, &o).unwrap_err(),
            "image overrider: failed to obtain the image at predicate path \"/spec/template/spec/containers/5/image\": \
             the path does not exist"
        );
    }

    #[test]
    fn unparsable_image_changes_nothing() {
        let mut m = deployment(&["nginx", "Bad:Image"]);
        let err =
            apply(&mut m, &overrider(json!([{"component": "Tag", "operator": "replace", "value": "v2"}]))).unwrap_err();
        assert_eq!(err, "image overrider: failed to parse image \"Bad:Image\": repository name must be lowercase");
        assert_eq!(images(&m), ["nginx", "Bad:Image"]);
    }
}

//! `api-resources` output, as kubectl prints it: a tab-aligned table (NAME SHORTNAMES
//! APIVERSION NAMESPACED KIND, plus VERBS and CATEGORIES with `-o wide`), `-o name` as
//! `plural.group`, and `-o json|yaml` as one flat APIResourceList.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::APIResourceList;

use super::discovery::Listed;
use crate::output::{OutputFormat, TabWriter};

/// `--sort-by`: kubectl sorts by group unless told name or kind, and breaks ties by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    #[default]
    Group,
    Name,
    Kind,
}

pub fn sort(resources: &mut [Listed], by: SortBy) {
    resources.sort_by(|a, b| {
        let key = |r: &Listed| match by {
            SortBy::Group => r.group.clone().unwrap_or_default(),
            SortBy::Name => r.name.clone(),
            SortBy::Kind => r.kind.clone(),
        };
        key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
    });
}

/// `group/version`, or `version` for the core group.
fn group_version(r: &Listed) -> String {
    match (r.group.as_deref().unwrap_or_default(), r.version.as_deref().unwrap_or_default()) {
        ("", v) => v.to_string(),
        (g, v) => format!("{g}/{v}"),
    }
}

pub fn table(resources: &[Listed], wide: bool, no_headers: bool) -> String {
    let mut w = TabWriter::new();
    if !no_headers {
        w.write(if wide {
            "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\tVERBS\tCATEGORIES\n"
        } else {
            "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n"
        });
    }
    for r in resources {
        let short = r.short_names.as_deref().unwrap_or_default().join(",");
        w.write(&format!("{}\t{short}\t{}\t{}\t{}", r.name, group_version(r), r.namespaced, r.kind));
        if wide {
            let categories = r.categories.as_deref().unwrap_or_default().join(",");
            w.write(&format!("\t{}\t{categories}", r.verbs.join(",")));
        }
        w.write("\n");
    }
    w.finish()
}

pub fn names(resources: &[Listed]) -> String {
    resources
        .iter()
        .map(|r| match r.group.as_deref().unwrap_or_default() {
            "" => format!("{}\n", r.name),
            g => format!("{}.{g}\n", r.name),
        })
        .collect()
}

/// The flat list kubectl prints for `-o json|yaml`: one APIResourceList, no group version of
/// its own, every entry carrying its group and version.
pub fn structured(resources: Vec<Listed>, format: OutputFormat) -> anyhow::Result<String> {
    let list = APIResourceList { group_version: String::new(), resources };
    Ok(crate::output::to_format(format, &list)?)
}

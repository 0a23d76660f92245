//! Turns a CustomResourceDefinition into one resource definition per served version.

use std::sync::Arc;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionVersion,
};

use super::catalog::RegistryError;
use super::resources::{NameRule, PrinterColumn, ResourceDef, Source, Subresource, VERBS_CUSTOM};
use super::validation::{CrdValidator, validate_crd_before_compiling};

/// The served versions of a valid CRD as resource definitions, schemas compiled.
pub(crate) fn defs_from_crd(crd: &CustomResourceDefinition) -> Result<Vec<ResourceDef>, RegistryError> {
    let name = crd.metadata.name.clone().unwrap_or_default();
    // `compile` below rejects a schema that does not compile; compiling it twice doubled the
    // plane's start-up work for its own CRDs.
    let errors = validate_crd_before_compiling(crd);
    if !errors.is_empty() {
        return Err(RegistryError::InvalidCrd { name, errors });
    }
    let spec = &crd.spec;
    let storage_version = spec.versions.iter().find(|v| v.storage).map(|v| v.name.clone()).unwrap_or_default();
    let names = &spec.names;
    let mut defs = Vec::new();
    for version in spec.versions.iter().filter(|v| v.served) {
        let (schema, validator) = compile(&name, version)?;
        defs.push(ResourceDef {
            group: spec.group.clone(),
            version: version.name.clone(),
            kind: names.kind.clone(),
            list_kind: names.list_kind.clone().unwrap_or_else(|| format!("{}List", names.kind)),
            plural: names.plural.clone(),
            singular: names.singular.clone().unwrap_or_else(|| names.kind.to_ascii_lowercase()),
            short_names: names.short_names.clone().unwrap_or_default(),
            categories: names.categories.clone().unwrap_or_default(),
            namespaced: spec.scope == "Namespaced",
            verbs: VERBS_CUSTOM.iter().map(|v| v.to_string()).collect(),
            subresources: subresources(version),
            printer_columns: printer_columns(version),
            source: Source::Crd {
                name: name.clone(),
                uid: crd.metadata.uid.clone(),
                storage: version.storage,
                served: true,
                storage_version: storage_version.clone(),
            },
            name_rule: NameRule::Dns1123Subdomain,
            schema,
            validator: validator.map(Arc::new),
        });
    }
    Ok(defs)
}

type Compiled = (Option<Arc<serde_json::Value>>, Option<CrdValidator>);

fn compile(crd: &str, version: &CustomResourceDefinitionVersion) -> Result<Compiled, RegistryError> {
    let Some(props) = version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) else {
        return Ok((None, None));
    };
    let schema = serde_json::to_value(props).map_err(|e| RegistryError::Schema {
        crd: crd.to_string(),
        version: version.name.clone(),
        message: e.to_string(),
    })?;
    let schema = Arc::new(schema);
    let validator = CrdValidator::shared(schema.clone()).map_err(|e| RegistryError::Schema {
        crd: crd.to_string(),
        version: version.name.clone(),
        message: e.to_string(),
    })?;
    Ok((Some(schema), Some(validator)))
}

fn subresources(version: &CustomResourceDefinitionVersion) -> Vec<Subresource> {
    let mut out = Vec::new();
    if let Some(subs) = &version.subresources {
        if subs.status.is_some() {
            out.push(Subresource::Status);
        }
        if let Some(scale) = &subs.scale {
            out.push(Subresource::Scale {
                spec_replicas_path: scale.spec_replicas_path.clone(),
                status_replicas_path: scale.status_replicas_path.clone(),
                label_selector_path: scale.label_selector_path.clone(),
            });
        }
    }
    out
}

fn printer_columns(version: &CustomResourceDefinitionVersion) -> Vec<PrinterColumn> {
    version
        .additional_printer_columns
        .iter()
        .flatten()
        .map(|c| PrinterColumn {
            name: c.name.clone(),
            type_: c.type_.clone(),
            format: c.format.clone().unwrap_or_default(),
            description: c.description.clone().unwrap_or_default(),
            json_path: c.json_path.clone(),
            priority: c.priority.unwrap_or(0),
        })
        .collect()
}

//! `config.karmada.io/v1alpha1`: how users teach the resource interpreter about a kind, with
//! Lua scripts ([`customization`]) or webhooks ([`webhook`]), and the dependency references
//! an interpreter answers with ([`dependency`]). The CRDs themselves are upstream's
//! ([`crate::upstream_crds`]); these types are what the interpreter reads from the objects.

pub mod customization;
pub mod dependency;
pub mod webhook;

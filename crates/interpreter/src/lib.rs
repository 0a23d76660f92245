//! The resource interpreter (upstream's `pkg/resourceinterpreter`): what Karmada needs to know
//! about a kind to propagate it well — how many replicas it has and what each needs, how to
//! write a cluster's share back, which member-side fields to keep on update, what status to
//! reflect from a member and how members' statuses add up, whether a member's copy is healthy,
//! and which objects it depends on.
//!
//! [`Interpreter`] answers each [`Operation`] from the first of four sources that has a rule
//! for the object's kind, in upstream's order: the user's `ResourceInterpreterCustomization`
//! objects (Lua), interpreter webhooks, the shipped third-party customizations (Lua), and the
//! native interpreters for built-in kinds ([`native`]). Scripts run in an embedded, sandboxed
//! Lua 5.1 ([`lua`]); [`customization`] merges the objects into rule sets.
//!
//! Layering: depends on the Karmada API types and apimachinery only; the engine and the CLI
//! (`karmadactl interpret`, which runs offline) depend on it. It never talks to the plane: the
//! engine hands it the customization and webhook configuration objects it watches; its only
//! network calls are to the interpreter webhooks those configurations name ([`webhook`]).

#![forbid(unsafe_code)]

pub mod customization;
mod dependencies;
mod error;
mod interpreter;
pub mod lua;
pub mod native;
mod operation;
mod revision_memo;
mod target;
mod thirdparty;
pub mod webhook;

pub use customization::{Customization, RuleSet};
pub use error::InterpretError;
pub use interpreter::{Interpreter, Replicas, Source};
pub use lua::Limits;
pub use operation::Operation;
pub use target::Target;
pub use webhook::WebhookSet;

//! Objects as stored: their keys and reads and writes with Status errors, the metadata the
//! server owns, the set of active namespaces, and writes the plane makes on its own behalf.

pub(crate) mod active_namespaces;
pub(crate) mod internal;
pub(crate) mod object;
pub mod store_access;

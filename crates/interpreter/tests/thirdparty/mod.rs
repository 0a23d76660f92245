//! Helpers of the third-party fixture cases.

pub mod compare;

//! Helpers of the third-party fixture cases.

pub mod cases;
pub mod compare;

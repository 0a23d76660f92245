//! Why an interpreter could not answer.

use crate::Operation;

/// A failed interpretation. The text names the operation and the rule's source, so a user
/// can find the script or webhook at fault.
#[derive(Debug, thiserror::Error)]
pub enum InterpretError {
    /// A script does not compile, or does not define the operation's function.
    #[error("{operation} script of {source_name}: {message}")]
    Script { operation: Operation, source_name: String, message: String },
    /// The script failed while running (a Lua error, or its instruction, memory or time budget ran out).
    #[error("{operation} script of {source_name} failed: {message}")]
    Runtime { operation: Operation, source_name: String, message: String },
    /// The script or webhook answered with something that is not what the operation returns.
    #[error("{operation} by {source_name} returned an invalid result: {message}")]
    InvalidResult { operation: Operation, source_name: String, message: String },
    /// An interpreter webhook could not be called or refused the request.
    #[error("{operation} webhook {source_name}: {message}")]
    Webhook { operation: Operation, source_name: String, message: String },
    /// The object given to the interpreter is not what the operation needs.
    #[error("{operation}: {message}")]
    InvalidInput { operation: Operation, message: String },
}

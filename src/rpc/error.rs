//! Why a call got no answer, and the one mapping from those reasons to `tonic::Status`.

use std::time::Duration;

use sudoku_core::grader::GradeError;
use sudoku_core::text::{ParseError, PuzzleError};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::pool::QueueFull;
use crate::wire::{self, BadField, InputError, VariantInputError};

/// Why a call, or one SolveBatch item, got no answer. Only [`Status::from`] turns these into
/// statuses.
#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    /// The puzzle's text or its givens are at fault.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// Another field of the request is at fault.
    #[error(transparent)]
    BadField(#[from] BadField),
    /// The request's variant (its f-puzzles text, rules or givens) is at fault.
    #[error(transparent)]
    Variant(#[from] VariantInputError),
    /// Every place in the queue for a solver is taken.
    #[error(
        "the server is at capacity: {} Solve calls already wait for a solver \
         (the limit is --max-queued-solves)", .0.limit
    )]
    Overloaded(#[from] QueueFull),
    /// No solver was free within the queue timeout.
    #[error("no solver became free within {0:?} (the limit is --queue-timeout)")]
    QueueTimeout(Duration),
    /// The call's deadline passed first.
    #[error("the deadline passed before the puzzle was solved")]
    DeadlineExceeded,
    /// The server is shutting down and ended the stream before all of it was answered; the string
    /// says what was left unanswered.
    #[error("draining: the server is shutting down; {0}: send them to another server")]
    Draining(String),
    /// Our own failure, never the request's.
    #[error("the solver stopped unexpectedly: {0}")]
    Internal(String),
}

impl RpcError {
    /// The gRPC status code that tells a client what happened.
    pub fn code(&self) -> Code {
        match self {
            RpcError::Puzzle(_) | RpcError::BadField(_) | RpcError::Variant(_) => {
                Code::InvalidArgument
            }
            RpcError::Overloaded(_) | RpcError::QueueTimeout(_) => Code::ResourceExhausted,
            RpcError::DeadlineExceeded => Code::DeadlineExceeded,
            RpcError::Draining(_) => Code::Unavailable,
            RpcError::Internal(_) => Code::Internal,
        }
    }
}

impl From<ParseError> for RpcError {
    fn from(err: ParseError) -> RpcError {
        RpcError::Puzzle(PuzzleError::Parse(err))
    }
}

impl From<InputError> for RpcError {
    fn from(err: InputError) -> RpcError {
        match err {
            InputError::Puzzle(e) => RpcError::Puzzle(e),
            InputError::Variant(e) => RpcError::Variant(e),
        }
    }
}

impl From<GradeError> for RpcError {
    fn from(err: GradeError) -> RpcError {
        match err {
            GradeError::Cancelled => RpcError::DeadlineExceeded,
            GradeError::WrongSolution | GradeError::AboveCeiling(_) => {
                RpcError::Internal(err.to_string())
            }
        }
    }
}

/// A bad request also carries `google.rpc.BadRequest` details naming the field at fault
/// (`puzzle`, `box_rows`, `symbols`, `fpuzzles`, `rules`...), for clients that read rich errors.
impl From<RpcError> for Status {
    fn from(err: RpcError) -> Status {
        let (code, message) = (err.code(), err.to_string());
        let field = match &err {
            RpcError::Puzzle(e) => wire::faulty_field(e),
            RpcError::BadField(e) => e.field,
            RpcError::Variant(e) => e.field(),
            _ => return Status::new(code, message),
        };
        Status::with_error_details(
            code,
            message.clone(),
            ErrorDetails::with_bad_request_violation(field, message),
        )
    }
}

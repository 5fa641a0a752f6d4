//! Canonicalize: the core's min-lex key of a 9x9 puzzle, served.

use tonic::{Request, Response, Status};

use super::Sudoku;
use crate::proto::{CanonicalizeRequest, CanonicalizeResponse};

/// The canonical form of one puzzle.
pub(super) async fn canonicalize(
    _service: &Sudoku,
    _request: Request<CanonicalizeRequest>,
) -> Result<Response<CanonicalizeResponse>, Status> {
    Err(Status::unimplemented("Canonicalize is not served yet"))
}

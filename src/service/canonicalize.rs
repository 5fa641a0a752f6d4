//! Canonicalize: the core's min-lex key of a 9x9 puzzle, served.
//!
//! Any grid the reader accepts has a key, clashing givens included: clashes are carried over by every
//! transformation, so the key is well defined, and a data team deduplicating raw input wants one for
//! every line. Only unreadable text fails, with Solve's INVALID_ARGUMENT and message. The key takes
//! tens of microseconds (a few milliseconds for the most symmetric grids) and is bounded for every
//! input, so it runs on the solver pool without a cancel flag or budget.

use tonic::{Code, Request, Response, Status};

use super::{CallEnd, SolveError, Sudoku, echo_request_id};
use crate::canonicalization::{self, Canonical};
use crate::grid::{Grid, PuzzleError};
use crate::grpc::REQUEST_ID;
use crate::proto::{CanonicalizeRequest, CanonicalizeResponse};
use sudoku_core::text::Format;

/// The canonical form of one puzzle.
pub(super) async fn canonicalize(
    service: &Sudoku,
    request: Request<CanonicalizeRequest>,
) -> Result<Response<CanonicalizeResponse>, Status> {
    let deadline = crate::grpc::deadline(&request);
    let span = tracing::debug_span!(
        "rpc",
        method = "Canonicalize",
        request_id = crate::grpc::request_id(&request)
    );
    let request_id = request.metadata().get(REQUEST_ID).cloned();
    let mut end = CallEnd::new("Canonicalize", service.metrics.clone(), span);
    let text = request.into_inner().puzzle;
    let result = async {
        // Read as Solve reads, so unreadable text gets the same words; only then is the shape checked.
        let grid = Grid::read(&text, &Format::default())
            .map_err(|e| SolveError::Puzzle(PuzzleError::Parse(e)))?
            .grid;
        // A panic, which would be our bug, fails this call alone.
        service
            .run_unary(deadline, move |_| {
                Some(
                    std::panic::catch_unwind(|| canonicalization::canonicalize(&grid))
                        .map_err(|_| SolveError::Internal(format!("canonicalize failed on {grid}")))
                        .and_then(|key| {
                            key.map_err(|e| SolveError::BadRequest {
                                field: "puzzle",
                                message: e.to_string(),
                            })
                        }),
                )
            })
            .await?
    }
    .await;
    end.code = result.as_ref().map_or_else(SolveError::code, |_| Code::Ok);
    let canonical: Canonical = result?;
    let answer = CanonicalizeResponse {
        canonical: canonical.key(),
        transform: canonical.transform.to_string(),
    };
    Ok(echo_request_id(request_id, Response::new(answer)))
}

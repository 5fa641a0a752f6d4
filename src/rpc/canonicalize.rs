//! Canonicalize: the core's min-lex key of a 9x9 puzzle, served.
//!
//! Any grid the reader accepts has a key, clashing givens included: clashes are carried over by every
//! transformation, so the key is well defined, and a data team deduplicating raw input wants one for
//! every line. Only unreadable text fails, with Solve's INVALID_ARGUMENT and message. The key takes
//! tens of microseconds (a few milliseconds for the most symmetric grids) and is bounded for every
//! input, so it runs on the solver pool without a cancel flag or budget.

use sudoku_core::canonicalization;
use sudoku_core::grid::Grid;
use sudoku_core::text::Format;
use tonic::{Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::proto::{CanonicalizeRequest, CanonicalizeResponse};
use crate::wire::BadField;

/// The canonical form of one puzzle.
pub(super) async fn canonicalize(
    service: &Sudoku,
    request: Request<CanonicalizeRequest>,
) -> Result<Response<CanonicalizeResponse>, Status> {
    let deadline = crate::layer::deadline(&request);
    let text = request.into_inner().puzzle;
    // Read as Solve reads, so unreadable text gets the same words; only then is the shape checked.
    let grid = Grid::read(&text, &Format::default())
        .map_err(RpcError::from)?
        .grid;
    let canonical = service
        .run_unary(deadline, move |_| {
            Some(canonicalization::canonicalize(&grid).map_err(|e| BadField {
                field: "puzzle",
                message: e.to_string(),
            }))
        })
        .await?
        .map_err(RpcError::from)?;
    Ok(Response::new(CanonicalizeResponse {
        canonical: canonical.key(),
        transform: canonical.transform.to_string(),
    }))
}

//! Canonicalize: the core's min-lex key of a 9x9 puzzle, served.
//!
//! Any grid the reader accepts has a key, clashing givens included: clashes are carried over by every
//! transformation, so the key is well defined, and a data team deduplicating raw input wants one for
//! every line. Only unreadable text fails, with Solve's INVALID_ARGUMENT and message. The key takes
//! tens of microseconds (a few milliseconds for the most symmetric grids) and is bounded for every
//! input, so it runs on a solver slot without a cancel flag or budget.

use std::time::Instant;

use tonic::{Code, Request, Response, Status};
use tracing::Instrument;

use super::{SolveError, Sudoku, echo_request_id};
use crate::canonicalization::{self, Canonical};
use crate::grid::{Grid, PuzzleError};
use crate::grpc::REQUEST_ID;
use crate::proto::{CanonicalizeRequest, CanonicalizeResponse};

/// The canonical form of one puzzle.
pub(super) async fn canonicalize(
    service: &Sudoku,
    request: Request<CanonicalizeRequest>,
) -> Result<Response<CanonicalizeResponse>, Status> {
    let deadline = crate::grpc::deadline(&request);
    let span = tracing::info_span!(
        "rpc",
        method = "Canonicalize",
        request_id = crate::grpc::request_id(&request)
    );
    let request_id = request.metadata().get(REQUEST_ID).cloned();
    async move {
        let started = Instant::now();
        let text = request.into_inner().puzzle;
        let work = async {
            let grid = Grid::parse(&text).map_err(|e| SolveError::Puzzle(PuzzleError::Parse(e)))?;
            key_off_thread(service, grid).await
        };
        let result = match deadline {
            // Gone before it began: do no work at all.
            Some(deadline) if deadline <= Instant::now() => Err(SolveError::DeadlineExceeded),
            Some(deadline) => tokio::time::timeout_at(deadline.into(), work)
                .await
                .unwrap_or(Err(SolveError::DeadlineExceeded)),
            None => work.await,
        };
        let code = result.as_ref().map_or_else(SolveError::code, |_| Code::Ok);
        service.metrics.rpc("Canonicalize", code, started.elapsed());
        tracing::info!(
            elapsed_us = started.elapsed().as_micros() as u64,
            ?code,
            "canonicalize finished"
        );
        let canonical = result?;
        let answer = CanonicalizeResponse {
            canonical: canonical.key(),
            transform: canonical.transform.to_string(),
        };
        Ok(echo_request_id(request_id, Response::new(answer)))
    }
    .instrument(span)
    .await
}

/// Computes the key on the blocking pool while holding a solver slot, so that a flood of calls waits
/// in the same bounded queue as Solve's. A panic, which would be our bug, fails this call alone.
async fn key_off_thread(service: &Sudoku, grid: Grid) -> Result<Canonical, SolveError> {
    let slot = service.unary_slot().await?;
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        std::panic::catch_unwind(|| canonicalization::canonicalize(&grid))
            .map_err(|_| SolveError::Internal(format!("canonicalize failed on {grid}")))?
            // The reader only makes 9x9 grids; a request cannot name another shape.
            .map_err(|e| SolveError::Internal(e.to_string()))
    });
    task.await
        .map_err(|e| SolveError::Internal(e.to_string()))?
}

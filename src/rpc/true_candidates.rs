//! TrueCandidates: for each cell of a puzzle, classic or variant, the symbols some solution puts
//! there, found on the pool by the variant solver within Solve's guess budget. A classic puzzle
//! goes in as a variant with its boxes for regions and no other rule.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sudoku_core::solver::Verdict;
use sudoku_core::variant::{self, TrueCandidates};
use tonic::{Request, Response, Status};

use super::solve::Job;
use super::{RpcError, Sudoku};
use crate::metrics::Metrics;
use crate::proto::{self, SolveRequest, SolveStats, TrueCandidatesResponse};
use crate::wire::{self, Input, SolveInput, VariantRead};

/// Answers one TrueCandidates call.
pub(super) async fn true_candidates(
    service: &Sudoku,
    request: Request<SolveRequest>,
) -> Result<Response<TrueCandidatesResponse>, Status> {
    let deadline = crate::layer::deadline(&request);
    let request = request.into_inner();
    // Every solution counts: the search runs to its end or its budget, whatever the request's
    // `skip_uniqueness_check` says.
    let job = Job::new(service, false, request.max_guesses);
    let metrics = service.metrics.clone();
    let read = request
        .input()
        .map_err(RpcError::from)
        .and_then(|input| match input {
            Input::Classic(read) => Ok(wire::classic_variant(&read)?),
            Input::Variant(variant) => Ok(variant),
        })
        .inspect_err(|_| metrics.puzzle(proto::Verdict::Invalid.as_str_name()))?;
    let answer = service
        .run_unary(deadline, move |stop| {
            let result = candidates_guarded(&read, job, stop, &metrics);
            let verdict = match &result {
                Ok(answer) if answer.verdict() == proto::Verdict::Unspecified => return None,
                Ok(answer) => answer.verdict(),
                Err(_) => proto::Verdict::Unspecified,
            };
            metrics.puzzle(verdict.as_str_name());
            Some(result)
        })
        .await??;
    tracing::debug!(verdict = answer.verdict().as_str_name(), "true candidates");
    Ok(Response::new(answer))
}

/// Runs the search for true candidates, timed, on the calling (worker) thread; a panic in it
/// becomes an error for this call alone. A cancelled search answers VERDICT_UNSPECIFIED, which the
/// caller drops.
fn candidates_guarded(
    read: &VariantRead,
    job: Job,
    cancel: &AtomicBool,
    metrics: &Metrics,
) -> Result<TrueCandidatesResponse, RpcError> {
    let options = job.options(cancel);
    let start = Instant::now();
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        variant::true_candidates(&read.variant, &options)
    }))
    .map_err(|_| RpcError::Internal("the true-candidates search failed".into()))?;
    let elapsed = start.elapsed();
    metrics.solve_time(elapsed);
    Ok(response(read, found, elapsed))
}

/// The answer for what the search `found`: each cell's candidates written in the request's
/// alphabet, only when the search accounted for every solution and there is one.
fn response(
    read: &VariantRead,
    found: TrueCandidates,
    elapsed: std::time::Duration,
) -> TrueCandidatesResponse {
    let complete = matches!(found.verdict, Verdict::Unique | Verdict::Multiple);
    let cells = match found.cells {
        Some(cells) if complete => cells
            .iter()
            .map(|&mask| read.alphabet.write_mask(mask))
            .collect(),
        _ => Vec::new(),
    };
    TrueCandidatesResponse {
        verdict: proto::Verdict::from(found.verdict).into(),
        cells,
        stats: Some(SolveStats {
            guesses: found.stats.guesses,
            solve_time_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
        }),
    }
}
